package ballot.txn.step;

import ballot.txn.Attempt;
import ballot.txn.Decision;
import ballot.txn.Effect;
import ballot.txn.Intent;
import ballot.txn.Marker;
import ballot.txn.Operation;
import ballot.txn.PartitionKey;
import ballot.txn.PartitionState;
import ballot.txn.Reservation;
import ballot.txn.Transition;
import ballot.txn.step.Reply.Placement;
import ballot.txn.step.Reply.Placement.Outcome;
import java.util.List;

/**
 * Places an attempt's intent on a participant, evaluating its operation on the committed value in the same CAS
 * (docs/txn.md §3.3). Every answer that is not {@code PLACED}, {@code WAIT} or {@code SUPERSEDED} leaves the attempt
 * unable ever to be placed here (§8 I2): a marker written now, a marker already here, or time.
 *
 * @param decisions decisions about other transactions' intents the coordinator learned; applied first (§5)
 * @param reservationMicros how long a {@code WAIT} reserves the partition for this transaction (§5.1)
 */
public record Place<V>(Attempt attempt, PartitionKey home, long ageMicros, long deadlineMicros, Operation<V> operation,
        List<Decision> decisions, long reservationMicros) implements Step<V> {

    public Place {
        decisions = List.copyOf(decisions);
    }

    @Override
    public Transition<V> evaluate(PartitionState<V> state, long nowMicros) {
        PartitionState<V> s = Resolve.applyAll(state, decisions);
        Intent<V> own = s.intentOf(attempt.id());
        if (own != null) {
            if (own.attempt().epoch() == attempt.epoch())
                return Transition.of(state, s, new Placement<V>(Outcome.PLACED, s.value(), null, null, null), nowMicros);
            if (own.attempt().epoch() > attempt.epoch()) return Transition.of(state, s, Placement.of(Outcome.SUPERSEDED), nowMicros);
            s = s.withIntent(null); // an earlier epoch of ours: dead, since this epoch was sent (§3.2)
        }
        Marker marker = s.markers().get(attempt.id());
        if (marker != null && marker.epoch() > attempt.epoch())
            return Transition.of(state, s, Placement.of(Outcome.SUPERSEDED), nowMicros);
        if (marker != null && marker.epoch() == attempt.epoch()) {
            Placement<V> reply = marker.kind() == Marker.Kind.APPLIED ? Placement.of(Outcome.APPLIED)
                    : new Placement<>(Outcome.FENCED, null, null, marker.reason(), null);
            return Transition.of(state, s, reply, nowMicros);
        }
        if (nowMicros > deadlineMicros) return Transition.of(state, s, Placement.of(Outcome.EXPIRED), nowMicros);
        Intent<V> other = s.intent();
        Reservation reserved = s.reservationAt(nowMicros);
        if (other != null) {
            if (Intent.older(ageMicros, attempt.id(), other.ageMicros(), other.attempt().id()))
                return Transition.of(state, Waiting.reserve(s, attempt.id(), ageMicros, nowMicros, nowMicros + reservationMicros),
                        new Placement<>(Outcome.WAIT, null, other, null, null), nowMicros);
            return die(state, s, other, nowMicros);
        }
        if (reserved != null && reserved.before(ageMicros, attempt.id())) return die(state, s, null, nowMicros);
        PartitionState<V> unreserved = Waiting.unreserve(s, attempt.id());
        Effect<V> effect = operation.apply(s.value());
        if (effect.refused()) {
            PartitionState<V> fenced = unreserved.withMarker(attempt.id(),
                    new Marker(attempt.epoch(), Marker.Kind.FENCED, effect.refusal(), deadlineMicros));
            return Transition.of(state, fenced, new Placement<>(Outcome.REFUSED, s.value(), null, effect.refusal(), null), nowMicros);
        }
        PartitionState<V> locked = unreserved.withIntent(new Intent<>(attempt, home, ageMicros, deadlineMicros, effect.value()));
        return Transition.of(state, locked, new Placement<V>(Outcome.PLACED, s.value(), null, null, null), nowMicros);
    }

    /** Wait-die (§5): an older intent or reservation is here; this attempt is fenced here and must restart. */
    private Transition<V> die(PartitionState<V> state, PartitionState<V> s, Intent<V> blocker, long nowMicros) {
        PartitionState<V> fenced = s.withMarker(attempt.id(), new Marker(attempt.epoch(), Marker.Kind.FENCED, null, deadlineMicros));
        return Transition.of(state, fenced, new Placement<>(Outcome.DIED, null, blocker, null, null), nowMicros);
    }
}
