package ballot.txn.step;

import ballot.txn.Attempt;
import ballot.txn.PartitionState;
import ballot.txn.Record;
import ballot.txn.Transition;
import java.util.List;

/**
 * Decides a staging attempt in its record (docs/txn.md §3.5): the one transition out of {@code STAGING(e)} besides a
 * restart (§8 I1). Without a record, an abort writes {@code ABORTED(e)}, which also refuses the {@code Stage} still in
 * flight. The first finalizer wins; everyone reports the record it returns.
 *
 * @param reason for an abort: the refusal that makes it final, or null (retryable)
 */
public record Finalize<V>(Attempt attempt, boolean commit, String reason) implements Step<V> {
    public Finalize {
        if (commit && reason != null) throw new IllegalArgumentException("a commit has no reason");
    }

    @Override
    public Transition<V> evaluate(PartitionState<V> state, long nowMicros) {
        Record existing = state.record(attempt.id());
        if (existing == null) {
            if (commit) return Transition.of(state, state, new Reply.RecordSeen(null), nowMicros);
            Record aborted = new Record(attempt.id(), attempt.epoch(), Record.Status.ABORTED, reason, 0, 0, List.of());
            return Transition.of(state, state.withRecord(aborted), new Reply.RecordSeen(aborted), nowMicros);
        }
        if (existing.status() != Record.Status.STAGING || existing.epoch() != attempt.epoch())
            return Transition.of(state, state, new Reply.RecordSeen(existing), nowMicros);
        Record decided = existing.finish(commit, reason);
        return Transition.of(state, state.withRecord(decided), new Reply.RecordSeen(decided), nowMicros);
    }
}
