package ballot.txn.step;

import ballot.txn.Attempt;
import ballot.txn.Intent;
import ballot.txn.Marker;
import ballot.txn.PartitionState;
import ballot.txn.Transition;

/**
 * Recovery's probe of one participant (docs/txn.md §3.4): is the attempt's intent here? If not, make sure it never
 * will be, so that the attempt can be aborted (§8 I2). An applied intent counts as present.
 */
public record Fence<V>(Attempt attempt, long deadlineMicros) implements Step<V> {
    @Override
    public Transition<V> evaluate(PartitionState<V> state, long nowMicros) {
        Intent<V> own = state.intentOf(attempt.id());
        if (own != null && own.attempt().epoch() == attempt.epoch()) return present(state, nowMicros);
        Marker marker = state.markers().get(attempt.id());
        if (marker != null && marker.epoch() == attempt.epoch() && marker.kind() == Marker.Kind.APPLIED)
            return present(state, nowMicros);
        boolean impossible = (own != null && own.attempt().epoch() > attempt.epoch())
                || (marker != null && marker.epoch() >= attempt.epoch())
                || nowMicros > deadlineMicros;
        if (impossible) return Transition.of(state, state, new Reply.Presence(false), nowMicros);
        PartitionState<V> fenced = state.withMarker(attempt.id(),
                new Marker(attempt.epoch(), Marker.Kind.FENCED, null, deadlineMicros));
        return Transition.of(state, fenced, new Reply.Presence(false), nowMicros);
    }

    private static <V> Transition<V> present(PartitionState<V> state, long nowMicros) {
        return Transition.of(state, state, new Reply.Presence(true), nowMicros);
    }
}
