package ballot.tools.workload;

import org.HdrHistogram.Histogram;

/**
 * One progress interval of a run: {@code completed} of {@code count} requests answered {@code elapsedNanos} after the
 * start, {@code intervalCompleted} of them in the last {@code intervalNanos}, with the latencies of those that succeeded.
 */
record Interval(long elapsedNanos, long completed, long count, long intervalCompleted, long intervalNanos, Histogram latencyMicros) {}
