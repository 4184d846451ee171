package ballot.txn.step;

import ballot.txn.PartitionState;
import ballot.txn.Record;
import ballot.txn.Transition;

/**
 * Writes the {@code STAGING(0)} record at home, in parallel with epoch 0's placements (docs/txn.md §3.1). An existing
 * record is left alone and returned; past the deadline nothing is written, and epoch 0 can never stage.
 */
public record Stage<V>(Record record) implements Step<V> {
    public Stage {
        if (record.status() != Record.Status.STAGING || record.epoch() != 0)
            throw new IllegalArgumentException("stage writes STAGING(0), not " + record);
    }

    @Override
    public Transition<V> evaluate(PartitionState<V> state, long nowMicros) {
        Record existing = state.record(record.id());
        if (existing != null) return Transition.of(state, state, new Reply.RecordSeen(existing), nowMicros);
        if (nowMicros > record.deadlineMicros()) return Transition.of(state, state, new Reply.RecordSeen(null), nowMicros);
        return Transition.of(state, state.withRecord(record), new Reply.RecordSeen(record), nowMicros);
    }
}
