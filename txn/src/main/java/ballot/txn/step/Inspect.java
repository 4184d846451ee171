package ballot.txn.step;

import ballot.txn.PartitionState;
import ballot.txn.Record;
import ballot.txn.Transition;

/** The recovery sweep's look at one partition (docs/txn.md §6.3): its intent and its staging records. */
public record Inspect<V>() implements Step<V> {
    @Override
    public Transition<V> evaluate(PartitionState<V> state, long nowMicros) {
        var staging = state.records().values().stream().filter(r -> r.status() == Record.Status.STAGING).toList();
        return Transition.of(state, state, new Reply.Inspection<>(state.intent(), staging), nowMicros);
    }
}
