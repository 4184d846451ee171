package ballot.cql.data;

/**
 * When something was deleted: {@code markedAt} is the write timestamp (micros) of the deletion, which shadows
 * everything written at or before it; {@code localDeletionTime} (seconds since epoch) is when the node learnt of
 * it and starts the gc_grace clock.
 */
public record DeletionTime(long markedAt, int localDeletionTime) {
    public static final DeletionTime LIVE = new DeletionTime(Long.MIN_VALUE, Integer.MAX_VALUE);

    public boolean isLive() {
        return markedAt == Long.MIN_VALUE;
    }

    /** True if data written at {@code timestamp} is shadowed by this deletion. */
    public boolean deletes(long timestamp) {
        return timestamp <= markedAt;
    }

    public boolean supersedes(DeletionTime other) {
        return markedAt > other.markedAt || (markedAt == other.markedAt && localDeletionTime > other.localDeletionTime);
    }

    public DeletionTime max(DeletionTime other) {
        return other.supersedes(this) ? other : this;
    }

    /** True once gc_grace has passed since the deletion, so it may be dropped together with what it shadows. */
    public boolean purgeable(int nowInSec, int gcGraceSeconds) {
        return !isLive() && (long) localDeletionTime + gcGraceSeconds < nowInSec;
    }
}
