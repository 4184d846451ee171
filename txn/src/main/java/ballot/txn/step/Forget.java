package ballot.txn.step;

import ballot.txn.PartitionState;
import ballot.txn.Transition;
import ballot.txn.TxnId;

/**
 * The retention rule's check of one participant (docs/txn.md §2): is this partition clear of a decided transaction
 * for good? It is when it holds no intent of the transaction and its partition time is past {@code deadlineMicros},
 * the deadline of the transaction's last epoch, so that time refuses every placement of every epoch from now on.
 * Markers of the transaction are expired by then, but an early resolution's (which does not expire by time,
 * {@link Resolve}); a clear partition drops the transaction's marker and any other expired ones.
 */
public record Forget<V>(TxnId id, long deadlineMicros) implements Step<V> {
    @Override
    public Transition<V> evaluate(PartitionState<V> state, long nowMicros) {
        boolean clear = state.intentOf(id) == null && nowMicros > deadlineMicros;
        PartitionState<V> next = clear ? state.withoutMarker(id).withoutExpired(nowMicros) : state;
        return Transition.of(state, next, new Reply.Cleared(clear), nowMicros);
    }
}
