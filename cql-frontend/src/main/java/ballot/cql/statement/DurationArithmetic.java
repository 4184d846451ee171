package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.type.CqlDuration;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Calendar;
import java.util.Locale;
import java.util.TimeZone;

/**
 * A timestamp or date plus or minus a duration, as Cassandra 5.0's TemporalType computes it: on the time in
 * milliseconds, months first on the UTC calendar (a day of month past the new month's end becomes its last day),
 * then days, then whole milliseconds; without months, simply days and milliseconds added. A timestamp takes durations
 * of whole milliseconds, a date of whole days. A failure is FUNCTION_FAILURE, as other operations' are.
 */
final class DurationArithmetic {
    private static final long MILLIS_PER_DAY = 86_400_000L;
    private static final long NANOS_PER_MILLI = 1_000_000L;

    private DurationArithmetic() {}

    static ByteBuffer apply(char op, CqlType temporal, ByteBuffer value, ByteBuffer duration) {
        CqlDuration d = (CqlDuration) CqlTypes.DURATION.compose(duration);
        try {
            checkPrecision(temporal, d);
            int sign = op == '-' ? -1 : 1;
            if (temporal.kind() == CqlType.Kind.DATE) {
                LocalDate date = (LocalDate) temporal.compose(value);
                long millis = add(date.toEpochDay() * MILLIS_PER_DAY, sign * d.months(), sign * d.days(), sign * d.nanoseconds());
                return temporal.decompose(LocalDate.ofEpochDay(Duration.ofMillis(millis).toDays()));
            }
            long millis = value.getLong(value.position());
            return CqlTypes.TIMESTAMP.decompose(add(millis, sign * d.months(), sign * d.days(), sign * d.nanoseconds()));
        } catch (RuntimeException e) {
            throw Arithmetic.failure(op, temporal, CqlTypes.DURATION, e.getMessage());
        }
    }

    /**
     * A timestamp's duration must have no part below the millisecond, a date's none below the day. Cassandra tests the
     * former by the nanoseconds' six lowest bits being zero (so 64ns passes, and counts as nothing), and so does this.
     */
    private static void checkPrecision(CqlType temporal, CqlDuration d) {
        if (temporal.kind() == CqlType.Kind.DATE && d.nanoseconds() != 0)
            throw new InvalidRequestException("The duration must have a day precision. Was: " + d);
        if (temporal.kind() == CqlType.Kind.TIMESTAMP && Long.numberOfTrailingZeros(d.nanoseconds()) < 6)
            throw new InvalidRequestException("The duration must have a millisecond precision. Was: " + d);
    }

    private static long add(long millis, int months, int days, long nanoseconds) {
        if (months == 0) return millis + days * MILLIS_PER_DAY + nanoseconds / NANOS_PER_MILLI;
        Calendar calendar = Calendar.getInstance(TimeZone.getTimeZone("UTC"), Locale.US);
        calendar.setTimeInMillis(millis);
        calendar.add(Calendar.MONTH, months);
        calendar.add(Calendar.DAY_OF_MONTH, days);
        calendar.add(Calendar.MILLISECOND, (int) (nanoseconds / NANOS_PER_MILLI));
        return calendar.getTimeInMillis();
    }
}
