package ballot.txn.spi;

import ballot.txn.PartitionKey;
import ballot.txn.step.Reply;
import ballot.txn.step.Step;
import java.util.function.Consumer;

/**
 * The one primitive the storage offers (docs/txn.md §11): a linearizable compare-and-set of one partition. The server
 * implements it over its Paxos LWT; the simulation over in-memory registers.
 */
public interface PartitionCas<V> {
    /**
     * Evaluates {@code step} atomically on {@code key}'s current state (an empty {@code PartitionState} with the
     * partition's value if it holds no protocol state) at the CAS's write timestamp, which must be monotonic per
     * partition, and stores the transition's {@code next} if it {@code changed}.
     *
     * <p>{@code reply} is called exactly once, later (never from inside this call), on the thread that drives the
     * coordinator: with the transition's reply, or with {@link Reply#UNKNOWN} if the outcome is unknown, in which case
     * the step may have taken effect or may still take effect later. A step may be evaluated more than once.
     */
    void apply(PartitionKey key, Step<V> step, Consumer<Reply> reply);
}
