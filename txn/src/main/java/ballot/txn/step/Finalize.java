package ballot.txn.step;

import ballot.txn.Attempt;
import ballot.txn.PartitionKey;
import ballot.txn.PartitionState;
import ballot.txn.Record;
import ballot.txn.Transition;
import java.util.List;

/**
 * Decides a staging attempt in its record (docs/txn.md §3.5): the one transition out of {@code STAGING(e)} besides a
 * restart (§8 I1). Without a record, an abort writes {@code ABORTED(e)}, which also refuses the {@code Stage} still in
 * flight; it carries the attempt's deadline and the participants the sender knows, which the retention rule needs
 * (§2). The first finalizer wins; everyone reports the record it returns. The home's own intent of the decided attempt
 * is resolved in the same transition, after the record is final (§4.3 keeps its order), so a home that is also a
 * participant needs no {@link Resolve} of its own.
 *
 * @param reason for an abort: the refusal that makes it final, or null (retryable)
 */
public record Finalize<V>(Attempt attempt, boolean commit, String reason, long deadlineMicros,
        List<PartitionKey> participants) implements Step<V> {

    public Finalize {
        if (commit && reason != null) throw new IllegalArgumentException("a commit has no reason");
        participants = List.copyOf(participants);
    }

    public static <V> Finalize<V> commit(Attempt attempt) {
        return new Finalize<>(attempt, true, null, 0, List.of());
    }

    /** An abort; {@code deadlineMicros} and {@code participants} describe the attempt if there is no record yet. */
    public static <V> Finalize<V> abort(Attempt attempt, String reason, long deadlineMicros, List<PartitionKey> participants) {
        return new Finalize<>(attempt, false, reason, deadlineMicros, participants);
    }

    @Override
    public Transition<V> evaluate(PartitionState<V> state, long nowMicros) {
        Record existing = state.record(attempt.id());
        if (existing == null) {
            if (commit) return Transition.of(state, state, new Reply.RecordSeen(null), nowMicros);
            Record aborted = new Record(attempt.id(), attempt.epoch(), Record.Status.ABORTED, reason, 0, deadlineMicros,
                    participants);
            return Transition.of(state, resolveHome(state.withRecord(aborted), aborted), new Reply.RecordSeen(aborted), nowMicros);
        }
        if (existing.status() != Record.Status.STAGING || existing.epoch() != attempt.epoch())
            return Transition.of(state, resolveHome(state, existing), new Reply.RecordSeen(existing), nowMicros);
        Record decided = existing.finish(commit, reason);
        return Transition.of(state, resolveHome(state.withRecord(decided), decided), new Reply.RecordSeen(decided), nowMicros);
    }

    /** The state with the home's intent of the attempt resolved by {@code record}'s decision, if it decides the attempt. */
    private PartitionState<V> resolveHome(PartitionState<V> state, Record record) {
        return record.decide(attempt.epoch()).map(d -> Resolve.apply(state, d)).orElse(state);
    }
}
