package ballot.paxos.sim;

import ballot.paxos.spi.Clock;
import java.util.function.LongSupplier;

/**
 * A node's view of simulated time: monotonic time runs at the node's drift rate; wall time adds an offset that
 * fault injection moves in either direction (an NTP step), so ballots are generated from a clock that jumps.
 */
final class SimClock implements Clock {
    private static final long EPOCH_MICROS = 1_700_000_000_000_000L;

    private final LongSupplier simNanos;
    private final double rate;
    private long wallOffsetMicros;

    SimClock(LongSupplier simNanos, double driftPpm, long wallOffsetMicros) {
        this.simNanos = simNanos;
        this.rate = 1 + driftPpm / 1e6;
        this.wallOffsetMicros = wallOffsetMicros;
    }

    @Override
    public long nanoTime() {
        return (long) (simNanos.getAsLong() * rate);
    }

    @Override
    public long wallMicros() {
        return EPOCH_MICROS + nanoTime() / 1000 + wallOffsetMicros;
    }

    void jump(long micros) {
        wallOffsetMicros += micros;
    }
}
