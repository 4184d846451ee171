package ballot.cql.data;

import java.nio.ByteBuffer;

/**
 * One cell of a row: a simple column's value, or one element of a multi-cell column ({@code path} is then the
 * map key, set element, list element id or UDT field index). A tombstone has a null {@code value} and
 * {@code localDeletionTime} = when it was deleted; an expiring cell has {@code ttl > 0} and
 * {@code localDeletionTime} = its expiry. A counter cell's value is an 8-byte delta.
 *
 * <p>A set element's or map key's path is its canonical form, by which equal elements written differently (the
 * decimals 2.5 and 2.50) are one cell; {@code writtenPath} is the element as its write gave it when that differs from
 * the path, else null, so that the element reads back as written, as in Cassandra, whose cell keeps the bytes of the
 * write that won.
 */
public record Cell(int column, ByteBuffer path, ByteBuffer value, long timestamp, int ttl, int localDeletionTime, boolean counter,
        ByteBuffer writtenPath) {
    public static final int NO_DELETION_TIME = Integer.MAX_VALUE;

    /** A cell whose path, if any, is as written. */
    public Cell(int column, ByteBuffer path, ByteBuffer value, long timestamp, int ttl, int localDeletionTime, boolean counter) {
        this(column, path, value, timestamp, ttl, localDeletionTime, counter, null);
    }

    /** This cell, its element written as {@code written}: kept only in a live cell, and where its bytes differ from the path's. */
    public Cell writtenAs(ByteBuffer written) {
        ByteBuffer kept = value == null || written == null || written.equals(path) ? null : written;
        return new Cell(column, path, value, timestamp, ttl, localDeletionTime, counter, kept);
    }

    /** The element as its write gave it: what a read returns of a set element or map key. */
    public ByteBuffer pathAsWritten() {
        return writtenPath != null ? writtenPath : path;
    }

    /** This cell at another timestamp. */
    public Cell withTimestamp(long newTimestamp) {
        return new Cell(column, path, value, newTimestamp, ttl, localDeletionTime, counter, writtenPath);
    }

    public static Cell live(int column, ByteBuffer path, ByteBuffer value, long timestamp) {
        return new Cell(column, path, value, timestamp, 0, NO_DELETION_TIME, false);
    }

    public static Cell expiring(int column, ByteBuffer path, ByteBuffer value, long timestamp, int ttl, int nowInSec) {
        return new Cell(column, path, value, timestamp, ttl, LivenessInfo.expiry(nowInSec, ttl), false);
    }

    public static Cell tombstone(int column, ByteBuffer path, long timestamp, int nowInSec) {
        return new Cell(column, path, null, timestamp, 0, nowInSec, false);
    }

    /** An increment as a statement asks for it; the coordinator turns it into a {@link CounterContext} before storing. */
    public static Cell counterDelta(int column, long delta, long timestamp) {
        ByteBuffer value = ByteBuffer.allocate(8).putLong(0, delta);
        return new Cell(column, null, value, timestamp, 0, NO_DELETION_TIME, true);
    }

    /** A stored counter: its {@link CounterContext}. */
    public static Cell counter(int column, ByteBuffer context, long timestamp) {
        return new Cell(column, null, context, timestamp, 0, NO_DELETION_TIME, true);
    }

    /** True for an increment not yet applied to a counter (8-byte delta), false for a stored context. */
    public boolean isCounterDelta() {
        return counter && value != null && value.remaining() == 8;
    }

    public boolean isTombstone() {
        return value == null;
    }

    public boolean isExpiring() {
        return ttl > 0;
    }

    /** Live at {@code nowInSec}: not a tombstone and not expired. */
    public boolean isLive(int nowInSec) {
        return value != null && (ttl == 0 || nowInSec < localDeletionTime);
    }

    /** Dead at {@code nowInSec} and past gc_grace since its deletion or expiry: may be dropped. */
    public boolean purgeable(int nowInSec, int gcGraceSeconds) {
        return !isLive(nowInSec) && (long) localDeletionTime + gcGraceSeconds < nowInSec;
    }

    public boolean isComplex() {
        return path != null;
    }

    /** The delta of an increment, or the total of a stored counter. */
    public long counterValue() {
        return isCounterDelta() ? value.getLong(value.position()) : CounterContext.total(value);
    }

    /**
     * Cassandra's reconciliation of two versions of one cell (not counters): the higher timestamp wins; on a tie a
     * tombstone beats a live cell, then the cell that expires later, then the greater value (unsigned bytes), then the
     * greater element as written, so that every replica keeps the same bytes whatever order the versions came in.
     */
    public boolean supersedes(Cell other) {
        if (timestamp != other.timestamp) return timestamp > other.timestamp;
        if (isTombstone() != other.isTombstone()) return isTombstone();
        if (isTombstone()) return localDeletionTime > other.localDeletionTime;
        if (isExpiring() != other.isExpiring()) return isExpiring();
        if (localDeletionTime != other.localDeletionTime) return localDeletionTime > other.localDeletionTime;
        int byValue = unsignedCompare(value, other.value);
        if (byValue != 0 || path == null) return byValue > 0;
        return unsignedCompare(pathAsWritten(), other.pathAsWritten()) > 0;
    }

    /** Unsigned lexicographic order of the remaining bytes. */
    public static int unsignedCompare(ByteBuffer a, ByteBuffer b) {
        int n = Math.min(a.remaining(), b.remaining());
        for (int i = 0; i < n; i++) {
            int c = Integer.compare(a.get(a.position() + i) & 0xff, b.get(b.position() + i) & 0xff);
            if (c != 0) return c;
        }
        return Integer.compare(a.remaining(), b.remaining());
    }
}
