package ballot.txn.step;

import ballot.txn.Decision;
import ballot.txn.Intent;
import ballot.txn.Marker;
import ballot.txn.PartitionState;
import ballot.txn.Transition;

/**
 * Rolls an attempt's intent forward or back once its record decided it (docs/txn.md §3.6, §6.1). Leaves a marker, so
 * that a late placement of the same attempt cannot lock or apply again (§8 C2).
 *
 * <p>{@code early}: the commit is known before the record says so (every intent placed while the record was staging,
 * §4.3, §8 C1), so the intent is rolled forward while the record may still be staging. Its {@code APPLIED} marker then
 * never expires by time: it stands for the intent in recovery's {@link Fence} until the record is final and the
 * retention rule's {@link Forget} drops it (§8 I3).
 */
public record Resolve<V>(Decision decision, boolean early) implements Step<V> {
    public Resolve {
        if (early && !decision.committed()) throw new IllegalArgumentException("only a commit is resolved before its record says so");
    }

    public Resolve(Decision decision) {
        this(decision, false);
    }

    @Override
    public Transition<V> evaluate(PartitionState<V> state, long nowMicros) {
        PartitionState<V> next = apply(state, decision, early);
        return Transition.of(state, next, new Reply.Resolved(next != state), nowMicros);
    }

    /** The state after {@code decision}; the same instance if its attempt holds no intent here. */
    static <V> PartitionState<V> apply(PartitionState<V> state, Decision decision) {
        return apply(state, decision, false);
    }

    private static <V> PartitionState<V> apply(PartitionState<V> state, Decision decision, boolean early) {
        Intent<V> intent = state.intent();
        if (intent == null || !intent.attempt().equals(decision.attempt())) return state;
        int epoch = intent.attempt().epoch();
        PartitionState<V> released = state.withIntent(null);
        if (decision.committed()) {
            long markerDeadline = early ? Long.MAX_VALUE : intent.deadlineMicros();
            return released.withValue(intent.value())
                    .withMarker(intent.attempt().id(), new Marker(epoch, Marker.Kind.APPLIED, null, markerDeadline));
        }
        return released.withMarker(intent.attempt().id(), new Marker(epoch, Marker.Kind.FENCED, null, intent.deadlineMicros()));
    }

    static <V> PartitionState<V> applyAll(PartitionState<V> state, Iterable<Decision> decisions) {
        PartitionState<V> next = state;
        for (Decision d : decisions) next = apply(next, d);
        return next;
    }
}
