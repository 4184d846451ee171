package ballot.txn.step;

import ballot.txn.PartitionState;
import ballot.txn.Transition;
import ballot.txn.TxnId;

/** Reads a transaction's record (docs/txn.md §3.7): how a waiter or recovery learns a blocking intent's fate. */
public record ReadRecord<V>(TxnId id) implements Step<V> {
    @Override
    public Transition<V> evaluate(PartitionState<V> state, long nowMicros) {
        return Transition.of(state, state, new Reply.RecordSeen(state.record(id)), nowMicros);
    }
}
