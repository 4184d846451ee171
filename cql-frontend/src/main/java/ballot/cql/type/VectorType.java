package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@code vector<T, n>} (Cassandra 5.0): exactly n non-null elements; never empty. Each element is a single value even
 * if its type is written non-frozen ({@code vector<list<int>, 2>}, kept so for its name, as Cassandra keeps it). Elements of a
 * fixed-length type (boolean, int, bigint, float, double, timestamp, uuid, timeuuid, and vectors of those; not
 * counter, whose Cassandra class declares no fixed length, though its values take 8 bytes) are
 * serialized back to back; others each carry an unsigned vint length. Sent to clients as the custom type
 * {@code org.apache.cassandra.db.marshal.VectorType(<element class> , n)}. Java form: a {@code List}; literal and
 * JSON {@code [a, b]}; text form hex.
 */
public final class VectorType extends CqlType {
    private final CqlType declared;
    private final CqlType elements; // the declared element type, frozen: what element values are
    private final int dimension;

    VectorType(CqlType elements, int dimension) {
        if (dimension <= 0)
            throw new InvalidRequestException("vectors may only have positive dimensions; given " + dimension);
        this.declared = elements;
        this.elements = elements.freeze();
        this.dimension = dimension;
    }

    /** The element type as declared; element values are of its frozen form. */
    public CqlType elements() {
        return declared;
    }

    public int dimension() {
        return dimension;
    }

    @Override
    public Kind kind() {
        return Kind.VECTOR;
    }

    @Override
    public String cqlName() {
        return "vector<" + declared.cqlName() + ", " + dimension + ">";
    }

    @Override
    public boolean isMultiCell() {
        return false;
    }

    @Override
    public boolean allowsEmpty() {
        return false;
    }

    @Override
    public boolean referencesDuration() {
        return elements.referencesDuration();
    }

    @Override
    int fixedLength() {
        int element = elements.fixedLength();
        return element < 0 ? -1 : element * dimension;
    }

    @Override
    public void writeTypeOption(ByteBuf out, int protocolVersion) {
        out.writeShort(0);
        NativeType.writeString(out, marshalName(false));
    }

    @Override
    String marshalName(boolean ignoreFreezing) {
        return CollectionType.MARSHAL_PACKAGE + "VectorType(" + declared.marshalName(false) + " , " + dimension + ")";
    }

    private List<ByteBuffer> split(ByteBuffer value) {
        if (!value.hasRemaining())
            throw new InvalidRequestException("Invalid empty vector value");
        // Every element takes a byte at least (its size, or its fixed length): checked before the list is allocated.
        if (dimension > value.remaining())
            throw new InvalidRequestException("Not enough bytes to read a " + cqlName());
        List<ByteBuffer> out = new ArrayList<>(dimension);
        int fixed = elements.fixedLength();
        int offset = 0;
        for (int i = 0; i < dimension; i++) {
            int length = fixed;
            if (fixed < 0) {
                VInts.Read size = VInts.readUnsigned(value, offset, "a " + cqlName());
                if (size.value() < 0 || size.value() > Integer.MAX_VALUE) // unsigned: negative is past 2^63
                    throw new InvalidRequestException("Not enough bytes to read a " + cqlName());
                length = (int) size.value();
                offset = size.next();
            }
            if (value.remaining() - offset < length)
                throw new InvalidRequestException("Not enough bytes to read a " + cqlName());
            out.add(Buffers.slice(value, offset, length));
            offset += length;
        }
        if (offset != value.remaining())
            throw new InvalidRequestException("Unexpected extraneous bytes after vector value");
        return out;
    }

    private ByteBuffer join(List<ByteBuffer> values) {
        boolean fixed = elements.fixedLength() >= 0;
        int size = 0;
        for (ByteBuffer v : values)
            size += v.remaining() + (fixed ? 0 : VInts.unsignedSize(v.remaining()));
        ByteBuffer out = ByteBuffer.allocate(size);
        for (ByteBuffer v : values) {
            if (!fixed)
                VInts.writeUnsigned(out, v.remaining());
            out.put(v.duplicate());
        }
        return out.flip();
    }

