package ballot.cluster;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Phi accrual failure detection (Hayashibara et al., 2004) with Cassandra's exponential model (docs/membership.md §3).
 * For each node the inter-arrival times of its new heartbeats go into a sliding window; {@code phi} is
 * {@code -log10 P(next heartbeat later than now)}, which for exponentially distributed arrivals with mean {@code m} is
 * {@code (now - last) / (m · ln 10)}. Intervals above {@code intervalMaxNanos} (a pause, a partition) are left out so
 * they do not teach the detector to wait longer. Pure: time is an argument. Not thread-safe.
 */
final class FailureDetector {
    private static final double LN_10 = Math.log(10);

    private final double phiConvictThreshold;
    private final int windowSize;
    private final long intervalInitialNanos;
    private final long intervalMaxNanos;
    private final Map<UUID, ArrivalWindow> windows = new HashMap<>();

    FailureDetector(double phiConvictThreshold, int windowSize, long intervalInitialNanos, long intervalMaxNanos) {
        if (phiConvictThreshold <= 0) throw new IllegalArgumentException("phiConvictThreshold must be positive, was " + phiConvictThreshold);
        if (windowSize < 1) throw new IllegalArgumentException("windowSize must be positive, was " + windowSize);
        if (intervalInitialNanos < 1 || intervalMaxNanos < 1) throw new IllegalArgumentException("intervals must be positive");
        this.phiConvictThreshold = phiConvictThreshold;
        this.windowSize = windowSize;
        this.intervalInitialNanos = intervalInitialNanos;
        this.intervalMaxNanos = intervalMaxNanos;
    }

    /** A new heartbeat of {@code node} arrived at {@code nowNanos}. */
    void report(UUID node, long nowNanos) {
        ArrivalWindow window = windows.get(node);
        if (window == null) {
            window = new ArrivalWindow(windowSize, nowNanos);
            window.add(intervalInitialNanos); // so that one heartbeat is enough to suspect silence
            windows.put(node, window);
            return;
        }
        long interval = nowNanos - window.lastNanos;
        if (interval > 0 && interval <= intervalMaxNanos) window.add(interval);
        window.lastNanos = Math.max(window.lastNanos, nowNanos);
    }

    /** Phi of {@code node} at {@code nowNanos}; 0 for a node never heard from. */
    double phi(UUID node, long nowNanos) {
        ArrivalWindow window = windows.get(node);
        if (window == null) return 0;
        long since = Math.max(0, nowNanos - window.lastNanos);
        return since / (window.mean() * LN_10);
    }

    boolean convicts(UUID node, long nowNanos) {
        return phi(node, nowNanos) > phiConvictThreshold;
    }

    /** Forgets {@code node}: it left, or restarted and its old arrivals say nothing about the new process. */
    void remove(UUID node) {
        windows.remove(node);
    }

    double threshold() {
        return phiConvictThreshold;
    }

    /** A ring of the last {@code size} intervals and their running sum. */
    private static final class ArrivalWindow {
        private final long[] intervals;
        private int count;
        private int next;
        private long sum;
        long lastNanos;

        ArrivalWindow(int size, long lastNanos) {
            intervals = new long[size];
            this.lastNanos = lastNanos;
        }

        void add(long interval) {
            if (count == intervals.length) sum -= intervals[next];
            else count++;
            intervals[next] = interval;
            sum += interval;
            next = (next + 1) % intervals.length;
        }

        double mean() {
            return (double) sum / count;
        }
    }
}
