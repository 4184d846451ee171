package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Query results count against a memory budget per connection and per node (issue 11, wedge 1). A client pipelined
 * 40 unpaged scans of a large table and read none of the answers: the heap filled within seconds, and the node stayed
 * up but answered no one. Now the scans past the connection's share are answered OVERLOADED, everyone else is served
 * meanwhile, and the memory comes back when the client goes.
 */
class ResultMemoryIT {
    private static final int ROWS = 20_000;
    private static final int SCANS = 40;
    private static final int OVERLOADED = 0x1001;
    private static final int RESULT = 0x08;

    private Path directory;
    private NodeProcess node;

    @BeforeEach
    void createDirectory() throws IOException {
        directory = Files.createTempDirectory("ballot-result-memory");
    }

    @AfterEach
    void cleanUp() throws Exception {
        if (node != null) node.close();
        NodeProcess.delete(directory);
    }

    @Test
    void unpagedScansThatNobodyReadsAreRefusedPastTheConnectionsShareAndOthersAreServed() throws Exception {
        node = new NodeProcess(directory, "127.0.0.1", NodeProcess.freePort(), NodeProcess.freePort(), List.of()).start();
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", node.nativePort);
        try (CqlSession session = node.session()) {
            session.execute("CREATE KEYSPACE km WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute("CREATE TABLE km.t (k int PRIMARY KEY, v text)");
            PreparedStatement insert = session.prepare("INSERT INTO km.t (k, v) VALUES (?, ?)");
            String value = "x".repeat(1500); // 30 MB in all: a 384 MiB heap holds a few such results, not forty
            Load.inWindows(session, ROWS, k -> insert.bind(k, value));
        }
        int answered = 0, overloaded = 0;
        try (RawCqlConnection hog = RawCqlConnection.open(address)) {
            hog.startup(Map.of("CQL_VERSION", "3.0.0"));
            for (int stream = 2; stream < 2 + SCANS; stream++) hog.sendQuery(stream, "SELECT * FROM km.t");
            try (CqlSession session = node.session()) {
                PreparedStatement select = session.prepare("SELECT v FROM km.t WHERE k = ?");
                for (int k = 0; k < 100; k++)
                    assertThat(session.execute(select.bind(k)).one()).as("row %d, read while the scans wait", k).isNotNull();
            }
            for (; answered < SCANS; answered++) {
                RawCqlConnection.Frame frame = hog.receive();
                if (frame.opcode() == RESULT) continue;
                RawCqlConnection.Error error = RawCqlConnection.error(frame);
                assertThat(error.code()).as("scan refused with: %s", error.message()).isEqualTo(OVERLOADED);
                overloaded++;
            }
        }
        assertThat(answered).isEqualTo(SCANS);
        assertThat(overloaded).as("scans answered OVERLOADED: the connection's share cannot hold forty").isPositive();
        try (CqlSession session = node.session()) {
            SimpleStatement unpaged = SimpleStatement.newInstance("SELECT k FROM km.t").setPageSize(Integer.MAX_VALUE);
            assertThat(session.execute(unpaged).getAvailableWithoutFetching()).as("an unpaged scan once the memory is back").isEqualTo(ROWS);
        }
    }
}
