package ballot.txn.step;

import ballot.txn.PartitionState;
import ballot.txn.Reservation;
import ballot.txn.TxnId;

/** The reservation rules a waiting placement and a placement that locks share (docs/txn.md §5.1). */
final class Waiting {
    private Waiting() {}

    /**
     * A waiter claims the partition until {@code untilMicros} unless an older live waiter holds the claim. Its own claim
     * is renewed only once less than half of the lease is left, so that most polls write nothing.
     */
    static <V> PartitionState<V> reserve(PartitionState<V> s, TxnId id, long ageMicros, long nowMicros, long untilMicros) {
        Reservation current = s.reservationAt(nowMicros);
        if (current != null && current.before(ageMicros, id)) return s;
        if (current != null && current.id().equals(id) && 2 * (current.untilMicros() - nowMicros) >= untilMicros - nowMicros)
            return s;
        return s.withReservation(new Reservation(id, ageMicros, untilMicros));
    }

    /** The waiter got what it waited for (or was refused): its claim ends. */
    static <V> PartitionState<V> unreserve(PartitionState<V> s, TxnId id) {
        return s.reservation() != null && s.reservation().id().equals(id) ? s.withReservation(null) : s;
    }
}