    @Override
    public void validate(ByteBuffer value) {
        for (ByteBuffer element : split(value))
            elements.validate(element);
    }

    /** Serializes exactly {@link #dimension()} non-null valid element values. */
    public ByteBuffer pack(List<ByteBuffer> values) {
        if (values.size() != dimension)
            throw new InvalidRequestException("Required " + dimension + " elements, but saw " + values.size());
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) == null)
                throw new InvalidRequestException(
                        "Element at index " + i + " is null (expected type " + elements.cqlName() + ")");
            elements.validate(values.get(i));
        }
        return join(values);
    }

    public List<ByteBuffer> unpack(ByteBuffer value) {
        validate(value);
        return split(value);
    }

    @Override
    public Object compose(ByteBuffer value) {
        if (value == null)
            return null;
        List<Object> out = new ArrayList<>(dimension);
        for (ByteBuffer v : unpack(value))
            out.add(elements.compose(v));
        return out;
    }

    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null)
            return null;
        if (!(value instanceof List))
            throw new InvalidRequestException("Expected a List for " + cqlName() + ", got " + value.getClass().getSimpleName());
        List<ByteBuffer> values = new ArrayList<>();
        for (Object element : (List<?>) value)
            values.add(elements.decompose(element));
        return pack(values);
    }

    @Override
    public int compare(ByteBuffer left, ByteBuffer right) {
        if (!left.hasRemaining() || !right.hasRemaining())
            return Boolean.compare(!right.hasRemaining(), !left.hasRemaining());
        List<ByteBuffer> l = split(left);
        List<ByteBuffer> r = split(right);
        for (int i = 0; i < dimension; i++) {
            int c = elements.compare(l.get(i), r.get(i));
            if (c != 0)
                return c;
        }
        return 0;
    }

    /** The elements' encodings back to back: the dimension is fixed, and each is prefix-free. */
    @Override
    public void encodeComparable(ByteBuffer value, ComparableBytesWriter out) {
        if (!isAllowedInPrimaryKey())
            throw new InvalidRequestException("Values of type " + cqlName() + " cannot be part of a primary key");
        for (ByteBuffer element : split(value))
            elements.encodeComparable(element, out);
    }

    @Override
    public ByteBuffer decodeComparable(ComparableBytesReader in) {
        List<ByteBuffer> values = new ArrayList<>(dimension);
        for (int i = 0; i < dimension; i++)
            values.add(elements.decodeComparable(in));
        return join(values);
    }

    @Override
    public ByteBuffer canonical(ByteBuffer value) {
        List<ByteBuffer> values = unpack(value);
        values.replaceAll(elements::canonical);
        return join(values);
    }

    @Override
    public ByteBuffer fromString(String text) {
        ByteBuffer value;
        try {
            value = ByteBuffer.wrap(Hex.decode(text));
        } catch (NumberFormatException e) {
            throw new InvalidRequestException("cannot parse '" + text + "' as hex bytes");
        }
        if (value.hasRemaining())
            validate(value);
        return value;
    }

    @Override
    public String asString(ByteBuffer value) {
        return Hex.encode(value);
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
    public ByteBuffer fromJson(Object parsed) {
        if (parsed == null)
            return null;
        Object decoded = parsed instanceof String ? Json.decode((String) parsed) : parsed;
        if (decoded == null)
            return null;
        if (!(decoded instanceof List))
            throw new InvalidRequestException("Expected a list, but got a " + Json.describe(decoded));
        List<?> list = (List<?>) decoded;
        if (list.size() != dimension)
            throw new InvalidRequestException(String.format(
                    "List had incorrect size: expected %d but given %d; %s", dimension, list.size(), list));
        List<ByteBuffer> values = new ArrayList<>(dimension);
        for (Object element : list) {
            if (element == null)
                throw new InvalidRequestException("Invalid null element in list");
            values.add(elements.fromJson(element));
        }
        return pack(values);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VectorType && ((VectorType) o).dimension == dimension
                && ((VectorType) o).declared.equals(declared);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Kind.VECTOR, declared, dimension);
    }
}
