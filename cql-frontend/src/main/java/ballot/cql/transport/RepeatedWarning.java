package ballot.cql.transport;

import java.util.concurrent.atomic.AtomicLong;

/** Counts occurrences of one kind of trouble and lets a warning about it be logged at most once per 10 s. Thread-safe. */
final class RepeatedWarning {
    private static final long INTERVAL_NANOS = 10_000_000_000L;

    private final AtomicLong count = new AtomicLong();
    private final AtomicLong lastLogNanos = new AtomicLong(System.nanoTime() - INTERVAL_NANOS);

    /** Counts one occurrence; returns how many so far if a warning should be logged now, else 0. */
    long occurred() {
        long total = count.incrementAndGet();
        long now = System.nanoTime();
        long last = lastLogNanos.get();
        return now - last >= INTERVAL_NANOS && lastLogNanos.compareAndSet(last, now) ? total : 0;
    }
}
