package ballot.storage;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.rocksdb.ColumnFamilyHandle;

/**
 * A table's or an index's column family handle, shared by the reads, scans, sweeps and builds that use it while a DROP
 * may run. A RocksDB call on a closed handle dereferences freed native memory (the JVM dies), so a dropped family's
 * handle is closed by whoever lets go of it last: the drop, or the last call that still holds it. A call that comes
 * after the drop cannot hold it and fails instead. Writes under the engine's install lock need no hold: a drop waits
 * for them, and later ones no longer find the table.
 */
final class SharedFamily {
    /** A hold on the handle, closed by the thread that took it; closing it again releases nothing. One object per read. */
    final class Held implements AutoCloseable {
        private boolean released;

        private Held() {}

        @Override
        public void close() {
            if (released) return;
            released = true;
            release();
        }
    }

    private final ColumnFamilyHandle handle;
    /** The engine's own hold until {@link #retire}, plus one per call in progress; once 0 the handle is closed for good. */
    private final AtomicInteger holds = new AtomicInteger(1);
    private final AtomicBoolean retired = new AtomicBoolean();

    SharedFamily(ColumnFamilyHandle handle) {
        this.handle = handle;
    }

    /** The handle: only for a caller that holds it, or that a drop waits for. */
    ColumnFamilyHandle handle() {
        return handle;
    }

    /**
     * Holds the handle open until the hold is closed, or fails if the family was dropped ({@code what} names it in the
     * error, e.g. "table ks.t").
     */
    Held hold(String what) {
        Held held = tryHold();
        if (held == null) throw new IllegalStateException("no storage for " + what + " (dropped?)");
        return held;
    }

    /** Holds the handle open until the hold is closed; null if the family was dropped. */
    Held tryHold() {
        for (int n = holds.get(); ; n = holds.get()) {
            if (n <= 0 || retired.get()) return null; // below 0: a hold released after closeNow
            if (holds.compareAndSet(n, n + 1)) return new Held();
        }
    }

    /** The family was dropped: its handle closes now, or when the last hold on it ends. Once only. */
    void retire() {
        if (retired.compareAndSet(false, true)) release();
    }

    boolean retired() {
        return retired.get();
    }

    /** Closes the handle whoever holds it: only when the engine closes, after its calls have stopped. */
    void closeNow() {
        if (holds.getAndSet(0) > 0) handle.close();
    }

    private void release() {
        if (holds.decrementAndGet() == 0) handle.close();
    }
}
