package ballot.txn.step;

import ballot.txn.PartitionState;
import ballot.txn.Record;
import ballot.txn.Transition;
import ballot.txn.TxnId;

/**
 * Drops a transaction's record at its home once the retention rule allows it (docs/txn.md §2, §8 R): the record is
 * decided and the retention window after its deadline has passed in partition time. The sender must know the third
 * condition: every participant the record lists answered {@link Forget} with {@code clear} (a record that lists none
 * only ever says what its absence says). Replies the record left, or null if it is gone.
 */
public record DropRecord<V>(TxnId id, long retentionMicros) implements Step<V> {
    @Override
    public Transition<V> evaluate(PartitionState<V> state, long nowMicros) {
        Record record = state.record(id);
        if (record == null || !retiredAt(record, retentionMicros, nowMicros))
            return Transition.of(state, state, new Reply.RecordSeen(record), nowMicros);
        return Transition.of(state, state.withoutRecord(id), new Reply.RecordSeen(null), nowMicros);
    }

    /** Conditions 1 and 2 of the retention rule: decided, and kept for the window after its last deadline. */
    public static boolean retiredAt(Record record, long retentionMicros, long nowMicros) {
        return record.status() != Record.Status.STAGING && nowMicros - retentionMicros > record.deadlineMicros();
    }
}
