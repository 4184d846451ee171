package ballot.txn;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The answer to one submission (docs/txn.md §4, §8 "outcomes are true").
 *
 * @param reason for {@code ABORTED}: the refusal recorded in the final record
 * @param reads for {@code COMMITTED} when this coordinator placed the committing epoch: the value each participant
 *     held when it was locked (a snapshot at the commit point, §10); empty when the commit was found in the record.
 *     For {@code ABORTED} by a refusal this coordinator saw: the values its placements of that epoch read before the
 *     refusal, each when it was evaluated, and the value the refusing operation refused (not a snapshot: each was
 *     true at some moment of the transaction); empty when the abort was found in the record
 */
public record TxnResult<V>(Outcome outcome, String reason, Map<PartitionKey, V> reads) {
    public enum Outcome {
        /** Committed: every write takes effect, once. */
        COMMITTED,
        /** Aborted by an operation's refusal, final for this transaction id: nothing takes effect. */
        ABORTED,
        /** Undecided at the deadline: it may take effect or not; a retry with the same id finds out. */
        UNKNOWN
    }

    public TxnResult {
        Objects.requireNonNull(outcome, "outcome");
        reads = Collections.unmodifiableMap(new LinkedHashMap<>(reads));
    }

    public static <V> TxnResult<V> committed(Map<PartitionKey, V> reads) {
        return new TxnResult<>(Outcome.COMMITTED, null, reads);
    }

    public static <V> TxnResult<V> aborted(String reason) {
        return aborted(reason, Map.of());
    }

    public static <V> TxnResult<V> aborted(String reason, Map<PartitionKey, V> reads) {
        return new TxnResult<>(Outcome.ABORTED, Objects.requireNonNull(reason, "reason"), reads);
    }

    public static <V> TxnResult<V> unknown() {
        return new TxnResult<>(Outcome.UNKNOWN, null, Map.of());
    }
}
