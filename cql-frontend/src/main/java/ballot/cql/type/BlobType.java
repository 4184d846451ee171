package ballot.cql.type;

import java.nio.ByteBuffer;

/** {@code blob}: any bytes. Java form: a read-only {@code ByteBuffer}. Literals only from HEX constants. */
final class BlobType extends NativeType {
    BlobType() {
        super(Kind.BLOB, "blob", 0x0003, "BytesType");
    }

    @Override
    public boolean allowsEmpty() {
        return true;
    }

    @Override
    void validateNonEmpty(ByteBuffer value) {
        // every byte sequence is a blob
    }

    @Override
    Object composeEmpty() {
        return Buffers.EMPTY;
    }

    @Override
    Object composeNonEmpty(ByteBuffer value) {
        return Buffers.copy(value).asReadOnlyBuffer();
    }

    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null)
            return null;
        if (value instanceof ByteBuffer)
            return Buffers.copy((ByteBuffer) value);
        if (value instanceof byte[])
            return ByteBuffer.wrap(((byte[]) value).clone());
        throw invalid("Expected a ByteBuffer or byte[] for blob, got %s", value.getClass().getSimpleName());
    }

    @Override
    int compareNonEmpty(ByteBuffer left, ByteBuffer right) {
        return Buffers.compareUnsigned(left, right);
    }

    @Override
    void encodeNonEmpty(ByteBuffer value, ComparableBytesWriter out) {
        out.writeEscaped(value, 0, value.remaining());
    }

    @Override
    ByteBuffer decodeNonEmpty(ComparableBytesReader in) {
        return ByteBuffer.wrap(in.readEscaped());
    }

    @Override
    public boolean accepts(ConstantKind kind) {
        return kind == ConstantKind.HEX;
    }

    @Override
    ByteBuffer parseConstant(ConstantKind kind, String text) {
        return fromString(text.substring(2));
    }

    /** Hex digits without {@code 0x}, as Cassandra's {@code BytesType.fromString}. */
    @Override
    public ByteBuffer fromString(String text) {
        try {
            return ByteBuffer.wrap(Hex.decode(text));
        } catch (NumberFormatException e) {
            throw invalid("cannot parse '%s' as hex bytes", text);
        }
    }

    @Override
    String asStringNonEmpty(ByteBuffer value) {
        return Hex.encode(value);
    }

    @Override
    public String toCqlLiteral(ByteBuffer value) {
        return value == null ? "null" : "0x" + Hex.encode(value);
    }

    @Override
    public String toJson(ByteBuffer value) {
        return value == null ? "null" : "\"0x" + Hex.encode(value) + '"';
    }

    @Override
    ByteBuffer fromJsonNonNull(Object parsed) {
        if (!(parsed instanceof String))
            throw invalid("Value '%s' is not a valid blob representation: expected a string, got a %s", parsed,
                    parsed.getClass().getSimpleName());
        String s = (String) parsed;
        if (!s.startsWith("0x"))
            throw invalid("Value '%s' is not a valid blob representation: String representation of blob is missing 0x prefix: %s", s, s);
        try {
            return ByteBuffer.wrap(Hex.decode(s.substring(2)));
        } catch (NumberFormatException e) {
            throw invalid("Value '%s' is not a valid blob representation: %s", s, e.getMessage());
        }
    }
}
