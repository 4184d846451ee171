package ballot.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

/** When a shared column family's handle closes: after its drop, once the last hold ends, and never twice. */
class SharedFamilyTest {
    @TempDir
    Path directory;
    private Options options;
    private RocksDB db;
    private ColumnFamilyHandle handle;
    private SharedFamily family;

    @BeforeEach
    void open() throws Exception {
        RocksDB.loadLibrary();
        options = new Options().setCreateIfMissing(true);
        db = RocksDB.open(options, directory.toString());
        handle = db.createColumnFamily(new ColumnFamilyDescriptor("t".getBytes()));
        family = new SharedFamily(handle);
    }

    @AfterEach
    void close() {
        family.closeNow();
        db.close();
        options.close();
    }

    @Test
    void aRetiredFamilyClosesWhenItsLastHoldEndsAndRefusesNewHolds() {
        SharedFamily.Held first = family.hold("table t");
        SharedFamily.Held second = family.hold("table t");
        family.retire();
        assertThat(handle.isOwningHandle()).as("held twice").isTrue();
        assertThat(family.tryHold()).isNull();
        assertThatThrownBy(() -> family.hold("table t")).hasMessage("no storage for table t (dropped?)");
        first.close();
        first.close(); // a second close releases nothing
        assertThat(handle.isOwningHandle()).as("still held once").isTrue();
        second.close();
        assertThat(handle.isOwningHandle()).isFalse();
    }

    @Test
    void aFamilyRetiredWithoutHoldsClosesAtOnceAndOnce() {
        family.retire();
        family.retire();
        assertThat(handle.isOwningHandle()).isFalse();
        assertThat(family.tryHold()).isNull();
    }

    @Test
    void aHoldThatEndsAfterTheEngineClosedTheHandleNeitherReopensNorClosesItAgain() {
        SharedFamily.Held late = family.hold("table t");
        family.closeNow();
        assertThat(handle.isOwningHandle()).isFalse();
        late.close();
        assertThat(family.tryHold()).as("no hold on a closed handle").isNull();
    }
}
