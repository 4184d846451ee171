package ballot.txn;

/**
 * A participant's part of a transaction: a pure, deterministic function of the partition's committed value (null =
 * absent), evaluated atomically with placing the intent, so a condition ({@code balance >= amount}) and the write it
 * guards see the same value (docs/txn.md §3.3). It may run more than once for one attempt and must then agree.
 */
@FunctionalInterface
public interface Operation<V> {
    Effect<V> apply(V current);

    /** A read-only participant: locks, reads, writes nothing. */
    static <V> Operation<V> read() {
        return Effect::put;
    }
}
