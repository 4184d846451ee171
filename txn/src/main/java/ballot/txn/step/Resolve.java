package ballot.txn.step;

import ballot.txn.Decision;
import ballot.txn.Intent;
import ballot.txn.Marker;
import ballot.txn.PartitionState;
import ballot.txn.Transition;

/**
 * Rolls an attempt's intent forward or back once its record decided it (docs/txn.md §3.6, §6.1). Leaves a marker until
 * the attempt's deadline, so that a late placement of the same attempt cannot lock or apply again (§8 C2); time refuses
 * it after. Once a {@code Resolve} of a commit has answered, the partition holds no intent of the attempt and can never
 * hold one again (every placement of a committed attempt had landed, §8 C1): it is clear for the retention rule (§2).
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
        if (decision.committed()) {
            return released.withValue(intent.value())
                    .withMarker(intent.attempt().id(), new Marker(epoch, Marker.Kind.APPLIED, null, intent.deadlineMicros()));
        }
        return released.withMarker(intent.attempt().id(), new Marker(epoch, Marker.Kind.FENCED, null, intent.deadlineMicros()));
    }

    static <V> PartitionState<V> applyAll(PartitionState<V> state, Iterable<Decision> decisions) {
        PartitionState<V> next = state;
        for (Decision d : decisions) next = apply(next, d);
        return next;
    }
}
