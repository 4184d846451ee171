package ballot.storage;

import java.util.concurrent.atomic.AtomicLong;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.BackgroundErrorReason;
import org.rocksdb.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RocksDB's background errors (a full disk, too many open files, an IO error during a flush, a compaction or a log
 * write), as the node reports them. A hard one stops every write until RocksDB recovers; with the
 * {@code SstFileManager} the engine installs, it recovers by itself from a full disk once space is freed, and
 * {@link #onErrorRecoveryCompleted} clears the error. From the others (a file it could not open, say) RocksDB does
 * not recover without {@code DB::Resume}, which RocksJava lacks: those are {@link #unrecoverable}, and only a restart
 * of the node brings writes back.
 *
 * <p>RocksJava's {@link BackgroundErrorReason} knows four of RocksDB's seven reasons: for a failed MANIFEST write or a
 * failed flush with an empty log, its callback throws before it reaches this listener. So an error is also learnt
 * from the write it makes RocksDB refuse ({@link #refused}), and the recovery-begin callback is not asked for: its
 * throwing cancels RocksDB's recovery (a flush that filled the disk then stopped writes for good).
 */
final class BackgroundErrors extends AbstractEventListener {
    private static final Logger log = LoggerFactory.getLogger(BackgroundErrors.class);

    private final AtomicLong count = new AtomicLong();
    /** The error not yet recovered from, or null. */
    private volatile String pending;
    /** When {@link #pending} was first reported (System.nanoTime). */
    private volatile long pendingSinceNanos;
    /** Whether RocksDB recovers from {@link #pending} by itself once space is freed: a full disk. */
    private volatile boolean recoverable;
    /** Whether {@link #pending} came from a failed log write: until it is recovered from, a log sync must not run. */
    private volatile boolean logFailed;
    /** Whether a write has been refused since {@link #pending} was reported: it stops writes (a soft one does not). */
    private volatile boolean writesStopped;
    /** Since when (System.nanoTime) there has been room enough to recover from {@link #pending}, or 0. */
    private long roomSinceNanos;

    BackgroundErrors() {
        super(EnabledEventCallback.ON_BACKGROUND_ERROR, EnabledEventCallback.ON_ERROR_RECOVERY_COMPLETED);
    }

    @Override
    public void onBackgroundError(BackgroundErrorReason reason, Status status) {
        count.incrementAndGet();
        report(status, "during " + reason.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '),
                reason == BackgroundErrorReason.WRITE_CALLBACK || reason == BackgroundErrorReason.MEMTABLE);
    }

    /** A write RocksDB refused with {@code status}: an IO error there is the background error that stops writes. */
    void refused(Status status) {
        if (status == null || status.getCode() != Status.Code.IOError) return;
        if (pending == null) count.incrementAndGet(); // not reported to the listener (see the class comment)
        report(status, "a write was refused", false);
        writesStopped = true;
    }

    private synchronized void report(Status status, String how, boolean fromLog) {
        String error = describe(status);
        if (fromLog) logFailed = true;
        if (error.equals(pending)) return;
        log.error("storage background error: {} ({}); writes may fail until it is recovered from (a full disk recovers "
                + "by itself once space is freed)", error, how);
        // A new error: RocksDB may not recover from it though it was recovering from the last.
        pendingSinceNanos = System.nanoTime();
        roomSinceNanos = 0;
        writesStopped = false;
        recoverable = status != null && status.getSubCode() == Status.SubCode.NoSpace;
        pending = error;
    }

    @Override
    public synchronized void onErrorRecoveryCompleted(Status previous) {
        log.warn("storage recovered from background error: {}", previous == null ? pending : describe(previous));
        pending = null;
        recoverable = false;
        logFailed = false;
        writesStopped = false;
        roomSinceNanos = 0;
    }

    /**
     * The pending error if RocksDB will not recover from it by itself, else null: one it does not recover from
     * ({@code graceNanos} after it was reported), or a full disk that stops writes and has not been recovered from
     * though there has been room ({@code hasRoom}) for {@code recoveryNanos} (its recovery retries every 5 s; some
     * full-disk errors, a log it could not create, are fatal all the same).
     */
    synchronized String unrecoverable(long nowNanos, long graceNanos, boolean hasRoom, long recoveryNanos) {
        String error = pending;
        if (error == null) return null;
        if (!recoverable) return nowNanos - pendingSinceNanos >= graceNanos ? error : null;
        if (!hasRoom || !writesStopped) {
            roomSinceNanos = 0;
            return null;
        }
        if (roomSinceNanos == 0) roomSinceNanos = nowNanos;
        return nowNanos - roomSinceNanos >= recoveryNanos ? error : null;
    }

    long count() {
        return count.get();
    }

    /** The background error not yet recovered from, or null. */
    String pending() {
        return pending;
    }

    /** Whether a failed log write is not yet recovered from: a log sync would turn it into one never recovered from. */
    boolean logFailed() {
        return logFailed;
    }

    private static String describe(Status status) {
        if (status == null) return "unknown error";
        String state = status.getState();
        return state == null || state.isEmpty() ? status.getCodeString() : status.getCodeString() + ": " + state;
    }
}
