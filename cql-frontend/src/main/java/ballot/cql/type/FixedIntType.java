package ballot.cql.type;

import java.nio.ByteBuffer;

/**
 * The two's-complement big-endian integers: {@code tinyint} (1 byte, Java {@code Byte}), {@code smallint} (2,
 * {@code Short}), {@code int} (4, {@code Integer}), {@code bigint} and {@code counter} (8, {@code Long}). Only int,
 * bigint and counter allow empty values. Comparable encoding: the bytes with the sign bit flipped.
 */
final class FixedIntType extends NativeType {
    private final int width;
    private final String javaName;
    private final String sizeError;
    private final String jsonName;

    private FixedIntType(Kind kind, String name, int optionId, String marshalClass, int width, String javaName,
                         String sizeError, String jsonName) {
        super(kind, name, optionId, marshalClass);
        this.width = width;
        this.javaName = javaName;
        this.sizeError = sizeError;
        this.jsonName = jsonName;
    }

    static FixedIntType tinyint() {
        return new FixedIntType(Kind.TINYINT, "tinyint", 0x0014, "ByteType", 1, "byte",
                "Expected 1 byte for a tinyint (%d)", "a byte");
    }

    static FixedIntType smallint() {
        return new FixedIntType(Kind.SMALLINT, "smallint", 0x0013, "ShortType", 2, "short",
                "Expected 2 bytes for a smallint (%d)", "a short");
    }

    static FixedIntType integer() {
        return new FixedIntType(Kind.INT, "int", 0x0009, "Int32Type", 4, "int", "Expected 4 or 0 byte int (%d)", "an int");
    }

    static FixedIntType bigint() {
        return new FixedIntType(Kind.BIGINT, "bigint", 0x0002, "LongType", 8, "long",
                "Expected 8 or 0 byte long (%d)", "a bigint");
    }

    static FixedIntType counter() {
        return new FixedIntType(Kind.COUNTER, "counter", 0x0005, "CounterColumnType", 8, "long",
                "Expected 8 or 0 byte long (%d)", "a bigint");
    }

    @Override
    public boolean allowsEmpty() {
        return width >= 4;
    }

    @Override
    int fixedLength() {
        // Cassandra 5.0 treats tinyint, smallint and counter as variable-length in vectors (their marshal classes
        // declare no fixed length).
        return width >= 4 && kind() != Kind.COUNTER ? width : -1;
    }

    @Override
    void validateNonEmpty(ByteBuffer value) {
        if (value.remaining() != width)
            throw invalid(sizeError, value.remaining());
    }

    private long read(ByteBuffer value) {
        int p = value.position();
        switch (width) {
            case 1: return value.get(p);
            case 2: return value.getShort(p);
            case 4: return value.getInt(p);
            default: return value.getLong(p);
        }
    }

    private ByteBuffer write(long v) {
        switch (width) {
            case 1: return Buffers.ofByte((byte) v);
            case 2: return Buffers.ofShort((short) v);
            case 4: return Buffers.ofInt((int) v);
            default: return Buffers.ofLong(v);
        }
    }

    @Override
    Object composeNonEmpty(ByteBuffer value) {
        long v = read(value);
        switch (width) {
            case 1: return (byte) v;
            case 2: return (short) v;
            case 4: return (int) v;
            default: return v;
        }
    }

    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null)
            return null;
        if (!(value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte))
            throw invalid("Expected an integral Number for %s, got %s", cqlName(), value.getClass().getSimpleName());
        long v = ((Number) value).longValue();
        if (width < 8 && (v < -(1L << (8 * width - 1)) || v >= (1L << (8 * width - 1))))
            throw invalid("Value %d is out of range for %s", v, cqlName());
        return write(v);
    }

    @Override
    int compareNonEmpty(ByteBuffer left, ByteBuffer right) {
        return Long.compare(read(left), read(right));
    }

    @Override
    void encodeNonEmpty(ByteBuffer value, ComparableBytesWriter out) {
        out.writeBigEndian(read(value) ^ (1L << (8 * width - 1)), width);
    }

    @Override
    ByteBuffer decodeNonEmpty(ComparableBytesReader in) {
        return write(in.readBigEndian(width) ^ (1L << (8 * width - 1)));
    }

    @Override
    public boolean accepts(ConstantKind kind) {
        return kind == ConstantKind.INTEGER;
    }

    @Override
    public ByteBuffer fromString(String text) {
        if (text.isEmpty())
            return Buffers.empty();
        try {
            switch (width) {
                case 1: return write(Byte.parseByte(text));
                case 2: return write(Short.parseShort(text));
                case 4: return write(Integer.parseInt(text));
                default: return write(Long.parseLong(text));
            }
        } catch (NumberFormatException e) {
            throw invalid("Unable to make %s from '%s'", javaName, text);
        }
    }

    @Override
    String asStringNonEmpty(ByteBuffer value) {
        return Long.toString(read(value));
    }

    @Override
    ByteBuffer fromJsonNonNull(Object parsed) {
        if (parsed instanceof String)
            return fromString((String) parsed);
        if (width <= 2 && parsed instanceof Number)
            return fromString(String.valueOf(parsed)); // Cassandra parses the number's text: "1.5" fails as a short
        boolean fits = parsed instanceof Integer || parsed instanceof Short || parsed instanceof Byte
                || (width == 8 && parsed instanceof Long);
        if (!fits)
            throw invalid("Expected %s value, but got a %s", jsonName, Json.describe(parsed));
        return write(((Number) parsed).longValue());
    }
}
