package ballot.storage;

import java.util.concurrent.atomic.AtomicLong;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.BackgroundErrorReason;
import org.rocksdb.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RocksDB's background errors (a full disk, too many open files, an IO error during a flush, a compaction or a WAL
 * write), as the node reports them. A hard one stops every write until RocksDB recovers; with the
 * {@code SstFileManager} the engine installs, it recovers by itself from a full disk once space is freed, and
 * {@link #onErrorRecoveryCompleted} clears the error. From the others (a file it could not open, say) RocksDB does
 * not recover without {@code DB::Resume}, which RocksJava lacks: those are {@link #unrecoverable}, and only a restart
 * of the node brings writes back. Called on RocksDB's background threads.
 */
final class BackgroundErrors extends AbstractEventListener {
    private static final Logger log = LoggerFactory.getLogger(BackgroundErrors.class);

    private final AtomicLong count = new AtomicLong();
    /** The error not yet recovered from, or null. */
    private volatile String pending;
    /** When {@link #pending} was first reported (System.nanoTime). */
    private volatile long pendingSinceNanos;
    /** Whether RocksDB recovers from {@link #pending} by itself: a full disk, or a recovery it has begun. */
    private volatile boolean recoverable;

    BackgroundErrors() {
        super(EnabledEventCallback.ON_BACKGROUND_ERROR, EnabledEventCallback.ON_ERROR_RECOVERY_BEGIN,
                EnabledEventCallback.ON_ERROR_RECOVERY_COMPLETED);
    }

    @Override
    public void onBackgroundError(BackgroundErrorReason reason, Status status) {
        count.incrementAndGet();
        String error = describe(status) + " (during " + reason.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + ")";
        if (!error.equals(pending))
            log.error("storage background error: {}; writes may fail until it is recovered from (a full disk recovers "
                    + "by itself once space is freed)", error);
        if (!error.equals(pending)) { // a new error: RocksDB may not recover from it though it was recovering from the last
            pendingSinceNanos = System.nanoTime();
            recoverable = status != null && status.getSubCode() == Status.SubCode.NoSpace;
        }
        pending = error;
    }

    @Override
    public boolean onErrorRecoveryBegin(BackgroundErrorReason reason, Status status) {
        recoverable = true;
        return true; // let RocksDB recover
    }

    @Override
    public void onErrorRecoveryCompleted(Status previous) {
        log.warn("storage recovered from background error: {}", previous == null ? pending : describe(previous));
        pending = null;
        recoverable = false;
    }

    /**
     * The pending error if RocksDB has not begun to recover from it, and will not by itself, {@code graceNanos} after
     * it was reported; else null.
     */
    String unrecoverable(long nowNanos, long graceNanos) {
        String error = pending;
        return error != null && !recoverable && nowNanos - pendingSinceNanos >= graceNanos ? error : null;
    }

    long count() {
        return count.get();
    }

    /** The background error not yet recovered from, or null. */
    String pending() {
        return pending;
    }

    private static String describe(Status status) {
        if (status == null) return "unknown error";
        String state = status.getState();
        return state == null || state.isEmpty() ? status.getCodeString() : status.getCodeString() + ": " + state;
    }
}
