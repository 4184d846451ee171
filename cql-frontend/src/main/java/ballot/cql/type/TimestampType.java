package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code timestamp}: signed milliseconds since the epoch, 8 bytes, or empty. Java form: {@code Instant}.
 *
 * <p>Literals: an integer (milliseconds), {@code 'now'}, or the date-time forms of Cassandra 5.0's
 * {@code TimestampSerializer}: {@code yyyy-mm-dd}, optionally followed by {@code ' '} or {@code 'T'} and
 * {@code hh:mm[:ss[.fffffffff]]} (digits beyond milliseconds are dropped), and optionally a zone: {@code Z},
 * {@code +hh}, {@code +hhmm}, {@code +hh:mm}, or after a space {@code +hhmm}, {@code UTC}, {@code PST},
 * {@code Europe/Paris}. A literal without a zone is read in UTC (Cassandra reads it in the coordinator's zone).
 */
final class TimestampType extends NativeType {
    private static final Pattern MILLIS = Pattern.compile("^-?\\d+$");
    private static final List<DateTimeFormatter> PARSERS = parsers();
    static final DateTimeFormatter LITERAL = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSX").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter JSON = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSX").withZone(ZoneOffset.UTC);

    private final Clock clock;

    TimestampType(Clock clock) {
        super(Kind.TIMESTAMP, "timestamp", 0x000B, "TimestampType");
        this.clock = clock;
    }

    private static List<DateTimeFormatter> parsers() {
        List<DateTimeFormatter> parsers = new ArrayList<>();
        String[] offsets = {" z", " zzzz", " X", "X", "XXX"};
        for (String dateTime : new String[] {"y-M-d'T'H:m[:s]", "y-M-d H:m[:s]"}) {
            parsers.add(new DateTimeFormatterBuilder().appendPattern(dateTime)
                    .appendFraction(ChronoField.MILLI_OF_SECOND, 0, 9, true).toFormatter().withZone(ZoneOffset.UTC));
            for (String offset : offsets)
                parsers.add(new DateTimeFormatterBuilder().appendPattern(dateTime)
                        .appendFraction(ChronoField.MILLI_OF_SECOND, 0, 9, true).appendPattern(offset).toFormatter());
        }
        for (String offset : offsets)
            parsers.add(new DateTimeFormatterBuilder().appendPattern("yyyy-MM-dd").appendPattern(offset)
                    .parseDefaulting(ChronoField.NANO_OF_DAY, 0).toFormatter());
        parsers.add(new DateTimeFormatterBuilder().append(DateTimeFormatter.ISO_DATE)
                .parseDefaulting(ChronoField.NANO_OF_DAY, 0).toFormatter().withZone(ZoneOffset.UTC));
        return List.copyOf(parsers);
    }

    @Override
    public boolean allowsEmpty() {
        return true;
    }

    @Override
    int fixedLength() {
        return 8;
    }

    @Override
    void validateNonEmpty(ByteBuffer value) {
        if (value.remaining() != 8)
            throw invalid("Expected 8 or 0 byte long for date (%d)", value.remaining());
    }

    private static long millis(ByteBuffer value) {
        return value.getLong(value.position());
    }

    @Override
    Object composeNonEmpty(ByteBuffer value) {
        return Instant.ofEpochMilli(millis(value));
    }

    @Override
    public ByteBuffer decompose(Object value) {
        if (value == null)
            return null;
        if (value instanceof Instant)
            return Buffers.ofLong(((Instant) value).toEpochMilli());
        if (value instanceof Date)
            return Buffers.ofLong(((Date) value).getTime());
        if (value instanceof Long)
            return Buffers.ofLong((Long) value);
        throw invalid("Expected an Instant, Date or Long for timestamp, got %s", value.getClass().getSimpleName());
    }

    @Override
    int compareNonEmpty(ByteBuffer left, ByteBuffer right) {
        return Long.compare(millis(left), millis(right));
    }

    @Override
    void encodeNonEmpty(ByteBuffer value, ComparableBytesWriter out) {
        out.writeBigEndian(millis(value) ^ Long.MIN_VALUE, 8);
    }

    @Override
    ByteBuffer decodeNonEmpty(ComparableBytesReader in) {
        return Buffers.ofLong(in.readBigEndian(8) ^ Long.MIN_VALUE);
    }

    @Override
    public boolean accepts(ConstantKind kind) {
        return kind == ConstantKind.STRING || kind == ConstantKind.INTEGER;
    }

    @Override
    public ByteBuffer fromString(String text) {
        return text.isEmpty() ? Buffers.empty() : Buffers.ofLong(parseMillis(text));
    }

    long parseMillis(String text) {
        if (text.equalsIgnoreCase("now"))
            return clock.millis();
        if (MILLIS.matcher(text).matches()) {
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException e) {
                throw new InvalidRequestException("Unable to make long (for date) from: '" + text + "'");
            }
        }
        for (DateTimeFormatter parser : PARSERS) {
            try {
                return ZonedDateTime.parse(text, parser).toInstant().toEpochMilli();
            } catch (DateTimeParseException | ArithmeticException e) {
                // try the next form
            }
        }
        throw new InvalidRequestException("Unable to parse a date/time from '" + text + "'");
    }

    @Override
    String asStringNonEmpty(ByteBuffer value) {
        return LITERAL.format(Instant.ofEpochMilli(millis(value)));
    }

    @Override
    boolean quotesLiterals() {
        return true;
    }

    @Override
    String toJsonNonEmpty(ByteBuffer value) {
        return '"' + JSON.format(Instant.ofEpochMilli(millis(value))) + '"';
    }

    @Override
    ByteBuffer fromJsonNonNull(Object parsed) {
        if (parsed instanceof String)
            return fromString((String) parsed);
        if (parsed instanceof Long || parsed instanceof Integer)
            return Buffers.ofLong(((Number) parsed).longValue());
        throw invalid("Expected a long or a datestring representation of a timestamp value, but got a %s",
                Json.describe(parsed));
    }
}
