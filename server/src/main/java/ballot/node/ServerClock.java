package ballot.node;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/** Write timestamps in microseconds: the wall clock, made strictly increasing so two writes never tie on one node. */
final class ServerClock {
    private final LongSupplier currentTimeMillis;
    private final AtomicLong last = new AtomicLong();

    ServerClock(LongSupplier currentTimeMillis) {
        this.currentTimeMillis = currentTimeMillis;
    }

    long nextMicros() {
        long now = currentTimeMillis.getAsLong() * 1000;
        return last.updateAndGet(previous -> Math.max(previous + 1, now));
    }
}
