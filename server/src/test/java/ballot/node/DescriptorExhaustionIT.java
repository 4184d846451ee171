package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A node that runs out of file descriptors just as its storage needs a new file (issue 11, wedge 2): its open-files
 * limit is lowered (prlimit) to what it has open while 1 MiB writes fill its memtable, so that RocksDB cannot open
 * the next write-ahead log. RocksDB does not recover from that by itself (and RocksJava has no DB::Resume): the node
 * used to go on serving reads and failing every write for ever, though descriptors were free again. Now the process
 * ends itself (exit code 3) with the cause, and once restarted it takes writes, with every acknowledged row there.
 */
class DescriptorExhaustionIT {
    private Path directory;
    private NodeProcess node;

    @BeforeEach
    void createDirectory() throws Exception {
        directory = Files.createTempDirectory("ballot-descriptors");
    }

    @AfterEach
    void cleanUp() throws Exception {
        if (node != null) node.close();
        NodeProcess.delete(directory);
    }

    @Test
    void aNodeWhoseStorageCannotOpenFilesStopsAndARestartRecoversEveryAcknowledgedWrite() throws Exception {
        node = new NodeProcess(directory, "127.0.0.1", NodeProcess.freePort(), NodeProcess.freePort(), List.of()).start();
        List<Integer> acknowledged = new ArrayList<>();
        try (CqlSession session = node.session()) {
            session.execute("CREATE KEYSPACE kd WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute("CREATE TABLE kd.t (k int PRIMARY KEY, v blob)");
            PreparedStatement insert = session.prepare("INSERT INTO kd.t (k, v) VALUES (?, ?)");
            String limit = node.exhaustFileDescriptors();
            int failed = 0;
            for (int k = 0; k < 100 && failed == 0; k++) { // 100 MiB: past the 32 MiB memtable, so a new log is needed
                try {
                    session.execute(insert.bind(k, ByteBuffer.allocate(1 << 20)));
                    acknowledged.add(k);
                } catch (DriverException e) {
                    failed++;
                }
            }
            assertThat(failed).as("a write fails once storage cannot open its next file").isPositive();
            node.openFilesLimit(limit);
        }
        assertThat(node.awaitExit(Duration.ofSeconds(60))).as("the node's exit code, once it has stopped by itself").isEqualTo(3);
        assertThat(Files.readString(node.log())).contains("Too many open files").contains("until the node restarts");

        node.start();
        try (CqlSession session = node.session()) {
            session.execute(session.prepare("INSERT INTO kd.t (k, v) VALUES (?, ?)").bind(1000, ByteBuffer.allocate(16)));
            PreparedStatement select = session.prepare("SELECT k FROM kd.t WHERE k = ?");
            for (int k : acknowledged)
                assertThat(session.execute(select.bind(k)).one()).as("acknowledged row %d after the restart", k).isNotNull();
        }
    }
}
