package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code duration} value: months, days and nanoseconds kept apart because months and days vary in length.
 * Invariant: the three fields are all {@code >= 0} or all {@code <= 0}.
 */
public record CqlDuration(int months, int days, long nanoseconds) {
    static final long NANOS_PER_MICRO = 1_000L;
    static final long NANOS_PER_MILLI = 1_000_000L;
    static final long NANOS_PER_SECOND = 1_000_000_000L;
    static final long NANOS_PER_MINUTE = 60 * NANOS_PER_SECOND;
    static final long NANOS_PER_HOUR = 60 * NANOS_PER_MINUTE;

    private static final Pattern STANDARD =
            Pattern.compile("\\G(\\d+)(y|Y|mo|MO|mO|Mo|w|W|d|D|h|H|s|S|ms|MS|mS|Ms|us|US|uS|Us|µs|µS|ns|NS|nS|Ns|m|M)");
    private static final Pattern ISO8601 = Pattern.compile("P((\\d+)Y)?((\\d+)M)?((\\d+)D)?(T((\\d+)H)?((\\d+)M)?((\\d+)S)?)?");
    private static final Pattern ISO8601_WEEK = Pattern.compile("P(\\d+)W");
    private static final Pattern ISO8601_ALTERNATIVE = Pattern.compile("P(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2}):(\\d{2})");

    public CqlDuration {
        if (!((months >= 0 && days >= 0 && nanoseconds >= 0) || (months <= 0 && days <= 0 && nanoseconds <= 0)))
            throw new InvalidRequestException(String.format(
                    "The duration months, days and nanoseconds must be all of the same sign (%d, %d, %d)",
                    months, days, nanoseconds));
    }

    /**
     * Parses the forms CQL accepts: {@code 1h30m} (units y, mo, w, d, h, m, s, ms, us or µs, ns, largest first, each
     * at most once), ISO 8601 {@code P1Y2M3DT4H5M6S}, {@code P2W} and {@code P0001-02-03T04:05:06}, each optionally
     * preceded by {@code -}.
     */
    public static CqlDuration parse(String input) {
        boolean negative = input.startsWith("-");
        String source = negative ? input.substring(1) : input;
        if (source.startsWith("P")) {
            if (source.endsWith("W"))
                return parseIsoWeeks(negative, source);
            if (source.contains("-"))
                return parseIsoAlternative(negative, source);
            return parseIso(negative, source);
        }
        return parseStandard(negative, source);
    }

    private static CqlDuration parseIso(boolean negative, String source) {
        Matcher m = ISO8601.matcher(source);
        if (!m.matches())
            throw unparsable(source);
        Builder b = new Builder(negative);
        if (m.group(1) != null) b.add(Unit.YEARS, number(m, 2));
        if (m.group(3) != null) b.add(Unit.MONTHS, number(m, 4));
        if (m.group(5) != null) b.add(Unit.DAYS, number(m, 6));
        if (m.group(7) != null) {
            if (m.group(8) != null) b.add(Unit.HOURS, number(m, 9));
            if (m.group(10) != null) b.add(Unit.MINUTES, number(m, 11));
            if (m.group(12) != null) b.add(Unit.SECONDS, number(m, 13));
        }
        return b.build();
    }

    private static CqlDuration parseIsoWeeks(boolean negative, String source) {
        Matcher m = ISO8601_WEEK.matcher(source);
        if (!m.matches())
            throw unparsable(source);
        return new Builder(negative).add(Unit.WEEKS, number(m, 1)).build();
    }

    private static CqlDuration parseIsoAlternative(boolean negative, String source) {
        Matcher m = ISO8601_ALTERNATIVE.matcher(source);
        if (!m.matches())
            throw unparsable(source);
        return new Builder(negative).add(Unit.YEARS, number(m, 1)).add(Unit.MONTHS, number(m, 2))
                .add(Unit.DAYS, number(m, 3)).add(Unit.HOURS, number(m, 4)).add(Unit.MINUTES, number(m, 5))
                .add(Unit.SECONDS, number(m, 6)).build();
    }

    private static CqlDuration parseStandard(boolean negative, String source) {
        Matcher m = STANDARD.matcher(source);
        if (!m.find())
            throw unparsable(source);
        Builder b = new Builder(negative);
        boolean done;
        do {
            b.add(Unit.ofSymbol(m.group(2)), number(m, 1));
            done = m.end() == source.length();
        } while (m.find());
        if (!done)
            throw unparsable(source);
        return b.build();
    }

