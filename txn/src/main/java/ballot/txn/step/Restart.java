package ballot.txn.step;

import ballot.txn.PartitionKey;
import ballot.txn.PartitionState;
import ballot.txn.Record;
import ballot.txn.TxnId;
import ballot.txn.Transition;
import java.util.List;

/**
 * Moves the record from a dead epoch to the next (docs/txn.md §3.2). The sender must know that {@code fromEpoch} can
 * never commit (a fence, an expiry, or the record said so). Deadlines never decrease along epochs, which the markers'
 * garbage collection relies on (§2).
 */
public record Restart<V>(TxnId id, int fromEpoch, long ageMicros, long deadlineMicros, List<PartitionKey> participants)
        implements Step<V> {

    public Restart {
        participants = List.copyOf(participants);
    }

    @Override
    public Transition<V> evaluate(PartitionState<V> state, long nowMicros) {
        Record existing = state.record(id);
        boolean movable = existing == null || (existing.epoch() == fromEpoch
                && (existing.status() == Record.Status.STAGING || existing.retryable()));
        if (!movable) return Transition.of(state, state, new Reply.RecordSeen(existing), nowMicros);
        long deadline = existing == null ? deadlineMicros : Math.max(deadlineMicros, existing.deadlineMicros());
        Record next = Record.staging(id, fromEpoch + 1, ageMicros, deadline, participants);
        return Transition.of(state, state.withRecord(next), new Reply.RecordSeen(next), nowMicros);
    }
}
