package ballot.txn.step;

import ballot.txn.PartitionState;
import ballot.txn.Record;
import ballot.txn.Transition;
import ballot.txn.TxnId;

/**
 * Drops a transaction's record at its home once the retention rule allows it (docs/txn.md §2, §8 R): the record is
 * decided, the retention window after its deadline has passed in partition time, and the home itself is clear of the
 * transaction by {@link Forget}'s rule, which this step applies in the same CAS (the window puts partition time past
 * the deadline; an intent of the transaction here keeps the record). The sender must know the rest of the third
 * condition: every other participant the record lists answered {@link Forget} with {@code clear} (a record that lists
 * none only ever says what its absence says). Replies the record left, or null if it is gone.
 */
public record DropRecord<V>(TxnId id, long retentionMicros) implements Step<V> {
    @Override
    public Transition<V> evaluate(PartitionState<V> state, long nowMicros) {
        Record record = state.record(id);
        PartitionState<V> cleared = record != null && retiredAt(record, retentionMicros, nowMicros)
                ? Forget.cleared(state, id, record.deadlineMicros(), nowMicros) : null;
        if (cleared == null) return Transition.of(state, state, new Reply.RecordSeen(record), nowMicros);
        return Transition.of(state, cleared.withoutRecord(id), new Reply.RecordSeen(null), nowMicros);
    }

    /** Conditions 1 and 2 of the retention rule: decided, and kept for the window after its last deadline. */
    public static boolean retiredAt(Record record, long retentionMicros, long nowMicros) {
        return record.status() != Record.Status.STAGING && nowMicros - retentionMicros > record.deadlineMicros();
    }
}
