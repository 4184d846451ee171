package ballot.txn;

import java.util.Objects;
import java.util.UUID;

/**
 * A transaction's identity, chosen by its client so that a retry names the same transaction (docs/txn.md §1). The
 * order breaks ties between transactions of equal age (§5).
 */
public record TxnId(UUID uuid) implements Comparable<TxnId> {
    public TxnId {
        Objects.requireNonNull(uuid, "uuid");
    }

    public static TxnId of(long mostSignificant, long leastSignificant) {
        return new TxnId(new UUID(mostSignificant, leastSignificant));
    }

    @Override
    public int compareTo(TxnId other) {
        return uuid.compareTo(other.uuid);
    }

    @Override
    public String toString() {
        return uuid.toString().substring(0, 8) + "…" + uuid.toString().substring(32);
    }
}
