package ballot.cql.type;

import java.math.BigInteger;
import java.nio.ByteBuffer;

/**
 * {@code varint}: a two's-complement big-endian integer of any length, or empty. Java form: {@code BigInteger}.
 * Comparable encoding of the minimal {@code n}-byte form: a length header, then the bytes. Non-negative: one
 * {@code FF} per 127 of {@code n - 1}, then {@code 80 + (n - 1) % 127}; negative: {@code 00} per 127, then
 * {@code 7F - (n - 1) % 127}. Longer means larger in magnitude, so the header alone orders different lengths.
 */
final class VarintType extends NativeType {
    VarintType() {
        super(Kind.VARINT, "varint", 0x000E, "IntegerType");
    }

    @Override
    public boolean allowsEmpty() {
        return true;
    }

    @Override
    void validateNonEmpty(ByteBuffer value) {
        // every byte sequence is a varint
    }

    static BigInteger read(ByteBuffer value) {
        return new BigInteger(Buffers.toArray(value));
    }

    @Override
    Object composeNonEmpty(ByteBuffer value) {
        return read(value);
    }

    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null)
            return null;
        if (value instanceof BigInteger)
            return ByteBuffer.wrap(((BigInteger) value).toByteArray());
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte)
            return ByteBuffer.wrap(BigInteger.valueOf(((Number) value).longValue()).toByteArray());
        throw invalid("Expected a BigInteger for varint, got %s", value.getClass().getSimpleName());
    }

    @Override
    int compareNonEmpty(ByteBuffer left, ByteBuffer right) {
        return read(left).compareTo(read(right));
    }

    @Override
    void encodeNonEmpty(ByteBuffer value, ComparableBytesWriter out) {
        byte[] minimal = read(value).toByteArray();
        boolean negative = minimal[0] < 0;
        int rest = minimal.length - 1;
        for (; rest >= 127; rest -= 127)
            out.write(negative ? 0x00 : 0xFF);
        out.write(negative ? 0x7F - rest : 0x80 + rest);
        out.write(minimal, 0, minimal.length);
    }

    @Override
    ByteBuffer decodeNonEmpty(ComparableBytesReader in) {
        int header = in.read();
        boolean negative = header < 0x80;
        int length = 1;
        while (header == (negative ? 0x00 : 0xFF)) {
            length += 127;
            header = in.read();
        }
        length += negative ? 0x7F - header : header - 0x80;
        byte[] bytes = new byte[length];
        in.readFully(bytes, 0, length);
        return ByteBuffer.wrap(bytes);
    }

    @Override
    public ByteBuffer canonical(ByteBuffer value) {
        validate(value);
        return value.hasRemaining() ? ByteBuffer.wrap(read(value).toByteArray()) : Buffers.empty();
    }

    @Override
    public boolean hasOneForm() {
        return false;
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
            return ByteBuffer.wrap(new BigInteger(text).toByteArray());
        } catch (NumberFormatException e) {
            throw invalid("unable to make int from '%s'", text);
        }
    }

    @Override
    String asStringNonEmpty(ByteBuffer value) {
        return read(value).toString();
    }

    @Override
    ByteBuffer fromJsonNonNull(Object parsed) {
        if (parsed instanceof BigInteger || parsed instanceof Long || parsed instanceof Integer
                || parsed instanceof Short || parsed instanceof Byte)
            return decompose(parsed);
        if (parsed instanceof String) {
            try {
                return ByteBuffer.wrap(new BigInteger((String) parsed).toByteArray());
            } catch (NumberFormatException e) {
                // reported below, as Cassandra does
            }
        }
        throw invalid("Value '%s' is not a valid representation of a varint value", parsed);
    }
}
