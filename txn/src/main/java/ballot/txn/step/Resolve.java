package ballot.txn.step;

import ballot.txn.Decision;
import ballot.txn.Intent;
import ballot.txn.Marker;
import ballot.txn.PartitionState;
import ballot.txn.Transition;

/**
 * Rolls an attempt's intent forward or back once its record decided it (docs/txn.md §3.6, §6.1). Leaves a marker, so
 * that a late placement of the same attempt cannot lock or apply again (§8 C2).
 */
public record Resolve<V>(Decision decision) implements Step<V> {
    @Override
    public Transition<V> evaluate(PartitionState<V> state, long nowMicros) {
        PartitionState<V> next = apply(state, decision);
        return Transition.of(state, next, new Reply.Resolved(next != state), nowMicros);
    }

    /** The state after {@code decision}; the same instance if its attempt holds no intent here. */
    static <V> PartitionState<V> apply(PartitionState<V> state, Decision decision) {
        Intent<V> intent = state.intent();
        if (intent == null || !intent.attempt().equals(decision.attempt())) return state;
        int epoch = intent.attempt().epoch();
        PartitionState<V> released = state.withIntent(null);
        if (decision.committed())
            return released.withValue(intent.value())
                    .withMarker(intent.attempt().id(), new Marker(epoch, Marker.Kind.APPLIED, null, intent.deadlineMicros()));
        return released.withMarker(intent.attempt().id(), new Marker(epoch, Marker.Kind.FENCED, null, intent.deadlineMicros()));
    }

    static <V> PartitionState<V> applyAll(PartitionState<V> state, Iterable<Decision> decisions) {
        PartitionState<V> next = state;
        for (Decision d : decisions) next = apply(next, d);
        return next;
    }
}
