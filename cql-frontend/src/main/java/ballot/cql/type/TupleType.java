package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code tuple<A, B, ...>}, always frozen, fields may be null. Java form: a {@code List} with one entry per field,
 * null for null. Literal {@code (a, null, c)}; JSON {@code [a, null, c]}.
 */
public final class TupleType extends TupleLikeType {
    TupleType(List<CqlType> fieldTypes) {
        super(fieldTypes);
    }

    public List<CqlType> fieldTypes() {
        return fieldTypes;
    }

    @Override
    public Kind kind() {
        return Kind.TUPLE;
    }

    @Override
    public String cqlName() {
        StringBuilder sb = new StringBuilder("frozen<tuple<");
        for (int i = 0; i < size(); i++)
            sb.append(i > 0 ? ", " : "").append(fieldTypes.get(i).cqlName());
        return sb.append(">>").toString();
    }

    @Override
    public boolean isMultiCell() {
        return false;
    }

    @Override
    String describeField(int i) {
        return i + "th component";
    }

    @Override
    String valueNoun() {
        return "tuple";
    }

    @Override
    public void writeTypeOption(ByteBuf out, int protocolVersion) {
        out.writeShort(0x0031);
        out.writeShort(size());
        for (CqlType t : fieldTypes)
            t.writeTypeOption(out, protocolVersion);
    }

    @Override
    String marshalName(boolean ignoreFreezing) {
        return CollectionType.MARSHAL_PACKAGE + "TupleType(" + fieldTypesMarshalName(true) + ")";
    }

    /** Serializes the components of a tuple literal, null for null; missing trailing components become null. */
    public ByteBuffer pack(List<ByteBuffer> components) {
        return packFields(components);
    }

    @Override
    public Object compose(ByteBuffer value) {
        if (value == null)
            return null;
        validate(value);
        if (!value.hasRemaining())
            return null;
        List<Object> out = new ArrayList<>(size());
        ByteBuffer[] fields = split(value);
        for (int i = 0; i < fields.length; i++)
            out.add(fields[i] == null ? null : fieldTypes.get(i).compose(fields[i]));
        return out;
    }

    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null)
            return null;
        if (!(value instanceof List))
            throw new InvalidRequestException("Expected a List for " + cqlName() + ", got " + value.getClass().getSimpleName());
        List<ByteBuffer> components = new ArrayList<>();
        for (Object component : (List<?>) value)
            components.add(component == null ? null : fieldTypes.get(components.size()).decompose(component));
        return pack(components);
    }

    @Override
    public String toCqlLiteral(ByteBuffer value) {
        if (value == null)
            return "null";
        validate(value);
        ByteBuffer[] fields = split(value);
        int present = presentFields(value, size());
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < present; i++)
            sb.append(i > 0 ? ", " : "").append(fields[i] == null ? "null" : fieldTypes.get(i).toCqlLiteral(fields[i]));
        return sb.append(')').toString();
    }

    @Override
    String toJsonFields(ByteBuffer[] fields) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < fields.length; i++)
            sb.append(i > 0 ? ", " : "").append(fields[i] == null ? "null" : fieldTypes.get(i).toJson(fields[i]));
        return sb.append(']').toString();
    }

    @Override
    ByteBuffer fromJsonNonNull(Object parsed) {
        if (!(parsed instanceof List))
            throw new InvalidRequestException(
                    "Expected a list representation of a tuple, but got a " + Json.describe(parsed));
        List<?> list = (List<?>) parsed;
        if (list.size() > size())
            throw new InvalidRequestException("Tuple contains extra items (expected " + size() + "): " + parsed);
        if (list.size() < size())
            throw new InvalidRequestException("Tuple is missing items (expected " + size() + "): " + parsed);
        List<ByteBuffer> components = new ArrayList<>(size());
        for (int i = 0; i < size(); i++)
            components.add(list.get(i) == null ? null : fieldTypes.get(i).fromJson(list.get(i)));
        return pack(components);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TupleType && ((TupleType) o).fieldTypes.equals(fieldTypes);
    }

    @Override
    public int hashCode() {
        return fieldTypes.hashCode() * 31 + Kind.TUPLE.hashCode();
    }
}
