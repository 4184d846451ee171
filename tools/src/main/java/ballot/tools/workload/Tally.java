package ballot.tools.workload;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What a run's requests came to, recorded concurrently by their completions: outcomes, errors by kind with the first
 * few distinct messages, and latencies. One reader at a time takes intervals of it (for progress lines) and the final
 * result; the total latency histogram is the sum of the intervals taken.
 */
final class Tally<O extends Enum<O>> {
    static final int FIRST_ERRORS_MAX = 5;

    private final Class<O> outcomeType;
    private final LongAdder[] outcomes;
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    private final Set<String> firstErrors = new LinkedHashSet<>(); // the first distinct messages; guarded by itself
    private final LongAdder completed = new LongAdder();
    private final Recorder latencyMicros = new Recorder(3);

    private final long count;
    private final long startNanos;
    private final Histogram totalMicros = new Histogram(3);
    private long lastCompleted;
    private long lastNanos;

    Tally(Class<O> outcomeType, long count, long startNanos) {
        this.outcomeType = outcomeType;
        this.outcomes = new LongAdder[outcomeType.getEnumConstants().length];
        for (int i = 0; i < outcomes.length; i++) outcomes[i] = new LongAdder();
        this.count = count;
        this.startNanos = startNanos;
        this.lastNanos = startNanos;
    }

    void outcome(O outcome, long latencyNanos) {
        latencyMicros.recordValue(Math.max(1, latencyNanos / 1_000));
        outcomes[outcome.ordinal()].increment();
        completed.increment();
    }

    void error(Throwable error) {
        Throwable cause = cause(error);
        String kind = cause.getClass().getSimpleName();
        errors.computeIfAbsent(kind, k -> new LongAdder()).increment();
        synchronized (firstErrors) {
            if (firstErrors.size() < FIRST_ERRORS_MAX) firstErrors.add(kind + ": " + cause.getMessage());
        }
        completed.increment();
    }

    /**
     * The error that answered the request: out of its future's wrapper, and out of the driver's "all nodes failed" when
     * the retry policy tried another node (as it does on Unavailable) and every node gave an error.
     */
    static Throwable cause(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) cause = cause.getCause();
        if (cause instanceof AllNodesFailedException all) {
            List<Throwable> firstNodeErrors = all.getAllErrors().values().stream().findFirst().orElse(List.of());
            if (!firstNodeErrors.isEmpty()) return firstNodeErrors.get(firstNodeErrors.size() - 1);
        }
        return cause;
    }

    /** The interval since the previous call (or the start), ending at {@code nowNanos}. */
    synchronized Interval interval(long nowNanos) {
        Histogram latencies = latencyMicros.getIntervalHistogram();
        totalMicros.add(latencies);
        long done = completed.sum();
        Interval interval = new Interval(nowNanos - startNanos, done, count, done - lastCompleted, nowNanos - lastNanos, latencies);
        lastCompleted = done;
        lastNanos = nowNanos;
        return interval;
    }

    /** The result of the run, once every request has completed and the last interval has been taken. */
    synchronized LoadResult<O> result(long endNanos, boolean stoppedEarly) {
        Map<O, Long> byOutcome = new EnumMap<>(outcomeType);
        for (O o : outcomeType.getEnumConstants()) byOutcome.put(o, outcomes[o.ordinal()].sum());
        Map<String, Long> byKind = new TreeMap<>();
        errors.forEach((kind, n) -> byKind.put(kind, n.sum()));
        List<String> first;
        synchronized (firstErrors) {
            first = List.copyOf(firstErrors);
        }
        return new LoadResult<>(count, completed.sum(), Collections.unmodifiableMap(byOutcome), Collections.unmodifiableMap(byKind), first, totalMicros.copy(), endNanos - startNanos, stoppedEarly);
    }
}
