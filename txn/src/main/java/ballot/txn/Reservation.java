package ballot.txn;

import java.util.Objects;

/**
 * A partition's claim for its oldest waiting transaction (docs/txn.md §5.1): while it lasts, no younger transaction
 * may place an intent on the partition, so the lock goes to the waiter when the holder releases it. It only ever
 * makes younger placements die, so safety does not depend on it; its lease ({@code untilMicros}, partition time)
 * ends it if the waiter stops renewing it.
 */
public record Reservation(TxnId id, long ageMicros, long untilMicros) {
    public Reservation {
        Objects.requireNonNull(id, "id");
    }

    /** Whether the claim still holds at partition time {@code nowMicros}. */
    public boolean liveAt(long nowMicros) {
        return nowMicros <= untilMicros;
    }

    /** Whether this waiter goes before a transaction of {@code ageMicros} and {@code otherId} (§5). */
    public boolean before(long otherAgeMicros, TxnId otherId) {
        return !id.equals(otherId) && Intent.older(ageMicros, id, otherAgeMicros, otherId);
    }
}
