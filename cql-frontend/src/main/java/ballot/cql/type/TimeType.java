package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import java.nio.ByteBuffer;
import java.time.LocalTime;
import java.util.regex.Pattern;

/**
 * {@code time}: nanoseconds since midnight, 8 bytes, compared as unsigned bytes; never empty. Java form:
 * {@code LocalTime}. Literals: {@code 'hh:mm:ss[.fffffffff]'} or an integer number of nanoseconds.
 */
final class TimeType extends NativeType {
    private static final Pattern RAW = Pattern.compile("^-?\\d+$");
    private static final long NANOS_PER_DAY = 86_400_000_000_000L;

    TimeType() {
        super(Kind.TIME, "time", 0x0012, "TimeType");
    }

    @Override
    public boolean allowsEmpty() {
        return false;
    }

    @Override
    void validateNonEmpty(ByteBuffer value) {
        if (value.remaining() != 8)
            throw invalid("Expected 8 byte long for time (%d)", value.remaining());
        // Cassandra stores any 8 bytes here, and renders those out of range as nonsense; refused, so that every stored
        // time can be read back.
        long n = nanos(value);
        if (n < 0 || n >= NANOS_PER_DAY)
            throw invalid("Time value %d is out of range [0, %d)", n, NANOS_PER_DAY);
    }

    private static long nanos(ByteBuffer value) {
        return value.getLong(value.position());
    }

    @Override
    Object composeNonEmpty(ByteBuffer value) {
        return LocalTime.ofNanoOfDay(nanos(value)); // in range: validated
    }

    /** Accepts a {@code LocalTime} or a {@code Long} of nanoseconds since midnight. */
    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null)
            return null;
        if (value instanceof LocalTime)
            return Buffers.ofLong(((LocalTime) value).toNanoOfDay());
        if (value instanceof Long)
            return Buffers.ofLong((Long) value);
        throw invalid("Expected a LocalTime or Long for time, got %s", value.getClass().getSimpleName());
    }

    @Override
    int compareNonEmpty(ByteBuffer left, ByteBuffer right) {
        return Buffers.compareUnsigned(left, right);
    }

    @Override
    void encodeNonEmpty(ByteBuffer value, ComparableBytesWriter out) {
        out.write(value, 0, 8);
    }

    @Override
    ByteBuffer decodeNonEmpty(ComparableBytesReader in) {
        return Buffers.ofLong(in.readBigEndian(8));
    }

    @Override
    public boolean accepts(ConstantKind kind) {
        return kind == ConstantKind.STRING || kind == ConstantKind.INTEGER;
    }

    @Override
    public ByteBuffer fromString(String text) {
        if (RAW.matcher(text).matches()) {
            try {
                long n = Long.parseLong(text);
                if (n < 0 || n >= NANOS_PER_DAY)
                    throw new NumberFormatException();
                return Buffers.ofLong(n);
            } catch (NumberFormatException e) {
                throw new InvalidRequestException("Unable to make long (for time) from: '" + text + "'");
            }
        }
        long n = parseClock(text.trim());
        if (n < 0)
            throw new InvalidRequestException("(TimeType) Unable to coerce '" + text + "' to a formatted time (long)");
        return Buffers.ofLong(n);
    }

    /** {@code hh:mm:ss[.f{1,9}]} to nanoseconds, or -1 if malformed or out of range. */
    private static long parseClock(String s) {
        int first = s.indexOf(':');
        int second = s.indexOf(':', first + 1);
        if (first <= 0 || second <= 0 || second >= s.length() - 1)
            return -1;
        int period = s.indexOf('.', second + 1);
        long hours = digits(s, 0, first);
        long minutes = digits(s, first + 1, second);
        long seconds = digits(s, second + 1, period > 0 ? period : s.length());
        long fraction = 0;
        if (period > 0) {
            int count = s.length() - period - 1;
            if (count < 1 || count > 9)
                return -1;
            fraction = digits(s, period + 1, s.length());
            if (fraction < 0)
                return -1;
            for (int i = count; i < 9; i++)
                fraction *= 10;
        }
        if (hours < 0 || hours >= 24 || minutes < 0 || minutes >= 60 || seconds < 0 || seconds >= 60)
            return -1;
        return ((hours * 60 + minutes) * 60 + seconds) * 1_000_000_000L + fraction;
    }

    /** The non-negative decimal number in {@code s[from, to)}, or -1. */
    private static long digits(String s, int from, int to) {
        if (from >= to || to - from > 10)
            return -1;
        long v = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9')
                return -1;
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /** {@code hh:mm:ss.nnnnnnnnn}, always nine fraction digits, as Cassandra prints times. */
    @Override
    String asStringNonEmpty(ByteBuffer value) {
        long n = nanos(value);
        long nano = Math.floorMod(n, 1_000_000_000L);
        long secondsOfDay = Math.floorDiv(n, 1_000_000_000L);
        return String.format("%02d:%02d:%02d.%09d", secondsOfDay / 3600, (secondsOfDay / 60) % 60, secondsOfDay % 60, nano);
    }

    @Override
    boolean quotesLiterals() {
        return true;
    }

    @Override
    ByteBuffer fromJsonNonNull(Object parsed) {
        if (parsed instanceof String)
            return fromString((String) parsed);
        throw invalid("Expected a string representation of a time value, but got a %s", Json.describe(parsed));
    }
}
