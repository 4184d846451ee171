package ballot.replication;

import ballot.cql.ConsistencyLevel;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Latency of the coordinator's plain writes, reads and range scans by consistency level, from the call to the
 * answer, failures included. A level's timer is registered when the level is first used, so the levels nobody uses
 * cost no series.
 */
final class CoordinatorMetrics {
    enum Kind {
        WRITE("ballot.coordinator.write.latency", "Latency of plain writes on this coordinator, by consistency level"),
        READ("ballot.coordinator.read.latency", "Latency of single-partition reads on this coordinator, by consistency level"),
        RANGE("ballot.coordinator.range.latency", "Latency of range scans (one chunk of a multi-partition read) on this coordinator, by consistency level");

        final String name;
        final String description;

        Kind(String name, String description) {
            this.name = name;
            this.description = description;
        }
    }

    private record Key(Kind kind, ConsistencyLevel consistency) {}

    /** Records nothing: for the node's own operations (trace writes), which are not client requests. */
    static final CoordinatorMetrics NONE = new CoordinatorMetrics(null);

    /** Null for {@link #NONE}. */
    private final MeterRegistry registry;
    private final Map<Key, Timer> timers = new ConcurrentHashMap<>();
    /** Null for {@link #NONE}. */
    private final Counter heldReads;

    CoordinatorMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.heldReads = registry == null ? null : Counter.builder("ballot.coordinator.reads.held")
                .description("Partitions plain reads found held by a transaction's intent, and so read at SERIAL once it was resolved")
                .register(registry);
    }

    /** Counts a plain read of a partition a transaction's intent held, read through the transactions (docs/txn.md §10). */
    void heldRead() {
        if (heldReads != null) heldReads.increment();
    }

    /** Runs {@code request} and records its latency when it completes, or when it throws. */
    <T> CompletableFuture<T> time(Kind kind, ConsistencyLevel consistency, Supplier<CompletableFuture<T>> request) {
        if (registry == null) return request.get();
        Timer timer = timers.computeIfAbsent(new Key(kind, consistency), this::timer);
        long start = System.nanoTime();
        CompletableFuture<T> answer;
        try {
            answer = request.get();
        } catch (RuntimeException e) {
            timer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            throw e;
        }
        // A side branch, not the returned stage: callers see the answer exactly as the request gave it.
        answer.whenComplete((value, error) -> timer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS));
        return answer;
    }

    private Timer timer(Key key) {
        return Timer.builder(key.kind().name)
                .tag("consistency", key.consistency().name())
                .description(key.kind().description)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(100_000))
                .maximumExpectedValue(Duration.ofSeconds(10))
                .register(registry);
    }
}
