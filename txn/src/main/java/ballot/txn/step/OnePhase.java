package ballot.txn.step;

import ballot.txn.Attempt;
import ballot.txn.Decision;
import ballot.txn.Effect;
import ballot.txn.Intent;
import ballot.txn.Operation;
import ballot.txn.PartitionKey;
import ballot.txn.PartitionState;
import ballot.txn.Record;
import ballot.txn.Transition;
import ballot.txn.step.Reply.Placement;
import ballot.txn.step.Reply.Placement.Outcome;
import java.util.List;

/**
 * A transaction whose only participant is its home, decided by one CAS (1PC, docs/txn.md §3.8): the operation, the
 * write and the final record together. It holds no lock, so it waits for another transaction's intent instead of
 * dying, reserving the partition as a waiting placement does, and ignores other waiters' reservations (§5.1). The
 * record makes a retry idempotent: a decided or restarted transaction is answered with its record; the deadline
 * bounds when a late duplicate could still apply.
 */
public record OnePhase<V>(Attempt attempt, long ageMicros, long deadlineMicros, Operation<V> operation,
        List<Decision> decisions, List<PartitionKey> participants, long reservationMicros) implements Step<V> {

    public OnePhase {
        decisions = List.copyOf(decisions);
        participants = List.copyOf(participants);
    }

    @Override
    public Transition<V> evaluate(PartitionState<V> state, long nowMicros) {
        PartitionState<V> s = Resolve.applyAll(state, decisions);
        Record existing = s.record(attempt.id());
        boolean open = existing == null ? attempt.epoch() == 0
                : existing.status() == Record.Status.STAGING && existing.epoch() == attempt.epoch();
        if (!open) return Transition.of(state, s, new Reply.RecordSeen(existing), nowMicros);
        if (nowMicros > deadlineMicros) return Transition.of(state, s, Placement.of(Outcome.EXPIRED), nowMicros);
        Intent<V> other = s.intent();
        if (other != null)
            return Transition.of(state, Waiting.reserve(s, attempt.id(), ageMicros, nowMicros, nowMicros + reservationMicros),
                    new Placement<>(Outcome.WAIT, null, other, null, null), nowMicros);
        s = Waiting.unreserve(s, attempt.id()); // holding no lock, it need not yield to an older waiter (§5.1)
        Record staging = existing != null ? existing
                : Record.staging(attempt.id(), attempt.epoch(), ageMicros, deadlineMicros, participants);
        Effect<V> effect = operation.apply(s.value());
        Record decided = staging.finish(!effect.refused(), effect.refusal());
        PartitionState<V> next = (effect.refused() ? s : s.withValue(effect.value())).withRecord(decided);
        return Transition.of(state, next, new Placement<V>(Outcome.DECIDED, s.value(), null, null, decided), nowMicros);
    }
}
