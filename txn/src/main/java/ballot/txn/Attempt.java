package ballot.txn;

import java.util.Objects;

/** One attempt at a transaction: its id and epoch (docs/txn.md §1). Intents, markers and fences name attempts. */
public record Attempt(TxnId id, int epoch) {
    public Attempt {
        Objects.requireNonNull(id, "id");
        if (epoch < 0) throw new IllegalArgumentException("epoch " + epoch + " is negative");
    }

    @Override
    public String toString() {
        return id + "@" + epoch;
    }
}
