package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Cassandra's {@code DynamicCompositeType(a=>T1,b=>T2,...)}: each component names its own type in a 2-byte header,
 * either an alias ({@code 0x80} then the alias byte) or the length of the marshal class name that follows. Components
 * of different types order by the class's simple name, then its full name. Not allowed in a primary key: the same
 * value can be written with an alias or a class name, so there is no canonical comparable encoding.
 */
final class DynamicCompositeType extends AbstractCompositeType {
    private final SortedMap<Byte, CqlType> aliases;

    DynamicCompositeType(Map<Byte, CqlType> aliases) {
        super(MARSHAL_PACKAGE + "DynamicCompositeType" + parameters(new TreeMap<>(aliases)));
        this.aliases = new TreeMap<>(aliases);
    }

    private static String parameters(SortedMap<Byte, CqlType> aliases) {
        StringBuilder sb = new StringBuilder("(");
        for (Map.Entry<Byte, CqlType> e : aliases.entrySet())
            sb.append(sb.length() > 1 ? "," : "").append((char) (byte) e.getKey()).append("=>")
                    .append(e.getValue().marshalName(false));
        return sb.append(')').toString();
    }

    @Override
    CqlType readComparator(int index, ByteBuffer in) {
        if (in.remaining() < 2)
            throw invalid("Not enough bytes to header of the comparator part of component " + index);
        int header = in.getShort() & 0xFFFF;
        CqlType type;
        if ((header & 0x8000) != 0) {
            type = aliases.get((byte) (header & 0xFF));
        } else {
            if (in.remaining() < header)
                throw invalid("Not enough bytes to read comparator name of component " + index);
            byte[] name = new byte[header];
            in.get(name);
            type = parseClass(new String(name, StandardCharsets.UTF_8));
        }
        if (type == null)
            throw invalid("Cannot find comparator for component " + index);
        return type;
    }

    private static CqlType parseClass(String className) {
        try {
            return MarshalNameParser.parse(className);
        } catch (InvalidRequestException e) {
            return null;
        }
    }

    @Override
    String comparatorText(Component component) {
        ByteBuffer part = component.comparatorPart();
        int header = part.getShort(part.position()) & 0xFFFF;
        if ((header & 0x8000) != 0)
            return (char) (header & 0xFF) + "@";
        return StandardCharsets.UTF_8.decode(part.duplicate().position(part.position() + 2)) + "@";
    }

    @Override
    ParsedPart parsePart(int index, String part) {
        String[] split = part.split("@");
        if (split.length != 2)
            return new ParsedPart(null, null, null);
        String comparator = split[0];
        CqlType aliased = comparator.length() == 1 ? aliases.get((byte) comparator.charAt(0)) : null;
        if (aliased != null) {
            ByteBuffer header = ByteBuffer.allocate(2).putShort((short) (0x8000 | (comparator.charAt(0) & 0xFF))).flip();
            return new ParsedPart(header, aliased, split[1]);
        }
        CqlType type = parseClass(comparator);
        if (type == null)
            throw invalid("Invalid component representation: " + part);
        byte[] name = comparator.getBytes(StandardCharsets.UTF_8);
        ByteBuffer header = ByteBuffer.allocate(2 + name.length).putShort((short) name.length).put(name).flip();
        return new ParsedPart(header, type, split[1]);
    }

    @Override
    int compareTypes(CqlType left, CqlType right) {
        String l = baseClass(left);
        String r = baseClass(right);
        int c = l.substring(l.lastIndexOf('.') + 1).compareTo(r.substring(r.lastIndexOf('.') + 1));
        return c != 0 ? c : l.compareTo(r);
    }

    /** The marshal class without its parameters, as Java's {@code getClass().getName()} gives it in Cassandra. */
    private static String baseClass(CqlType type) {
        String name = type.marshalName(true);
        int parameters = name.indexOf('(');
        return parameters < 0 ? name : name.substring(0, parameters);
    }

    @Override
    public boolean isAllowedInPrimaryKey() {
        return false;
    }

    @Override
    public void encodeComparable(ByteBuffer value, ComparableBytesWriter out) {
        throw new InvalidRequestException("Ballot does not support " + cqlName() + " in a primary key");
    }

    @Override
    public ByteBuffer decodeComparable(ComparableBytesReader in) {
        throw new IllegalArgumentException("type " + cqlName() + " has no comparable encoding");
    }
}
