package ballot.metrics;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import java.util.Collection;
import java.util.concurrent.TimeUnit;

/**
 * Latency percentiles of one or more timers that publish the same percentile histogram (their buckets are summed):
 * the values of the histogram's window (Micrometer's two minutes), as nodetool's histograms show recent values. A
 * percentile is the upper bound of the bucket it falls in, as Cassandra's estimated histograms report it, so it is at
 * most one bucket (about 10%) above the true value. Values in microseconds; all zero when nothing was recorded.
 */
public record LatencyPercentiles(long count, double p50Micros, double p75Micros, double p95Micros, double p98Micros, double p99Micros,
        double maxMicros) {
    private static final double[] QUANTILES = {0.50, 0.75, 0.95, 0.98, 0.99};

    public static LatencyPercentiles of(Collection<Timer> timers) {
        double[] bounds = null;
        long[] counts = null;
        double max = 0;
        for (Timer timer : timers) {
            HistogramSnapshot snapshot = timer.takeSnapshot();
            CountAtBucket[] buckets = snapshot.histogramCounts();
            if (bounds == null) {
                bounds = new double[buckets.length];
                counts = new long[buckets.length];
                for (int i = 0; i < buckets.length; i++) bounds[i] = buckets[i].bucket(TimeUnit.MICROSECONDS);
            }
            if (buckets.length != bounds.length) throw new IllegalArgumentException("timer " + timer.getId() + " has other buckets");
            // Micrometer's bucket counts are cumulative: each counts the values at most its bound.
            for (int i = 0; i < buckets.length; i++) counts[i] += (long) buckets[i].count();
            max = Math.max(max, snapshot.max(TimeUnit.MICROSECONDS));
        }
        long total = counts == null || counts.length == 0 ? 0 : counts[counts.length - 1];
        double[] percentiles = new double[QUANTILES.length];
        for (int q = 0; q < QUANTILES.length && total > 0; q++) {
            long rank = (long) Math.ceil(QUANTILES[q] * total);
            int i = 0;
            while (counts[i] < rank) i++;
            percentiles[q] = Math.min(bounds[i], max);
        }
        return new LatencyPercentiles(total, percentiles[0], percentiles[1], percentiles[2], percentiles[3], percentiles[4], max);
    }
}
