package ballot.cql.type;

import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * {@code float} (IEEE 754 binary32, Java {@code Float}) and {@code double} (binary64, {@code Double}), or empty.
 * Order is {@code Float.compare}/{@code Double.compare}: -0.0 before 0.0, all NaNs equal and last. Comparable
 * encoding: the canonical bits with the sign bit flipped, and all bits flipped for negatives.
 */
final class FloatingType extends NativeType {
    private final boolean isDouble;

    private FloatingType(Kind kind, String name, int optionId, String marshalClass, boolean isDouble) {
        super(kind, name, optionId, marshalClass);
        this.isDouble = isDouble;
    }

    static FloatingType float32() {
        return new FloatingType(Kind.FLOAT, "float", 0x0008, "FloatType", false);
    }

    static FloatingType float64() {
        return new FloatingType(Kind.DOUBLE, "double", 0x0007, "DoubleType", true);
    }

    private int width() {
        return isDouble ? 8 : 4;
    }

    @Override
    public boolean allowsEmpty() {
        return true;
    }

    @Override
    int fixedLength() {
        return width();
    }

    @Override
    void validateNonEmpty(ByteBuffer value) {
        if (value.remaining() != width())
            throw invalid(isDouble ? "Expected 8 or 0 byte value for a double (%d)"
                                   : "Expected 4 or 0 byte value for a float (%d)", value.remaining());
    }

    private double read(ByteBuffer value) {
        return isDouble ? value.getDouble(value.position()) : value.getFloat(value.position());
    }

    /** The bits with every NaN collapsed to one, so equal values have equal bits. */
    private long canonicalBits(ByteBuffer value) {
        return isDouble ? Double.doubleToLongBits(value.getDouble(value.position()))
                        : Float.floatToIntBits(value.getFloat(value.position())) & 0xFFFFFFFFL;
    }

    private ByteBuffer ofBits(long bits) {
        return isDouble ? Buffers.ofLong(bits) : Buffers.ofInt((int) bits);
    }

    private ByteBuffer write(double v) {
        return isDouble ? ByteBuffer.allocate(8).putDouble(0, v) : ByteBuffer.allocate(4).putFloat(0, (float) v);
    }

    @Override
    Object composeNonEmpty(ByteBuffer value) {
        return isDouble ? (Object) value.getDouble(value.position()) : (Object) value.getFloat(value.position());
    }

    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null)
            return null;
        if (!(value instanceof Number))
            throw invalid("Expected a Number for %s, got %s", cqlName(), value.getClass().getSimpleName());
        return write(((Number) value).doubleValue());
    }

    @Override
    int compareNonEmpty(ByteBuffer left, ByteBuffer right) {
        return isDouble ? Double.compare(read(left), read(right))
                        : Float.compare((float) read(left), (float) read(right));
    }

    @Override
    void encodeNonEmpty(ByteBuffer value, ComparableBytesWriter out) {
        long sign = isDouble ? Long.MIN_VALUE : 0x80000000L;
        long bits = canonicalBits(value);
        out.writeBigEndian((bits & sign) != 0 ? ~bits : bits ^ sign, width());
    }

    @Override
    ByteBuffer decodeNonEmpty(ComparableBytesReader in) {
        long sign = isDouble ? Long.MIN_VALUE : 0x80000000L;
        long encoded = in.readBigEndian(width());
        return ofBits((encoded & sign) != 0 ? encoded ^ sign : ~encoded);
    }

    @Override
    public ByteBuffer canonical(ByteBuffer value) {
        validate(value);
        return value.hasRemaining() ? ofBits(canonicalBits(value)) : Buffers.empty();
    }

    @Override
    public boolean hasOneForm() {
        return false;
    }

    @Override
    public boolean accepts(ConstantKind kind) {
        return kind == ConstantKind.INTEGER || kind == ConstantKind.FLOAT;
    }

    @Override
    ByteBuffer parseConstant(ConstantKind kind, String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        if (lower.endsWith("nan") || lower.endsWith("infinity"))
            return fromString(lower.replace("nan", "NaN").replace("infinity", "Infinity"));
        return fromString(text);
    }

    /** Java's {@code Float.parseFloat}/{@code Double.parseDouble} syntax, including NaN and Infinity. */
    @Override
    public ByteBuffer fromString(String text) {
        if (text.isEmpty())
            return Buffers.empty();
        try {
            return isDouble ? write(Double.parseDouble(text)) : write(Float.parseFloat(text));
        } catch (NumberFormatException e) {
            throw invalid("Unable to make %s from '%s'", cqlName(), text);
        }
    }

    @Override
    String asStringNonEmpty(ByteBuffer value) {
        return isDouble ? Double.toString(value.getDouble(value.position()))
                        : Float.toString(value.getFloat(value.position()));
    }

    /** JSON has no NaN or Infinity: they print as {@code null}, as in Cassandra. */
    @Override
    String toJsonNonEmpty(ByteBuffer value) {
        double v = read(value);
        return Double.isNaN(v) || Double.isInfinite(v) ? "null" : asStringNonEmpty(value);
    }

    @Override
    ByteBuffer fromJsonNonNull(Object parsed) {
        if (parsed instanceof String)
            return fromString((String) parsed);
        if (parsed instanceof Number)
            return write(((Number) parsed).doubleValue());
        throw invalid("Expected a %s value, but got a %s", cqlName(), Json.describe(parsed));
    }
}
