package ballot.cql.type;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;

/**
 * {@code decimal}: a 4-byte scale then the unscaled value as a varint, or empty. Java form: {@code BigDecimal}.
 * Values compare numerically, so 1.0 and 1.00 are equal and share one canonical form: trailing zeros stripped, zero
 * with scale 0, and a negative scale down to -{@value #PLAIN_EXPONENT_MAX} written out as a plain integer (100, not
 * 1E+2).
 *
 * <p>Comparable encoding: zero is {@code 80}. A positive value {@code 0.d1d2... x 10^e} is {@code C0}, {@code e} as an
 * ordered long, its digits in pairs as bytes {@code 01-64} (an odd last digit padded with 0), and {@code 00}. A
 * negative value is {@code 40}, {@code -e}, the digit bytes inverted, and {@code FF}: larger magnitudes sort lower.
 */
final class DecimalType extends NativeType {
    static final int PLAIN_EXPONENT_MAX = 32;

    DecimalType() {
        super(Kind.DECIMAL, "decimal", 0x0006, "DecimalType");
    }

    @Override
    public boolean allowsEmpty() {
        return true;
    }

    @Override
    void validateNonEmpty(ByteBuffer value) {
        if (value.remaining() < 4)
            throw invalid("Expected 0 or at least 4 bytes (%d)", value.remaining());
    }

    static BigDecimal read(ByteBuffer value) {
        int scale = Buffers.getInt(value, 0);
        BigInteger unscaled = value.remaining() == 4 ? BigInteger.ZERO
                : new BigInteger(Buffers.toArray(Buffers.slice(value, 4, value.remaining() - 4)));
        return new BigDecimal(unscaled, scale);
    }

    static ByteBuffer write(BigDecimal d) {
        byte[] unscaled = d.unscaledValue().toByteArray();
        ByteBuffer out = ByteBuffer.allocate(4 + unscaled.length);
        out.putInt(d.scale()).put(unscaled).flip();
        return out;
    }

    static BigDecimal canonical(BigDecimal d) {
        if (d.signum() == 0)
            return BigDecimal.ZERO;
        BigDecimal stripped = d.stripTrailingZeros();
        return stripped.scale() < 0 && stripped.scale() >= -PLAIN_EXPONENT_MAX ? stripped.setScale(0) : stripped;
    }

    @Override
    Object composeNonEmpty(ByteBuffer value) {
        return read(value);
    }

    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null)
            return null;
        if (value instanceof BigDecimal)
            return write((BigDecimal) value);
        if (value instanceof BigInteger)
            return write(new BigDecimal((BigInteger) value));
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte)
            return write(BigDecimal.valueOf(((Number) value).longValue()));
        throw invalid("Expected a BigDecimal for decimal, got %s", value.getClass().getSimpleName());
    }

    @Override
    int compareNonEmpty(ByteBuffer left, ByteBuffer right) {
        return read(left).compareTo(read(right));
    }

    @Override
    void encodeNonEmpty(ByteBuffer value, ComparableBytesWriter out) {
        BigDecimal d = read(value);
        int sign = d.signum();
        if (sign == 0) {
            out.write(0x80);
            return;
        }
        BigDecimal stripped = d.abs().stripTrailingZeros();
        String digits = stripped.unscaledValue().toString();
        long exponent = (long) digits.length() - stripped.scale();
        out.write(sign > 0 ? 0xC0 : 0x40);
        out.writeOrderedLong(sign > 0 ? exponent : -exponent);
        int invert = sign > 0 ? 0 : 0xFF;
        for (int i = 0; i < digits.length(); i += 2) {
            int hi = digits.charAt(i) - '0';
            int lo = i + 1 < digits.length() ? digits.charAt(i + 1) - '0' : 0;
            out.write((hi * 10 + lo + 1) ^ invert);
        }
        out.write(invert);
    }

    @Override
    ByteBuffer decodeNonEmpty(ComparableBytesReader in) {
        int header = in.read();
        if (header == 0x80)
            return write(BigDecimal.ZERO);
        if (header != 0xC0 && header != 0x40)
            throw in.malformed("bad decimal header " + header);
        boolean positive = header == 0xC0;
        long exponent = positive ? in.readOrderedLong() : -in.readOrderedLong();
        int invert = positive ? 0 : 0xFF;
        StringBuilder digits = new StringBuilder();
        for (int b = in.read() ^ invert; b != 0; b = in.read() ^ invert) {
            if (b > 100)
                throw in.malformed("bad decimal digit pair " + b);
            digits.append((char) ('0' + (b - 1) / 10)).append((char) ('0' + (b - 1) % 10));
        }
        if (digits.length() == 0)
            throw in.malformed("decimal without digits");
        if (digits.charAt(digits.length() - 1) == '0')
            digits.setLength(digits.length() - 1);
        long scale = digits.length() - exponent;
        if (scale != (int) scale)
            throw in.malformed("decimal scale out of range");
        BigInteger unscaled = new BigInteger(digits.toString());
        return write(canonical(new BigDecimal(positive ? unscaled : unscaled.negate(), (int) scale)));
    }

    @Override
    public ByteBuffer canonical(ByteBuffer value) {
        validate(value);
        return value.hasRemaining() ? write(canonical(read(value))) : Buffers.empty();
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
    public ByteBuffer fromString(String text) {
        if (text.isEmpty())
            return Buffers.empty();
        try {
            return write(new BigDecimal(text));
        } catch (NumberFormatException e) {
            throw invalid("unable to make BigDecimal from '%s'", text);
        }
    }

    @Override
    String asStringNonEmpty(ByteBuffer value) {
        return read(value).toString();
    }

    @Override
    ByteBuffer fromJsonNonNull(Object parsed) {
        if ("".equals(parsed))
            return Buffers.empty();
        if (parsed instanceof Number || parsed instanceof String) {
            try {
                return write(new BigDecimal(parsed.toString()));
            } catch (NumberFormatException e) {
                // reported below, as Cassandra does
            }
        }
        throw invalid("Value '%s' is not a valid representation of a decimal value", parsed);
    }
}
