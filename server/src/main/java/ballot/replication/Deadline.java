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

    /** @param atMillis the instant on {@code nowMillis}'s scale */
    static Deadline at(long atMillis, LongSupplier nowMillis) {
        return new At(atMillis, nowMillis);
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
        private final long atMillis;
        private final LongSupplier nowMillis;

        At(long atMillis, LongSupplier nowMillis) {
            this.atMillis = atMillis;
            this.nowMillis = nowMillis;
        }

        Duration stepTimeout(Duration configured) {
            return Duration.ofMillis(Math.max(0, atMillis - nowMillis.getAsLong()));
        }

        boolean hasPassed() {
            return nowMillis.getAsLong() >= atMillis;
        }
    }
}
