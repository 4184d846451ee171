package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import java.nio.ByteBuffer;

/**
 * {@code boolean}: one byte, 0 false and anything else true, or empty. Java form: {@code Boolean}. Its comparable
 * encoding is a single byte: 00 empty, 01 false, 02 true.
 */
final class BooleanType extends NativeType {
    BooleanType() {
        super(Kind.BOOLEAN, "boolean", 0x0004, "BooleanType");
    }

    @Override
    public boolean allowsEmpty() {
        return true;
    }

    @Override
    int fixedLength() {
        return 1;
    }

    @Override
    void validateNonEmpty(ByteBuffer value) {
        if (value.remaining() != 1)
            throw invalid("Expected 1 or 0 byte value (%d)", value.remaining());
    }

    private static boolean isTrue(ByteBuffer value) {
        return value.get(value.position()) != 0;
    }

    @Override
    Object composeNonEmpty(ByteBuffer value) {
        return isTrue(value);
    }

    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null)
            return null;
        if (!(value instanceof Boolean))
            throw invalid("Expected a Boolean for boolean, got %s", value.getClass().getSimpleName());
        return Buffers.ofByte((byte) ((Boolean) value ? 1 : 0));
    }

    @Override
    int compareNonEmpty(ByteBuffer left, ByteBuffer right) {
        return Boolean.compare(isTrue(left), isTrue(right));
    }

    @Override
    public void encodeComparable(ByteBuffer value, ComparableBytesWriter out) {
        validate(value);
        out.write(!value.hasRemaining() ? 0 : isTrue(value) ? 2 : 1);
    }

    @Override
    public ByteBuffer decodeComparable(ComparableBytesReader in) {
        int b = in.read();
        switch (b) {
            case 0: return Buffers.empty();
            case 1: return Buffers.ofByte((byte) 0);
            case 2: return Buffers.ofByte((byte) 1);
            default: throw in.malformed("bad boolean byte " + b);
        }
    }

    @Override
    public ByteBuffer canonical(ByteBuffer value) {
        validate(value);
        return !value.hasRemaining() ? Buffers.empty() : Buffers.ofByte((byte) (isTrue(value) ? 1 : 0));
    }

    @Override
    public boolean hasOneForm() {
        return false;
    }

    @Override
    public boolean accepts(ConstantKind kind) {
        return kind == ConstantKind.BOOLEAN;
    }

    /** {@code true} or {@code false} in any case; like Cassandra, the empty string is false. */
    @Override
    public ByteBuffer fromString(String text) {
        if (text.isEmpty() || text.equalsIgnoreCase("false"))
            return Buffers.ofByte((byte) 0);
        if (text.equalsIgnoreCase("true"))
            return Buffers.ofByte((byte) 1);
        throw new InvalidRequestException("Unable to make boolean from '" + text + "'");
    }

    @Override
    String asStringNonEmpty(ByteBuffer value) {
        return isTrue(value) ? "true" : "false";
    }

    @Override
    ByteBuffer fromJsonNonNull(Object parsed) {
        if (parsed instanceof String)
            return fromString((String) parsed);
        if (parsed instanceof Boolean)
            return decompose(parsed);
        throw invalid("Expected a boolean value, but got a %s", Json.describe(parsed));
    }
}
