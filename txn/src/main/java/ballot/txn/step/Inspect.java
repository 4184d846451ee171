package ballot.txn.step;

import ballot.txn.PartitionState;
import ballot.txn.Record;
import ballot.txn.Transition;

/**
 * The recovery sweep's look at one partition (docs/txn.md §6.3): its intent, its staging records, and its decided
 * records whose retention window ({@code retentionMicros} after their deadline) has passed (§2).
 */
public record Inspect<V>(long retentionMicros) implements Step<V> {
    @Override
    public Transition<V> evaluate(PartitionState<V> state, long nowMicros) {
        var staging = state.records().values().stream().filter(r -> r.status() == Record.Status.STAGING).toList();
        var retired = state.records().values().stream()
                .filter(r -> DropRecord.retiredAt(r, retentionMicros, nowMicros)).toList();
        return Transition.of(state, state, new Reply.Inspection<>(state.intent(), staging, retired), nowMicros);
    }
}
