package ballot.console;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The cumulative values of the meters the console graphs, read from the registry at one instant. Two readings give a
 * {@link ConsolePoint}: every field only grows while the node runs, so their differences are what happened in between.
 *
 * @param lwts                 conditional statements and SERIAL reads answered (docs/metrics.md, the latency counts)
 * @param latencyBucketsSeconds upper bound of each latency bucket, in seconds, ascending
 * @param latencyCounts         LWTs at most as slow as the bucket's bound (cumulative, as Prometheus's {@code le})
 * @param contention            backoffs because another coordinator's ballot won
 * @param roundTrips            network round trips the answered LWTs waited for, and {@code roundTripsCount} of them
 */
record MeterReading(long lwts, double[] latencyBucketsSeconds, long[] latencyCounts, double contention, double conditionNotMet,
        double timeouts, double roundTrips, long roundTripsCount, Map<String, Double> requests, Map<String, Double> errors) {
    static final String[] LATENCY = {"ballot.paxos.cas.write.latency", "ballot.paxos.cas.read.latency"};
    static final String[] CONTENTION = {"ballot.paxos.cas.write.contention", "ballot.paxos.cas.read.contention"};
    static final String[] ROUND_TRIPS = {"ballot.paxos.cas.write.round.trips", "ballot.paxos.cas.read.round.trips"};
    static final String[] TIMEOUTS = {"ballot.paxos.cas.write.timeouts", "ballot.paxos.cas.read.timeouts"};
    static final String CONDITION_NOT_MET = "ballot.paxos.cas.write.condition.not.met";
    static final String REQUESTS = "ballot.cql.requests";
    static final String ERRORS = "ballot.cql.errors";

    /** Reads the meters by name; a meter not (yet) registered reads as zero. It only reads: no request waits for it. */
    static MeterReading of(MeterRegistry registry) {
        long lwts = 0;
        TreeMap<Double, Long> buckets = new TreeMap<>();
        for (String name : LATENCY) {
            for (Timer timer : registry.find(name).timers()) {
                lwts += timer.count();
                // The write and read timers share their buckets; merging by bound keeps them apart if that changes.
                for (CountAtBucket bucket : timer.takeSnapshot().histogramCounts()) {
                    buckets.merge(bucket.bucket(TimeUnit.SECONDS), (long) bucket.count(), Long::sum);
                }
            }
        }
        double[] bounds = new double[buckets.size()];
        long[] counts = new long[buckets.size()];
        int i = 0;
        for (Map.Entry<Double, Long> e : buckets.entrySet()) {
            bounds[i] = e.getKey();
            counts[i++] = e.getValue();
        }
        double contention = 0;
        for (String name : CONTENTION) for (DistributionSummary s : registry.find(name).summaries()) contention += s.totalAmount();
        double roundTrips = 0;
        long roundTripsCount = 0;
        for (String name : ROUND_TRIPS) {
            for (DistributionSummary s : registry.find(name).summaries()) {
                roundTrips += s.totalAmount();
                roundTripsCount += s.count();
            }
        }
        double timeouts = 0;
        for (String name : TIMEOUTS) for (Counter c : registry.find(name).counters()) timeouts += c.count();
        double conditionNotMet = 0;
        for (Counter c : registry.find(CONDITION_NOT_MET).counters()) conditionNotMet += c.count();
        return new MeterReading(lwts, bounds, counts, contention, conditionNotMet, timeouts, roundTrips, roundTripsCount,
                byTag(registry, REQUESTS, "opcode"), byTag(registry, ERRORS, "code"));
    }

    private static Map<String, Double> byTag(MeterRegistry registry, String name, String tag) {
        Map<String, Double> counts = new TreeMap<>();
        for (Counter c : registry.find(name).counters()) counts.merge(c.getId().getTag(tag), c.count(), Double::sum);
        return counts;
    }
}
