package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * {@code date}: days since the epoch as an unsigned 4-byte integer centred on 2^31 (1970-01-01 is
 * {@code 0x80000000}), so byte order is date order; never empty. Java form: {@code LocalDate}. Literals:
 * {@code 'yyyy-mm-dd'} (ISO, strict; {@code -0001-01-01} and {@code +10000-01-01} allowed) or an integer, the raw
 * unsigned day number.
 */
final class DateType extends NativeType {
    private static final Pattern RAW = Pattern.compile("^-?\\d+$");
    private static final long EPOCH = 1L << 31;
    private static final LocalDate MIN = LocalDate.ofEpochDay(-EPOCH);
    private static final LocalDate MAX = LocalDate.ofEpochDay(EPOCH - 1);

    DateType() {
        super(Kind.DATE, "date", 0x0011, "SimpleDateType");
    }

    @Override
    public boolean allowsEmpty() {
        return false;
    }

    @Override
    void validateNonEmpty(ByteBuffer value) {
        if (value.remaining() != 4)
            throw invalid("Expected 4 byte long for date (%d)", value.remaining());
    }

    private static long epochDay(ByteBuffer value) {
        return (value.getInt(value.position()) & 0xFFFFFFFFL) - EPOCH;
    }

    static ByteBuffer ofEpochDay(long day) {
        return Buffers.ofInt((int) (day + EPOCH));
    }

    @Override
    Object composeNonEmpty(ByteBuffer value) {
        return LocalDate.ofEpochDay(epochDay(value));
    }

    /** Accepts a {@code LocalDate}, or an {@code Integer} holding the raw serialized (unsigned, centred) day. */
    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null)
            return null;
        if (value instanceof Integer)
            return Buffers.ofInt((Integer) value);
        if (value instanceof LocalDate) {
            LocalDate date = (LocalDate) value;
            if (date.isBefore(MIN) || date.isAfter(MAX))
                throw invalid("Date %s is outside the supported range %s to %s", date, MIN, MAX);
            return ofEpochDay(date.toEpochDay());
        }
        throw invalid("Expected a LocalDate or Integer for date, got %s", value.getClass().getSimpleName());
    }

    @Override
    int compareNonEmpty(ByteBuffer left, ByteBuffer right) {
        return Buffers.compareUnsigned(left, right);
    }

    @Override
    void encodeNonEmpty(ByteBuffer value, ComparableBytesWriter out) {
        out.write(value, 0, 4);
    }

    @Override
    ByteBuffer decodeNonEmpty(ComparableBytesReader in) {
        return Buffers.ofInt((int) in.readBigEndian(4));
    }

    @Override
    public boolean accepts(ConstantKind kind) {
        return kind == ConstantKind.STRING || kind == ConstantKind.INTEGER;
    }

    @Override
    public ByteBuffer fromString(String text) {
        if (RAW.matcher(text).matches()) {
            try {
                long raw = Long.parseLong(text);
                if (raw < 0 || raw > 0xFFFFFFFFL)
                    throw new NumberFormatException();
                return Buffers.ofInt((int) raw);
            } catch (NumberFormatException e) {
                throw new InvalidRequestException("Unable to make unsigned int (for date) from: '" + text + "'");
            }
        }
        LocalDate date;
        try {
            date = LocalDate.parse(text, DateTimeFormatter.ISO_LOCAL_DATE);
        } catch (DateTimeParseException e) {
            throw new InvalidRequestException("Unable to coerce '" + text + "' to a formatted date (long)");
        }
        if (date.isBefore(MIN))
            throw invalid("Input date %s is less than min supported date %s", text, MIN);
        if (date.isAfter(MAX))
            throw invalid("Input date %s is greater than max supported date %s", text, MAX);
        return ofEpochDay(date.toEpochDay());
    }

    @Override
    String asStringNonEmpty(ByteBuffer value) {
        return LocalDate.ofEpochDay(epochDay(value)).toString();
    }

    @Override
    boolean quotesLiterals() {
        return true;
    }

    @Override
    ByteBuffer fromJsonNonNull(Object parsed) {
        if (parsed instanceof String)
            return fromString((String) parsed);
        throw invalid("Expected a string representation of a date value, but got a %s", Json.describe(parsed));
    }
}
