package ballot.cql.transport;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory all connections of a server hold in frames they have begun and not finished sending, and the limits on
 * it: a connection whose incomplete frames take the server past {@code bytesMax}, or that sends no complete frame for
 * {@code assemblyTimeout} while holding an incomplete one, is closed ({@link InboundFraming}). Without them, clients
 * that each send most of a 16 MiB frame and stop use up the direct memory.
 */
final class PartialFrames {
    private final long bytesMax;
    private final Duration assemblyTimeout;
    private final AtomicLong bytes = new AtomicLong();
    /** Connections closed for taking the server past the budget, and for stalling mid-frame. */
    final RepeatedWarning overBudget = new RepeatedWarning();
    final RepeatedWarning stalled = new RepeatedWarning();

    PartialFrames(long bytesMax, Duration assemblyTimeout) {
        this.bytesMax = bytesMax;
        this.assemblyTimeout = assemblyTimeout;
    }

    /** Adds {@code delta} (negative: releases); returns whether the server is now past its budget. */
    boolean add(long delta) {
        return bytes.addAndGet(delta) > bytesMax;
    }

    long bytes() {
        return bytes.get();
    }

    long bytesMax() {
        return bytesMax;
    }

    Duration assemblyTimeout() {
        return assemblyTimeout;
    }
}
