package ballot.txn;

import ballot.txn.step.Reply;
import java.util.Objects;

/**
 * The result of one step on one partition: the state to store if {@code changed}, and the reply for the coordinator.
 * The CAS that runs the step stores {@code next} atomically with having read the state it was evaluated on.
 */
public record Transition<V>(PartitionState<V> next, Reply reply, boolean changed) {
    public Transition {
        Objects.requireNonNull(next, "next");
        Objects.requireNonNull(reply, "reply");
    }

    /**
     * From {@code before} to {@code after}: unchanged if equal; otherwise expired markers and reservations are dropped
     * on the way (they are collected only by steps that write anyway, so a read stays a read).
     */
    public static <V> Transition<V> of(PartitionState<V> before, PartitionState<V> after, Reply reply, long nowMicros) {
        if (after.equals(before)) return new Transition<>(before, reply, false);
        return new Transition<>(after.withoutExpired(nowMicros), reply, true);
    }
}
