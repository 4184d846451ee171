package ballot.storage;

import ballot.cql.data.Row;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Rows (or static rows, or whole partitions) waiting for a sweep, in arrival order, each at most once. Reads ask for
 * one when they meet a fragmented row; writes ask for one when a row has been written often (counted approximately,
 * in a small array of counters indexed by the row's hash). Bounded: when full, requests are dropped (the periodic
 * sweep of the whole table catches those partitions later).
 */
final class SweepQueue {
    static final int CAPACITY = 10_000;
    /** Writes to one partition (approximately: one counter serves many partitions) before it is swept. */
    static final int WRITES_BEFORE_SWEEP = 16;
    private static final int COUNTERS = 1 << 16;

    /** What to sweep of a partition. */
    enum Scope { PARTITION, STATIC, ROW }

    /** A sweep to do; {@code row} is the encoded clustering for {@link Scope#ROW}, else empty. */
    record Request(UUID table, byte[] prefix, Scope scope, byte[] row) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Request r && r.table.equals(table) && r.scope == scope && Arrays.equals(r.prefix, prefix)
                    && Arrays.equals(r.row, row);
        }

        @Override
        public int hashCode() {
            return (table.hashCode() * 31 + Arrays.hashCode(prefix)) * 31 + Arrays.hashCode(row) + scope.ordinal();
        }
    }

    /**
     * A row a read has already merged: its fragment keys and the merge, to replace them with one fragment under the
     * newest key. {@code readNanos} orders it against full sweeps (a write-back read before a purge is dropped).
     */
    record WriteBack(UUID table, byte[] prefix, List<byte[]> keys, Row merged, long readNanos) {}

    private final ConcurrentLinkedQueue<WriteBack> writeBacks = new ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicInteger writeBackCount = new java.util.concurrent.atomic.AtomicInteger();
    private final Set<Request> pending = ConcurrentHashMap.newKeySet();
    private final ConcurrentLinkedQueue<Request> order = new ConcurrentLinkedQueue<>();
    private final AtomicIntegerArray writes = new AtomicIntegerArray(COUNTERS);

    void request(UUID table, byte[] prefix, Scope scope, byte[] row) {
        if (pending.size() >= CAPACITY) return;
        Request r = new Request(table, prefix.clone(), scope, row == null ? new byte[0] : row.clone());
        if (pending.add(r)) order.add(r);
    }

    /** Counts a write to a row (or the static row); every {@link #WRITES_BEFORE_SWEEP}th one asks for its sweep. */
    void written(UUID table, byte[] prefix, Scope scope, byte[] row) {
        int slot = Math.floorMod((table.hashCode() * 31 + Arrays.hashCode(prefix)) * 31 + Arrays.hashCode(row) + scope.ordinal(), COUNTERS);
        if (writes.incrementAndGet(slot) % WRITES_BEFORE_SWEEP == 0) request(table, prefix, scope, row);
    }

    void writeBack(UUID table, byte[] prefix, List<byte[]> keys, Row merged) {
        if (writeBackCount.get() >= CAPACITY) return;
        writeBackCount.incrementAndGet();
        writeBacks.add(new WriteBack(table, prefix, keys, merged, System.nanoTime()));
    }

    WriteBack pollWriteBack() {
        WriteBack w = writeBacks.poll();
        if (w != null) writeBackCount.decrementAndGet();
        return w;
    }

    /** Takes the oldest pending request, or null. */
    Request poll() {
        Request r = order.poll();
        if (r != null) pending.remove(r);
        return r;
    }
}
