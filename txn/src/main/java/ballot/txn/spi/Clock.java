package ballot.txn.spi;

/**
 * Time as the coordinator sees it: deadlines, back-off, and when a blocking transaction counts as abandoned. Only
 * liveness depends on it (docs/txn.md §7). The server passes its system clock; the simulation, skewed clocks.
 */
public interface Clock {
    /** Monotonic time for timeouts and back-off. */
    long nanoTime();

    /** Wall-clock microseconds since the epoch: ages and deadlines, comparable with partition time. */
    long wallMicros();
}
