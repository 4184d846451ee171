package ballot.txn;

import java.util.Objects;

/**
 * The lock an attempt holds on one participant, with the value the partition takes if the attempt commits
 * (docs/txn.md §2). At most one per partition; it stays until its attempt is decided (§8 I3).
 */
public record Intent<V>(Attempt attempt, PartitionKey home, long ageMicros, long deadlineMicros, V value) {
    public Intent {
        Objects.requireNonNull(attempt, "attempt");
        Objects.requireNonNull(home, "home");
    }

    /** Wait-die priority (§5): the earlier age wins, then the smaller id. */
    public static boolean older(long ageMicros, TxnId id, long otherAgeMicros, TxnId otherId) {
        return ageMicros != otherAgeMicros ? ageMicros < otherAgeMicros : id.compareTo(otherId) < 0;
    }
}