    private static long number(Matcher m, int group) {
        try {
            return Long.parseLong(m.group(group));
        } catch (NumberFormatException e) {
            throw new InvalidRequestException("Invalid duration. The number " + m.group(group) + " is too large");
        }
    }

    /** Names the input without its minus sign, as Cassandra does. */
    private static InvalidRequestException unparsable(String source) {
        return new InvalidRequestException("Unable to convert '" + source + "' to a duration");
    }

    /** Cassandra's form: {@code 1y2mo3d4h5m6s7ms8us9ns}, zero units left out, {@code -} first if negative. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        if (months < 0 || days < 0 || nanoseconds < 0)
            sb.append('-');
        long rest = append(sb, Math.abs((long) months), 12, "y");
        append(sb, rest, 1, "mo");
        append(sb, Math.abs((long) days), 1, "d");
        if (nanoseconds != 0) {
            rest = append(sb, Math.abs(nanoseconds), NANOS_PER_HOUR, "h");
            rest = append(sb, rest, NANOS_PER_MINUTE, "m");
            rest = append(sb, rest, NANOS_PER_SECOND, "s");
            rest = append(sb, rest, NANOS_PER_MILLI, "ms");
            rest = append(sb, rest, NANOS_PER_MICRO, "us");
            append(sb, rest, 1, "ns");
        }
        return sb.toString();
    }

    private static long append(StringBuilder sb, long dividend, long divisor, String unit) {
        if (dividend == 0 || dividend < divisor)
            return dividend;
        sb.append(dividend / divisor).append(unit);
        return dividend % divisor;
    }

    private enum Unit {
        YEARS(12, 0), MONTHS(1, 0), WEEKS(7, 1), DAYS(1, 1), HOURS(NANOS_PER_HOUR, 2), MINUTES(NANOS_PER_MINUTE, 2),
        SECONDS(NANOS_PER_SECOND, 2), MILLISECONDS(NANOS_PER_MILLI, 2), MICROSECONDS(NANOS_PER_MICRO, 2),
        NANOSECONDS(1, 2);

        final long perUnit;
        final int field; // 0 months, 1 days, 2 nanoseconds

        Unit(long perUnit, int field) {
            this.perUnit = perUnit;
            this.field = field;
        }

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Unit ofSymbol(String symbol) {
            switch (symbol.toLowerCase(Locale.ROOT)) {
                case "y": return YEARS;
                case "mo": return MONTHS;
                case "w": return WEEKS;
                case "d": return DAYS;
                case "h": return HOURS;
                case "m": return MINUTES;
                case "s": return SECONDS;
                case "ms": return MILLISECONDS;
                case "us": case "µs": return MICROSECONDS;
                case "ns": return NANOSECONDS;
                default: throw new InvalidRequestException("Unknown duration symbol '" + symbol + "'");
            }
        }
    }

    /** Accumulates units largest first, each once, refusing totals that overflow their field. */
    private static final class Builder {
        private final boolean negative;
        private long months;
        private long days;
        private long nanos;
        private Unit last;

        Builder(boolean negative) {
            this.negative = negative;
        }

        Builder add(Unit unit, long count) {
            if (unit == last)
                throw new InvalidRequestException("Invalid duration. The " + unit.label() + " are specified multiple times");
            if (last != null && unit.ordinal() < last.ordinal())
                throw new InvalidRequestException(
                        "Invalid duration. The " + last.label() + " should be after " + unit.label());
            last = unit;
            switch (unit.field) {
                case 0:
                    checkLimit(count, (Integer.MAX_VALUE - months) / unit.perUnit, "months");
                    months += count * unit.perUnit;
                    break;
                case 1:
                    checkLimit(count, (Integer.MAX_VALUE - days) / unit.perUnit, "days");
                    days += count * unit.perUnit;
                    break;
                default:
                    checkLimit(count, (Long.MAX_VALUE - nanos) / unit.perUnit, "nanoseconds");
                    nanos += count * unit.perUnit;
            }
            return this;
        }

        private static void checkLimit(long count, long limit, String field) {
            if (count > limit)
                throw new InvalidRequestException("Invalid duration. The total number of " + field
                        + " must be less or equal to " + Integer.MAX_VALUE);
        }

        CqlDuration build() {
            return negative ? new CqlDuration((int) -months, (int) -days, -nanos)
                            : new CqlDuration((int) months, (int) days, nanos);
        }
    }
}
