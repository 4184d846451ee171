package ballot.txn;

import java.util.Objects;

/** One partition a transaction reads or writes, and its operation there. */
public record Participant<V>(PartitionKey key, Operation<V> operation) {
    public Participant {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(operation, "operation");
    }
}
