package ballot.cql.data;

/**
 * The primary-key liveness of a row, written by INSERT: the row exists (even with all regular columns null) while
 * this is live. {@code ttl} is 0 for no TTL; with a TTL, {@code localExpirationTime} is when it expires (seconds).
 */
public record LivenessInfo(long timestamp, int ttl, int localExpirationTime) {
    public static final LivenessInfo EMPTY = new LivenessInfo(Long.MIN_VALUE, 0, Integer.MAX_VALUE);

    public static LivenessInfo of(long timestamp, int ttl, int nowInSec) {
        return ttl == 0 ? new LivenessInfo(timestamp, 0, Integer.MAX_VALUE) : new LivenessInfo(timestamp, ttl, expiry(nowInSec, ttl));
    }

    public boolean isEmpty() {
        return timestamp == Long.MIN_VALUE;
    }

    public boolean isExpiring() {
        return ttl > 0;
    }

    public boolean isLive(int nowInSec) {
        return !isEmpty() && (ttl == 0 || nowInSec < localExpirationTime);
    }

    /** Cassandra's reconciliation: higher timestamp; then the one that expires later (non-expiring counts as later). */
    public boolean supersedes(LivenessInfo other) {
        if (timestamp != other.timestamp) return timestamp > other.timestamp;
        return Integer.compareUnsigned(localExpirationTime, other.localExpirationTime) > 0;
    }

    /** Seconds-since-epoch expiry of something written at {@code nowInSec} with {@code ttl}, capped like Cassandra's. */
    public static int expiry(int nowInSec, int ttl) {
        long expiry = (long) nowInSec + ttl;
        return expiry > Integer.MAX_VALUE - 1 ? Integer.MAX_VALUE - 1 : (int) expiry;
    }
}
