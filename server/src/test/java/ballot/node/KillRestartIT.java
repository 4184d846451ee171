package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Nothing acknowledged is lost: a node process is killed with SIGKILL (no shutdown hook, no flush) right after
 * acknowledging writes, restarted on the same data directory, and every acknowledged write is read back.
 */
class KillRestartIT {
    private Path directory;
    private NodeProcess node;

    @BeforeEach
    void createDirectory() throws IOException {
        directory = Files.createTempDirectory("ballot-kill");
    }

    @AfterEach
    void cleanUp() throws Exception {
        if (node != null) node.close();
        NodeProcess.delete(directory);
    }

    /** With either {@code paxos_sync} (docs/paxos.md §4.15): a vote only written to the log survives the kill too. */
    @ParameterizedTest(name = "paxos_sync: {0}")
    @ValueSource(strings = {"always", "commitlog"})
    void acknowledgedWritesAndLwtsSurviveKillMinusNine(String paxosSync) throws Exception {
        node = new NodeProcess(directory, "127.0.0.1", NodeProcess.freePort(), NodeProcess.freePort(), List.of())
                .settings(List.of("paxos_sync: " + paxosSync)).start();
        List<Integer> acknowledged = new ArrayList<>();
        try (CqlSession session = node.session()) {
            session.execute("CREATE KEYSPACE k9 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute("CREATE TABLE k9.t (k int PRIMARY KEY, v text)");
            PreparedStatement insert = session.prepare("INSERT INTO k9.t (k, v) VALUES (?, ?)");
            PreparedStatement lwt = session.prepare("INSERT INTO k9.t (k, v) VALUES (?, ?) IF NOT EXISTS");
            for (int i = 0; i < 500; i++) {
                if (i % 5 == 0) assertThat(session.execute(lwt.bind(i, "lwt-" + i)).wasApplied()).isTrue();
                else session.execute(insert.bind(i, "plain-" + i));
                acknowledged.add(i);
            }
        }
        assertThat(java.nio.file.Files.readString(node.log())).as("the node ran with the setting").contains("paxos_sync=" + paxosSync);
        node.kill();
        node.start();
        try (CqlSession session = node.session()) {
            PreparedStatement select = session.prepare("SELECT v FROM k9.t WHERE k = ?");
            for (int i : acknowledged) {
                var row = session.execute(select.bind(i)).one();
                assertThat(row).as("row %d acknowledged before the kill", i).isNotNull();
                assertThat(row.getString("v")).isEqualTo((i % 5 == 0 ? "lwt-" : "plain-") + i);
            }
        }
    }
}
