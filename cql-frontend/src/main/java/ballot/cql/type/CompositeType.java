package ballot.cql.type;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Cassandra's {@code CompositeType(T1,T2,...)}: components with no comparator part, the i-th of type Ti; a value may
 * have fewer components than types. Comparable encoding, per component: {@code 0x40}, the component type's encoding,
 * the end-of-component byte with its sign bit flipped; then {@code 0x20}. The end byte sorts below the next
 * component's {@code 0x40}, so a prefix sorts first, as in {@link #compare}.
 */
final class CompositeType extends AbstractCompositeType {
    private static final int NEXT_COMPONENT = 0x40;
    private static final int END = 0x20;

    private final List<CqlType> types;

    CompositeType(List<CqlType> types) {
        super(MARSHAL_PACKAGE + "CompositeType" + parameters(types));
        this.types = List.copyOf(types);
    }

    private static String parameters(List<CqlType> types) {
        StringBuilder sb = new StringBuilder("(");
        for (CqlType t : types)
            sb.append(sb.length() > 1 ? "," : "").append(t.marshalName(false));
        return sb.append(')').toString();
    }

    @Override
    CqlType readComparator(int index, ByteBuffer in) {
        if (index >= types.size())
            throw invalid("Too many bytes for comparator");
        return types.get(index);
    }

    @Override
    String comparatorText(Component component) {
        return "";
    }

    @Override
    ParsedPart parsePart(int index, String part) {
        return new ParsedPart(Buffers.empty(), readComparator(index, null), part);
    }

    @Override
    int compareTypes(CqlType left, CqlType right) {
        return 0;
    }

    @Override
    public boolean referencesDuration() {
        return types.stream().anyMatch(CqlType::referencesDuration);
    }

    @Override
    public boolean isAllowedInPrimaryKey() {
        return types.stream().allMatch(CqlType::isAllowedInPrimaryKey);
    }

    @Override
    public void encodeComparable(ByteBuffer value, ComparableBytesWriter out) {
        for (Component c : components(value)) {
            out.write(NEXT_COMPONENT);
            c.type().encodeComparable(c.value(), out);
            out.write(c.endOfComponent() ^ 0x80);
        }
        out.write(END);
    }

    @Override
    public ByteBuffer decodeComparable(ComparableBytesReader in) {
        List<Component> components = new ArrayList<>();
        for (int marker = in.read(); marker != END; marker = in.read()) {
            if (marker != NEXT_COMPONENT || components.size() >= types.size())
                throw in.malformed("bad component marker " + marker + " for " + cqlName());
            CqlType type = types.get(components.size());
            ByteBuffer component = type.decodeComparable(in);
            components.add(new Component(type, Buffers.empty(), component, (byte) (in.read() ^ 0x80)));
        }
        return serialize(components);
    }
}
