package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;

/**
 * {@code duration}: three signed vints (months, days, nanoseconds), never empty. Java form: {@link CqlDuration}.
 * Durations have no meaningful order: they may not appear in keys, sets or map keys, and {@link #compare} is the
 * byte order Cassandra uses internally.
 */
final class DurationType extends NativeType {
    DurationType() {
        super(Kind.DURATION, "duration", 0x0015, "DurationType");
    }

    @Override
    public void writeTypeOption(ByteBuf out, int protocolVersion) {
        if (protocolVersion < 5)
            writeCustomOption(out);
        else
            super.writeTypeOption(out, protocolVersion);
    }

    @Override
    public boolean allowsEmpty() {
        return false;
    }

    @Override
    void validateNonEmpty(ByteBuffer value) {
        read(value);
    }

    private static CqlDuration read(ByteBuffer value) {
        if (value.remaining() < 3)
            throw invalid("Expected at least 3 bytes for a duration (%d)", value.remaining());
        VInts.Read months = VInts.readSigned(value, 0, "a duration");
        VInts.Read days = VInts.readSigned(value, months.next(), "a duration");
        VInts.Read nanos = VInts.readSigned(value, days.next(), "a duration");
        if ((int) months.value() != months.value())
            throw invalid("The duration months must be a 32 bits integer but was: %d", months.value());
        if ((int) days.value() != days.value())
            throw invalid("The duration days must be a 32 bits integer but was: %d", days.value());
        return new CqlDuration((int) months.value(), (int) days.value(), nanos.value());
    }

    static ByteBuffer write(CqlDuration d) {
        ByteBuffer out = ByteBuffer.allocate(
                VInts.signedSize(d.months()) + VInts.signedSize(d.days()) + VInts.signedSize(d.nanoseconds()));
        VInts.writeSigned(out, d.months());
        VInts.writeSigned(out, d.days());
        VInts.writeSigned(out, d.nanoseconds());
        return out.flip();
    }

    @Override
    Object composeNonEmpty(ByteBuffer value) {
        return read(value);
    }

    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null)
            return null;
        if (!(value instanceof CqlDuration))
            throw invalid("Expected a CqlDuration for duration, got %s", value.getClass().getSimpleName());
        return write((CqlDuration) value);
    }

    @Override
    int compareNonEmpty(ByteBuffer left, ByteBuffer right) {
        return Buffers.compareUnsigned(left, right);
    }

    @Override
    public boolean accepts(ConstantKind kind) {
        return kind == ConstantKind.DURATION || kind == ConstantKind.INTEGER;
    }

    @Override
    public ByteBuffer fromString(String text) {
        return text.isEmpty() ? Buffers.empty() : write(CqlDuration.parse(text));
    }

    @Override
    String asStringNonEmpty(ByteBuffer value) {
        return read(value).toString();
    }

    /** Cassandra's text for a zero duration is empty, which CQL cannot read back; the literal says {@code 0s}. */
    @Override
    public String toCqlLiteral(ByteBuffer value) {
        String literal = super.toCqlLiteral(value);
        return literal.isEmpty() ? "0s" : literal;
    }

    @Override
    String toJsonNonEmpty(ByteBuffer value) {
        return '"' + asStringNonEmpty(value) + '"';
    }

    @Override
    ByteBuffer fromJsonNonNull(Object parsed) {
        if (parsed instanceof String)
            return fromString((String) parsed);
        throw new InvalidRequestException(
                "Expected a string representation of a duration, but got a " + Json.describe(parsed));
    }
}
