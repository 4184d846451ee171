package ballot.txn.step;

import ballot.txn.PartitionState;
import ballot.txn.Transition;
import ballot.txn.TxnId;

/**
 * The retention rule's check of one participant (docs/txn.md §2): is this partition clear of a decided transaction
 * for good? It is when it holds no intent of the transaction and its partition time is past {@code deadlineMicros},
 * the deadline of the transaction's last epoch, so that time refuses every placement of every epoch from now on.
 * Markers of the transaction are expired by then; a clear partition drops them and any other expired ones. The sweep
 * asks it of the participants whose resolution no coordinator saw (§6.3).
 */
public record Forget<V>(TxnId id, long deadlineMicros) implements Step<V> {
    @Override
    public Transition<V> evaluate(PartitionState<V> state, long nowMicros) {
        PartitionState<V> cleared = cleared(state, id, deadlineMicros, nowMicros);
        return Transition.of(state, cleared == null ? state : cleared, new Reply.Cleared(cleared != null), nowMicros);
    }

    /**
     * The partition without its traces of transaction {@code id} if it is clear of it for good (the rule above), or
     * null if it is not. {@link DropRecord} applies the same rule to the home.
     */
    static <V> PartitionState<V> cleared(PartitionState<V> state, TxnId id, long deadlineMicros, long nowMicros) {
        if (state.intentOf(id) != null || nowMicros <= deadlineMicros) return null;
        return state.withoutMarker(id).withoutExpired(nowMicros);
    }
}
