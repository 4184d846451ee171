package ballot.txn;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A transaction's record on its home partition (docs/txn.md §1, §2). Invariant (§8 I1): it leaves {@code STAGING(e)}
 * once, to {@code COMMITTED(e)}, {@code ABORTED(e)} or {@code STAGING(e+1)}; a final record never changes.
 *
 * @param reason for {@code ABORTED}: the refusal that made it final, or null if the attempt was stopped (retryable)
 * @param participants the partitions recovery must inspect (empty for a record written by recovery without one)
 */
public record Record(TxnId id, int epoch, Status status, String reason, long ageMicros, long deadlineMicros,
        List<PartitionKey> participants) {

    public enum Status { STAGING, COMMITTED, ABORTED }

    public Record {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(status, "status");
        if (reason != null && status != Status.ABORTED) throw new IllegalStateException(status + " record with a reason");
        participants = List.copyOf(participants);
    }

    public static Record staging(TxnId id, int epoch, long ageMicros, long deadlineMicros, List<PartitionKey> participants) {
        return new Record(id, epoch, Status.STAGING, null, ageMicros, deadlineMicros, participants);
    }

    public Attempt attempt() {
        return new Attempt(id, epoch);
    }

    /** Committed, or aborted by a refusal: no epoch of this transaction will ever run again. */
    public boolean isFinal() {
        return status == Status.COMMITTED || (status == Status.ABORTED && reason != null);
    }

    /** Aborted without a refusal: the client's retry may run the next epoch (docs/txn.md §4.5). */
    public boolean retryable() {
        return status == Status.ABORTED && reason == null;
    }

    public Record finish(boolean commit, String abortReason) {
        if (status != Status.STAGING) throw new IllegalStateException("finishing " + this);
        return new Record(id, epoch, commit ? Status.COMMITTED : Status.ABORTED, commit ? null : abortReason, ageMicros,
                deadlineMicros, participants);
    }

    /**
     * What this record says about {@code epoch} (§6.1): committed if this is {@code COMMITTED(epoch)}; aborted if it
     * is {@code ABORTED(epoch)} or has moved past {@code epoch}; nothing while {@code epoch} is staging.
     */
    public Optional<Decision> decide(int epochAsked) {
        Attempt asked = new Attempt(id, epochAsked);
        if (epochAsked < epoch) return Optional.of(new Decision(asked, false));
        if (epochAsked > epoch) return Optional.empty();
        return switch (status) {
            case STAGING -> Optional.empty();
            case COMMITTED -> Optional.of(new Decision(asked, true));
            case ABORTED -> Optional.of(new Decision(asked, false));
        };
    }

    @Override
    public String toString() {
        return "Record{" + id + "@" + epoch + " " + status + (reason == null ? "" : "(" + reason + ")") + "}";
    }
}
