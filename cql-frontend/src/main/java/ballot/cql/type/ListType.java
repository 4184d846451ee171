package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/** {@code list<T>}, frozen or not. Java form: {@code List} of the element's Java form. Literal {@code [a, b]}. */
public final class ListType extends CollectionType {
    private final CqlType elements;

    ListType(CqlType elements, boolean frozen) {
        super(frozen);
        this.elements = elements;
    }

    public CqlType elements() {
        return elements;
    }

    @Override
    public Kind kind() {
        return Kind.LIST;
    }

    @Override
    String noun() {
        return "list";
    }

    @Override
    CqlType typeAt(int index) {
        return elements;
    }

    @Override
    public String cqlName() {
        String name = "list<" + elements.cqlName() + ">";
        return frozen ? "frozen<" + name + ">" : name;
    }

    @Override
    public ListType freeze() {
        return frozen ? this : new ListType(elements, true);
    }

    @Override
    public boolean referencesDuration() {
        return elements.referencesDuration();
    }

    @Override
    public void writeTypeOption(ByteBuf out, int protocolVersion) {
        out.writeShort(0x0020);
        elements.writeTypeOption(out, protocolVersion);
    }

    @Override
    String marshalName(boolean ignoreFreezing) {
        return marshalName(ignoreFreezing, "ListType", elements);
    }

    /** Serializes the elements of a list literal, in order. Elements must be non-null valid values. */
    public ByteBuffer pack(List<ByteBuffer> values) {
        requireNoNulls(values);
        for (ByteBuffer v : values)
            elements.validate(v);
        return join(values, values.size());
    }

    /**
     * A list whose null elements are written as null (length -1), not refused: Cassandra's answer of {@code ttl()}
     * of a collection's elements, where an element without a TTL is null. Not a value a client may write.
     */
    public ByteBuffer packWithNulls(List<ByteBuffer> values) {
        for (ByteBuffer v : values)
            if (v != null) elements.validate(v);
        return join(values, values.size());
    }

    /** The serialized elements of a list value, in order. */
    public List<ByteBuffer> unpack(ByteBuffer value) {
        validate(value);
        return split(value);
    }

    @Override
    Object composeValid(List<ByteBuffer> values) {
        List<Object> out = new ArrayList<>(values.size());
        for (ByteBuffer v : values)
            out.add(elements.compose(v));
        return out;
    }

    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null)
            return null;
        if (!(value instanceof Collection))
            throw new InvalidRequestException("Expected a Collection for " + cqlName() + ", got "
                    + value.getClass().getSimpleName());
        List<ByteBuffer> values = new ArrayList<>();
        for (Object element : (Collection<?>) value)
            values.add(elements.decompose(element));
        return pack(values);
    }

    @Override
    public ByteBuffer canonical(ByteBuffer value) {
        List<ByteBuffer> values = unpack(value);
        values.replaceAll(elements::canonical);
        return join(values, values.size());
    }

    @Override
    public ByteBuffer normalized(ByteBuffer value) {
        List<ByteBuffer> values = unpack(value);
        values.replaceAll(elements::normalized);
        return join(values, values.size());
    }

    @Override
    public String toCqlLiteral(ByteBuffer value) {
        if (value == null)
            return "null";
        StringBuilder sb = new StringBuilder("[");
        for (ByteBuffer v : unpack(value))
            sb.append(sb.length() > 1 ? ", " : "").append(elements.toCqlLiteral(v));
        return sb.append(']').toString();
    }

    @Override
    public String toJson(ByteBuffer value) {
        if (value == null)
            return "null";
        StringBuilder sb = new StringBuilder("[");
        for (ByteBuffer v : unpack(value))
            sb.append(sb.length() > 1 ? ", " : "").append(elements.toJson(v));
        return sb.append(']').toString();
    }

    @Override
    ByteBuffer fromJsonNonNull(Object parsed) {
        if (!(parsed instanceof List))
            throw new InvalidRequestException("Expected a list, but got a " + Json.describe(parsed));
        List<ByteBuffer> values = new ArrayList<>();
        for (Object element : (List<?>) parsed) {
            if (element == null)
                throw new InvalidRequestException("Invalid null element in list");
            values.add(elements.fromJson(element));
        }
        return pack(values);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ListType && ((ListType) o).frozen == frozen && ((ListType) o).elements.equals(elements);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Kind.LIST, elements, frozen);
    }
}
