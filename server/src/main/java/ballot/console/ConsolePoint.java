package ballot.console;

import java.util.Map;
import java.util.TreeMap;

/**
 * What the node did between two {@link MeterReading}s, per second: one point of every console graph. A figure that the
 * interval cannot give (a latency quantile or round trips per LWT with no LWT answered) is null, a gap in the graph.
 *
 * @param timeMillis     wall-clock time of the later reading (the graphs' x axis)
 * @param lwtP50Millis   median latency of the LWTs answered in the interval, from the latency buckets
 * @param roundTripsPerLwt network round trips per LWT answered in the interval
 */
record ConsolePoint(long timeMillis, double lwtPerSecond, Double lwtP50Millis, Double lwtP99Millis, double contentionPerSecond,
        double conditionNotMetPerSecond, double timeoutsPerSecond, Double roundTripsPerLwt,
        Map<String, Double> requestsPerSecond, Map<String, Double> errorsPerSecond) {

    /** The rates from {@code before} to {@code after}, {@code elapsedNanos} apart (positive). */
    static ConsolePoint between(MeterReading before, MeterReading after, long elapsedNanos, long timeMillis) {
        if (elapsedNanos <= 0) throw new IllegalArgumentException("readings " + elapsedNanos + " ns apart; they must be in time order");
        double seconds = elapsedNanos / 1e9;
        long roundTripsCount = after.roundTripsCount() - before.roundTripsCount();
        return new ConsolePoint(timeMillis,
                (after.lwts() - before.lwts()) / seconds,
                quantileMillis(before, after, 0.50),
                quantileMillis(before, after, 0.99),
                (after.contention() - before.contention()) / seconds,
                (after.conditionNotMet() - before.conditionNotMet()) / seconds,
                (after.timeouts() - before.timeouts()) / seconds,
                roundTripsCount == 0 ? null : (after.roundTrips() - before.roundTrips()) / roundTripsCount,
                rates(before.requests(), after.requests(), seconds),
                rates(before.errors(), after.errors(), seconds));
    }

    /**
     * The {@code q} quantile of the latencies recorded between the readings, in milliseconds, as Prometheus's
     * {@code histogram_quantile} estimates it: linear within the bucket the quantile falls in, from the bucket below's
     * bound (0 for the first). Past the last bound it is that bound. Null when nothing was recorded.
     */
    static Double quantileMillis(MeterReading before, MeterReading after, double q) {
        double[] bounds = after.latencyBucketsSeconds();
        if (bounds.length == 0) return null;
        long[] counts = new long[bounds.length];
        for (int i = 0; i < bounds.length; i++) {
            long earlier = before.latencyCounts().length == bounds.length ? before.latencyCounts()[i] : 0;
            counts[i] = after.latencyCounts()[i] - earlier;
        }
        long total = Math.max(counts[counts.length - 1], after.lwts() - before.lwts());
        if (total == 0) return null;
        double rank = q * total;
        for (int i = 0; i < bounds.length; i++) {
            if (counts[i] < rank) continue;
            double lower = i == 0 ? 0 : bounds[i - 1];
            long below = i == 0 ? 0 : counts[i - 1];
            long inBucket = counts[i] - below;
            double fraction = inBucket == 0 ? 1 : (rank - below) / inBucket;
            return (lower + (bounds[i] - lower) * fraction) * 1000;
        }
        return bounds[bounds.length - 1] * 1000;
    }

    private static Map<String, Double> rates(Map<String, Double> before, Map<String, Double> after, double seconds) {
        Map<String, Double> rates = new TreeMap<>();
        after.forEach((key, count) -> rates.put(key, (count - before.getOrDefault(key, 0.0)) / seconds));
        return rates;
    }
}
