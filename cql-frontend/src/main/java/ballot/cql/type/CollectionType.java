package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * What lists, sets and maps share: the serialized form {@code [int n]} followed by n elements (2n for maps, key then
 * value), each {@code [int length][bytes]}; no nulls, no empty value. Frozen collections are single values; non-frozen
 * ones are stored cell by cell, but a whole value (a bind marker, a literal) still uses this form.
 *
 * <p>Comparable encoding (frozen only): {@code 01} before each element (each key then value for maps) and {@code 00}
 * at the end, so order is element by element with the shorter collection first, as in Cassandra.
 */
abstract class CollectionType extends CqlType {
    static final String MARSHAL_PACKAGE = "org.apache.cassandra.db.marshal.";

    final boolean frozen;

    CollectionType(boolean frozen) {
        this.frozen = frozen;
    }

    @Override
    public final boolean isMultiCell() {
        return !frozen;
    }

    @Override
    public final boolean allowsEmpty() {
        return false;
    }

    /** The lower-case name used in messages: list, set or map. */
    abstract String noun();

    /** Values per element: 1, or 2 for maps. */
    int valuesPerElement() {
        return 1;
    }

    /** The element types in serialized order; for maps, keys then values. */
    abstract CqlType typeAt(int index);

    /** {@code FrozenType(...)} wraps a frozen collection unless freezing is ignored; children always ignore it. */
    final String marshalName(boolean ignoreFreezing, String collectionClass, CqlType... parameters) {
        StringBuilder sb = new StringBuilder();
        boolean wrap = !ignoreFreezing && frozen;
        if (wrap)
            sb.append(MARSHAL_PACKAGE).append("FrozenType(");
        sb.append(MARSHAL_PACKAGE).append(collectionClass).append('(');
        for (int i = 0; i < parameters.length; i++) {
            if (i > 0)
                sb.append(',');
            sb.append(parameters[i].marshalName(ignoreFreezing || frozen));
        }
        sb.append(')');
        if (wrap)
            sb.append(')');
        return sb.toString();
    }

    // ---------------------------------------------------------------- serialized form

    /** Splits a value into its element buffers (2 per map entry), checking structure but not element contents. */
    final List<ByteBuffer> split(ByteBuffer value) {
        int remaining = value.remaining();
        if (remaining < 4)
            throw notEnoughBytes();
        int count = Buffers.getInt(value, 0);
        if (count < 0)
            throw new InvalidRequestException("The data cannot be deserialized as a " + noun());
        // Each value takes at least its 4-byte size: a count the bytes cannot hold is refused before anything is allocated.
        long valuesLong = (long) count * valuesPerElement();
        if (valuesLong * 4 > remaining - 4)
            throw notEnoughBytes();
        int values = (int) valuesLong;
        List<ByteBuffer> out = new ArrayList<>(Math.min(values, 256));
        int offset = 4;
        for (int i = 0; i < values; i++) {
            if (remaining - offset < 4)
                throw notEnoughBytes();
            int size = Buffers.getInt(value, offset);
            offset += 4;
            if (size < 0)
                throw new InvalidRequestException("Null value read when not allowed");
            if (remaining - offset < size)
                throw notEnoughBytes();
            out.add(Buffers.slice(value, offset, size));
            offset += size;
        }
        if (offset != remaining)
            throw new InvalidRequestException("Unexpected extraneous bytes after " + noun() + " value");
        return out;
    }

    private InvalidRequestException notEnoughBytes() {
        return new InvalidRequestException("Not enough bytes to read a " + noun());
    }

    /** Serializes element buffers (2 per map entry) as a collection of {@code count} elements. */
    /** The native protocol's collection form: the count, then each value with its length (-1 for a null value). */
    static ByteBuffer join(List<ByteBuffer> values, int count) {
        int size = 4;
        for (ByteBuffer v : values)
            size += 4 + (v == null ? 0 : v.remaining());
        ByteBuffer out = ByteBuffer.allocate(size);
        out.putInt(count);
        for (ByteBuffer v : values) {
            if (v == null) out.putInt(-1);
            else out.putInt(v.remaining()).put(v.duplicate());
        }
        return out.flip();
    }

    static void requireNoNulls(List<ByteBuffer> values) {
        for (ByteBuffer v : values)
            if (v == null)
                throw new InvalidRequestException("null is not supported inside collections");
    }

    @Override
    public final void validate(ByteBuffer value) {
        List<ByteBuffer> values = split(value);
        for (int i = 0; i < values.size(); i++)
            typeAt(i).validate(values.get(i));
    }

    @Override
    public final int compare(ByteBuffer left, ByteBuffer right) {
        if (!left.hasRemaining() || !right.hasRemaining())
            return Boolean.compare(!right.hasRemaining(), !left.hasRemaining());
        List<ByteBuffer> l = split(left);
        List<ByteBuffer> r = split(right);
        int n = Math.min(l.size(), r.size());
        for (int i = 0; i < n; i++) {
            int c = typeAt(i).compare(l.get(i), r.get(i));
            if (c != 0)
                return c;
        }
        return Integer.compare(l.size(), r.size());
    }

    @Override
    public final void encodeComparable(ByteBuffer value, ComparableBytesWriter out) {
        if (!isAllowedInPrimaryKey())
            throw new InvalidRequestException("Values of type " + cqlName() + " cannot be part of a primary key");
        List<ByteBuffer> values = split(value);
        for (int i = 0; i < values.size(); i++) {
            if (i % valuesPerElement() == 0)
                out.write(1);
            typeAt(i).encodeComparable(values.get(i), out);
        }
        out.write(0);
    }

    @Override
    public final ByteBuffer decodeComparable(ComparableBytesReader in) {
        List<ByteBuffer> values = new ArrayList<>();
        for (int marker = in.read(); marker != 0; marker = in.read()) {
            if (marker != 1)
                throw in.malformed("bad " + noun() + " element marker " + marker);
            for (int j = 0; j < valuesPerElement(); j++)
                values.add(typeAt(values.size()).decodeComparable(in));
        }
        return join(values, values.size() / valuesPerElement());
    }

    // ---------------------------------------------------------------- text

    /** Cassandra prints and parses whole collections as hex in their textual form. */
    @Override
    public final ByteBuffer fromString(String text) {
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
    public final String asString(ByteBuffer value) {
        return Hex.encode(value);
    }

    @Override
    public final Object compose(ByteBuffer value) {
        if (value == null)
            return null;
        validate(value);
        return composeValid(split(value));
    }

    abstract Object composeValid(List<ByteBuffer> values);

    @Override
    public final ByteBuffer fromJson(Object parsed) {
        if (parsed == null)
            return null;
        Object decoded = parsed instanceof String ? Json.decode((String) parsed) : parsed;
        return decoded == null ? null : fromJsonNonNull(decoded);
    }

    abstract ByteBuffer fromJsonNonNull(Object parsed);
}
