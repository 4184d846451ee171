package ballot.txn;

/**
 * What an {@link Operation} does to a partition's committed value: put a new value (null: the row is deleted or stays
 * absent), or refuse with a reason, which becomes the transaction's final outcome (docs/txn.md §3.3).
 */
public record Effect<V>(V value, String refusal) {
    public static <V> Effect<V> put(V value) {
        return new Effect<>(value, null);
    }

    public static <V> Effect<V> refuse(String reason) {
        if (reason == null || reason.isEmpty()) throw new IllegalArgumentException("a refusal needs a reason");
        return new Effect<>(null, reason);
    }

    public boolean refused() {
        return refusal != null;
    }
}
