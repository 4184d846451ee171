package ballot.node;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Write timestamps in microseconds: the wall clock, made strictly increasing so two writes never tie on one node.
 *
 * <p>The clock has microsecond resolution, like the drivers' client-side timestamp generators: with a millisecond
 * clock, an LWT decided within a millisecond of a plain write that the same client had already seen acknowledged
 * would get an earlier timestamp than that write and lose to it under last-write-wins.
 */
final class ServerClock {
    private final LongSupplier currentTimeMicros;
    private final AtomicLong last = new AtomicLong();

    ServerClock(LongSupplier currentTimeMicros) {
        this.currentTimeMicros = currentTimeMicros;
    }

    /** The system clock at microsecond resolution (Linux: clock_gettime through {@link Instant#now()}). */
    static long systemMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    long nextMicros() {
        long now = currentTimeMicros.getAsLong();
        return last.updateAndGet(previous -> Math.max(previous + 1, now));
    }
}
