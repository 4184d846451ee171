package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * {@code set<T>}, frozen or not: elements sorted by the element type's order, no duplicates. Java form: a
 * {@code Set} in that order. Literal {@code {a, b}}; JSON {@code [a, b]}.
 */
public final class SetType extends CollectionType {
    private final CqlType elements;

    SetType(CqlType elements, boolean frozen) {
        super(frozen);
        this.elements = elements;
    }

    public CqlType elements() {
        return elements;
    }

    @Override
    public Kind kind() {
        return Kind.SET;
    }

    @Override
    String noun() {
        return "set";
    }

    @Override
    CqlType typeAt(int index) {
        return elements;
    }

    @Override
    public String cqlName() {
        String name = "set<" + elements.cqlName() + ">";
        return frozen ? "frozen<" + name + ">" : name;
    }

    @Override
    public SetType freeze() {
        return frozen ? this : new SetType(elements, true);
    }

    @Override
    public boolean referencesDuration() {
        return elements.referencesDuration();
    }

    @Override
    public void writeTypeOption(ByteBuf out, int protocolVersion) {
        out.writeShort(0x0022);
        elements.writeTypeOption(out, protocolVersion);
    }

    @Override
    String marshalName(boolean ignoreFreezing) {
        return marshalName(ignoreFreezing, "SetType", elements);
    }

    /** Serializes the elements of a set literal: sorted by the element order, duplicates dropped. */
    public ByteBuffer pack(Collection<ByteBuffer> values) {
        List<ByteBuffer> sorted = new ArrayList<>(values);
        requireNoNulls(sorted);
        for (ByteBuffer v : sorted)
            elements.validate(v);
        sorted.sort(elements::compare);
        List<ByteBuffer> distinct = new ArrayList<>(sorted.size());
        for (ByteBuffer v : sorted)
            if (distinct.isEmpty() || elements.compare(distinct.get(distinct.size() - 1), v) != 0)
                distinct.add(v);
        return join(distinct, distinct.size());
    }

    /** The serialized elements of a set value, in stored order. */
    public List<ByteBuffer> unpack(ByteBuffer value) {
        validate(value);
        return split(value);
    }

    @Override
    Object composeValid(List<ByteBuffer> values) {
        Set<Object> out = new LinkedHashSet<>();
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
        return pack(values);
    }

    @Override
    public ByteBuffer normalized(ByteBuffer value) {
        List<ByteBuffer> values = unpack(value);
        values.replaceAll(elements::normalized);
        return pack(values);
    }

    @Override
    public String toCqlLiteral(ByteBuffer value) {
        if (value == null)
            return "null";
        StringBuilder sb = new StringBuilder("{");
        for (ByteBuffer v : unpack(value))
            sb.append(sb.length() > 1 ? ", " : "").append(elements.toCqlLiteral(v));
        return sb.append('}').toString();
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
            throw new InvalidRequestException("Expected a list (representing a set), but got a " + Json.describe(parsed));
        List<ByteBuffer> values = new ArrayList<>();
        for (Object element : (List<?>) parsed) {
            if (element == null)
                throw new InvalidRequestException("Invalid null element in set");
            values.add(elements.fromJson(element));
        }
        return pack(values);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SetType && ((SetType) o).frozen == frozen && ((SetType) o).elements.equals(elements);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Kind.SET, elements, frozen);
    }
}
