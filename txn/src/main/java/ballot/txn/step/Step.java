package ballot.txn.step;

import ballot.txn.PartitionState;
import ballot.txn.Transition;

/**
 * One compare-and-set on one partition (docs/txn.md §3): the pure function the CAS evaluates on the partition's
 * current state at partition time {@code nowMicros} (the CAS's write timestamp, monotonic per partition). Every step
 * is idempotent by attempt and deterministic, so a CAS may evaluate it more than once.
 */
public sealed interface Step<V> permits Stage, Restart, Place, Fence, Finalize, Resolve, ReadRecord, Inspect, OnePhase,
        Forget, DropRecord {
    Transition<V> evaluate(PartitionState<V> state, long nowMicros);
}
