package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two data centers of real node processes (127.0.0.1-2 in dc1, .3-4 in dc2) and a keyspace replicated twice in each,
 * through the DataStax Java driver (docs/paxos.md §12): a LOCAL_SERIAL round votes in its own data center, so with
 * every dc2 node killed (SIGKILL) conditional statements from dc1 go on at LOCAL_SERIAL with a LOCAL_QUORUM commit,
 * while SERIAL ones are UNAVAILABLE; commits still reach the other data center while it is up. One cluster for all.
 */
class LocalSerialIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final ConsistencyLevel LOCAL_SERIAL = DefaultConsistencyLevel.LOCAL_SERIAL;
    private static final ConsistencyLevel LOCAL_QUORUM = DefaultConsistencyLevel.LOCAL_QUORUM;

    private static Path directory;
    private static List<NodeProcess> nodes;
    private static CqlSession dc1;

    @BeforeAll
    static void startCluster() throws Exception {
        directory = Files.createTempDirectory("ballot-local-serial");
        nodes = NodeProcess.startCluster(directory, List.of("dc1", "dc1", "dc2", "dc2"));
        dc1 = session("dc1", nodes.get(0));
        // The keyspace names both data centers: node 1 must know the dc2 nodes first (it lists them in system.peers).
        NodeProcess.await("dc1's client knows all four nodes, both dc1 nodes up", WAIT, () -> dc1.getMetadata().getNodes().size() == 4
                && dc1.getMetadata().getNodes().values().stream().filter(n -> "dc1".equals(n.getDatacenter())
                        && n.getState() == com.datastax.oss.driver.api.core.metadata.NodeState.UP).count() == 2);
        dc1.execute("CREATE KEYSPACE ls WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 2, 'dc2': 2}");
        dc1.execute("CREATE TABLE ls.t (k int PRIMARY KEY, v int)");
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (dc1 != null) dc1.close();
        if (nodes != null) for (NodeProcess n : nodes) n.close();
        if (directory != null && !Boolean.getBoolean("ballot.keepNodeFiles")) NodeProcess.delete(directory);
    }

    @Test
    void localSerialGoesOnInItsDataCenterWhileTheOtherIsDownAndSerialIsUnavailable() throws Exception {
        // Both data centers up: applied at LOCAL_SERIAL, and the commit reaches dc2 too (it learns without voting).
        assertThat(lwt("INSERT INTO ls.t (k, v) VALUES (1, 10) IF NOT EXISTS", LOCAL_SERIAL).wasApplied()).isTrue();
        assertThat(lwt("UPDATE ls.t SET v = 11 WHERE k = 1 IF v = 10", LOCAL_SERIAL).wasApplied()).isTrue();
        try (CqlSession dc2 = session("dc2", nodes.get(2))) {
            NodeProcess.await("dc2 applied the LOCAL_SERIAL commit", WAIT, () -> Integer.valueOf(11).equals(value(dc2, 1,
                    DefaultConsistencyLevel.LOCAL_ONE)));
        }

        nodes.get(2).kill();
        nodes.get(3).kill();

        // SERIAL needs 3 of the 4 replicas: once dc1 sees dc2 down, it is refused before anything is sent.
        NodeProcess.await("SERIAL is unavailable with dc2 down", WAIT, () -> {
            try {
                lwt("INSERT INTO ls.t (k, v) VALUES (9, 90) IF NOT EXISTS", DefaultConsistencyLevel.SERIAL);
                throw new AssertionError("a SERIAL LWT was applied by 2 of 4 replicas");
            } catch (WriteTimeoutException notYetConvicted) {
                return false; // dc2 not yet seen down: prepares went unanswered, nothing was proposed
            } catch (UnavailableException e) {
                assertThat(e.getConsistencyLevel()).isEqualTo(DefaultConsistencyLevel.SERIAL);
                assertThat(e.getRequired()).isEqualTo(3);
                assertThat(e.getAlive()).isEqualTo(2);
                return true;
            }
        });
        assertThatThrownBy(() -> read(9, DefaultConsistencyLevel.SERIAL)).isInstanceOf(UnavailableException.class);

        // LOCAL_SERIAL votes in dc1 only: conditional writes and SERIAL reads go on.
        assertThat(lwt("UPDATE ls.t SET v = 12 WHERE k = 1 IF v = 11", LOCAL_SERIAL).wasApplied()).isTrue();
        ResultSet notApplied = lwt("UPDATE ls.t SET v = 13 WHERE k = 1 IF v = 11", LOCAL_SERIAL);
        assertThat(notApplied.wasApplied()).isFalse();
        assertThat(notApplied.one().getInt("v")).isEqualTo(12);
        for (int k = 2; k <= 6; k++)
            assertThat(lwt("INSERT INTO ls.t (k, v) VALUES (" + k + ", " + k * 10 + ") IF NOT EXISTS", LOCAL_SERIAL).wasApplied()).isTrue();
        assertThat(lwt("DELETE FROM ls.t WHERE k = 6 IF EXISTS", LOCAL_SERIAL).wasApplied()).isTrue();
        assertThat(read(1, LOCAL_SERIAL).getInt("v")).isEqualTo(12);

        // Read back at LOCAL_QUORUM: the LOCAL_QUORUM commits reached both dc1 replicas.
        assertThat(value(dc1, 1, LOCAL_QUORUM)).isEqualTo(12);
        for (int k = 2; k <= 5; k++) assertThat(value(dc1, k, LOCAL_QUORUM)).isEqualTo(k * 10);
        assertThat(value(dc1, 6, LOCAL_QUORUM)).isNull();
        assertThat(value(dc1, 9, LOCAL_SERIAL)).as("the refused SERIAL insert").isNull();
    }

    private static CqlSession session(String dataCenter, NodeProcess contact) {
        return CqlSession.builder().addContactPoint(new InetSocketAddress(contact.address, contact.nativePort))
                .withLocalDatacenter(dataCenter).withConfigLoader(NodeProcess.driverConfig().build()).build();
    }

    /** A conditional statement from dc1 with {@code serial} for Paxos and LOCAL_QUORUM for the commit. */
    private static ResultSet lwt(String cql, ConsistencyLevel serial) {
        return dc1.execute(SimpleStatement.newInstance(cql).setConsistencyLevel(LOCAL_QUORUM).setSerialConsistencyLevel(serial));
    }

    private static Row read(int k, ConsistencyLevel consistency) {
        return dc1.execute(SimpleStatement.newInstance("SELECT v FROM ls.t WHERE k = " + k).setConsistencyLevel(consistency)).one();
    }

    private static Integer value(CqlSession session, int k, ConsistencyLevel consistency) {
        Row row = session.execute(SimpleStatement.newInstance("SELECT v FROM ls.t WHERE k = " + k).setConsistencyLevel(consistency)).one();
        return row == null ? null : row.getInt("v");
    }
}
