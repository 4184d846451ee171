package ballot.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.rocksdb.BackgroundErrorReason;
import org.rocksdb.RocksDB;
import org.rocksdb.Status;

/** When the node deems a background error one RocksDB will not recover from by itself (it then stops; see DiskFullIT). */
class BackgroundErrorsTest {
    private static final long GRACE = TimeUnit.SECONDS.toNanos(5);
    private static final long RECOVERY = TimeUnit.SECONDS.toNanos(30);
    private static final Status NO_SPACE = new Status(Status.Code.IOError, Status.SubCode.NoSpace, "While appending to file: 000015.sst: No space left on device");
    private static final Status CANNOT_OPEN = new Status(Status.Code.IOError, Status.SubCode.None, "While open a file for appending: 000020.sst: Too many open files");

    static {
        RocksDB.loadLibrary(); // the listener is a native object
    }

    private final BackgroundErrors errors = new BackgroundErrors();

    @Test
    void anErrorOtherThanAFullDiskIsUnrecoverableAfterTheGrace() {
        errors.onBackgroundError(BackgroundErrorReason.FLUSH, CANNOT_OPEN);
        long now = System.nanoTime();
        assertThat(errors.unrecoverable(now, GRACE, true, RECOVERY)).isNull();
        assertThat(errors.unrecoverable(now + GRACE, GRACE, true, RECOVERY)).contains("Too many open files");
    }

    @Test
    void aRefusedWriteReportsAnErrorTheListenerNeverSaw() {
        errors.refused(CANNOT_OPEN);
        assertThat(errors.pending()).contains("Too many open files");
        assertThat(errors.count()).isEqualTo(1);
        assertThat(errors.logFailed()).isFalse();
    }

    @Test
    void aRefusalThatIsNoIoErrorIsNoBackgroundError() {
        errors.refused(new Status(Status.Code.Busy, Status.SubCode.None, "busy"));
        assertThat(errors.pending()).isNull();
    }

    @Test
    void aFullDiskStaysRecoverableWhileThereIsNoRoom() {
        errors.onBackgroundError(BackgroundErrorReason.WRITE_CALLBACK, NO_SPACE);
        errors.refused(NO_SPACE);
        long now = System.nanoTime();
        assertThat(errors.logFailed()).isTrue();
        assertThat(errors.unrecoverable(now + 10 * RECOVERY, GRACE, false, RECOVERY)).isNull();
    }

    @Test
    void aFullDiskThatStopsWritesIsUnrecoverableOnceRoomHasNotHelpedForTheRecoveryTime() {
        errors.refused(NO_SPACE); // a flush that filled the disk: the listener's callback threw
        long now = System.nanoTime();
        assertThat(errors.unrecoverable(now, GRACE, true, RECOVERY)).isNull();
        assertThat(errors.unrecoverable(now + RECOVERY / 2, GRACE, false, RECOVERY)).as("room went again").isNull();
        assertThat(errors.unrecoverable(now + RECOVERY, GRACE, true, RECOVERY)).isNull();
        assertThat(errors.unrecoverable(now + 2 * RECOVERY, GRACE, true, RECOVERY)).contains("No space left on device");
    }

    @Test
    void aFullDiskThatLetsWritesOnIsNeverDeemedUnrecoverable() {
        errors.onBackgroundError(BackgroundErrorReason.COMPACTION, NO_SPACE); // a soft error: writes go on
        long now = System.nanoTime();
        assertThat(errors.unrecoverable(now, GRACE, true, RECOVERY)).isNull();
        assertThat(errors.unrecoverable(now + 10 * RECOVERY, GRACE, true, RECOVERY)).isNull();
    }

    @Test
    void recoveryClearsTheError() {
        errors.onBackgroundError(BackgroundErrorReason.WRITE_CALLBACK, NO_SPACE);
        errors.refused(NO_SPACE);
        errors.onErrorRecoveryCompleted(NO_SPACE);
        assertThat(errors.pending()).isNull();
        assertThat(errors.logFailed()).isFalse();
        assertThat(errors.unrecoverable(System.nanoTime() + 10 * RECOVERY, GRACE, true, RECOVERY)).isNull();
    }
}
