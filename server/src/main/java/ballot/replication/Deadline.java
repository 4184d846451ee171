package ballot.replication;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * When the steps of one coordinator operation must be done. {@link #NONE}: each step waits for replicas as long as the
 * node's configured timeout of its kind, counted from when it starts. {@link #at}: one instant for every step of a
 * statement's execution (ScyllaDB's USING TIMEOUT); each waits only for what is left of it, and once it has passed
 * the operation fails with its timeout error before asking any replica.
 */
abstract sealed class Deadline {
    static final Deadline NONE = new None();

    /** How long a step may wait for a replica, given the configured timeout of its kind. */
    abstract Duration stepTimeout(Duration configured);

    abstract boolean hasPassed();

    /**
     * @param atNanos the instant on {@code nanoTime}'s scale
     * @param nanoTime a monotonic clock ({@code System::nanoTime}): a step of the wall clock must neither end a
     *     statement's time early nor stretch it
     */
    static Deadline at(long atNanos, LongSupplier nanoTime) {
        return new At(atNanos, nanoTime);
    }

    private static final class None extends Deadline {
        Duration stepTimeout(Duration configured) {
            return configured;
        }

        boolean hasPassed() {
            return false;
        }
    }

    private static final class At extends Deadline {
        private final long atNanos;
        private final LongSupplier nanoTime;

        At(long atNanos, LongSupplier nanoTime) {
            this.atNanos = atNanos;
            this.nanoTime = nanoTime;
        }

        /** Differences, not comparisons, of nanoTime values: they may wrap. */
        Duration stepTimeout(Duration configured) {
            return Duration.ofNanos(Math.max(0, atNanos - nanoTime.getAsLong()));
        }

        boolean hasPassed() {
            return nanoTime.getAsLong() - atNanos >= 0;
        }
    }
}
