package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS between nodes (server_encryption_options, internode_encryption: all; docs/tls.md): three node processes on
 * 127.0.6.1 to .3 whose certificates one CA signed form a ring and serve QUORUM and LWTs at RF 3; a node whose
 * certificate another CA signed, and a node without internode TLS, cannot join, and the logs say why.
 */
class InternodeTlsIT {
    private static final int NATIVE_PORT = 26042;
    private static final int STORAGE_PORT = 26043;
    private static final List<String> SEEDS = List.of("127.0.6.1:" + STORAGE_PORT);

    @TempDir Path directory;
    private final List<NodeProcess> nodes = new ArrayList<>();

    @AfterEach
    void stopNodes() {
        for (NodeProcess node : nodes) node.close();
    }

    @Test
    void encryptedRingServesQuorumAndLwtAndKeepsOutNodesWithoutTheCasCertificate() throws Exception {
        TestCertificates ca = TestCertificates.authority(Files.createDirectories(directory.resolve("certificates")), "cluster-ca");
        TestCertificates otherCa = TestCertificates.authority(directory.resolve("certificates"), "other-ca");
        for (int i = 1; i <= 3; i++) nodes.add(node(i).settings(internodeTls(ca.keystore("node" + i), ca.truststore())).start());

        try (CqlSession session = CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.6.1", NATIVE_PORT))
                .withLocalDatacenter(NodeProcess.DEFAULT_DATA_CENTER).withConfigLoader(NodeProcess.driverConfig().build()).build()) {
            NodeProcess.await("the driver sees three nodes up", Duration.ofSeconds(60), () -> session.getMetadata().getNodes().values()
                    .stream().filter(n -> n.getState() == NodeState.UP).count() == 3);
            session.execute("CREATE KEYSPACE three WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
            session.execute("CREATE TABLE three.t (k int PRIMARY KEY, v text)");
            PreparedStatement insert = session.prepare("INSERT INTO three.t (k, v) VALUES (?, ?)");
            PreparedStatement select = session.prepare("SELECT v FROM three.t WHERE k = ?");
            for (int k = 0; k < 30; k++) session.execute(insert.bind(k, "v" + k).setConsistencyLevel(DefaultConsistencyLevel.QUORUM));
            for (int k = 0; k < 30; k++) {
                assertThat(session.execute(select.bind(k).setConsistencyLevel(DefaultConsistencyLevel.QUORUM)).one().getString("v"))
                        .isEqualTo("v" + k);
            }
            assertThat(session.execute("INSERT INTO three.t (k, v) VALUES (100, 'first') IF NOT EXISTS").wasApplied()).isTrue();
            assertThat(session.execute("INSERT INTO three.t (k, v) VALUES (100, 'second') IF NOT EXISTS").wasApplied()).isFalse();
            assertThat(session.execute("UPDATE three.t SET v = 'third' WHERE k = 100 IF v = 'first'").wasApplied()).isTrue();
            refusesNodesWithoutTheCasCertificate(ca, otherCa);
            // Whichever node answers, its peers are two of the three TLS nodes: neither refused node joined.
            assertThat(session.execute("SELECT peer FROM system.peers").all()).extracting(row -> row.getInetAddress("peer").getHostAddress())
                    .hasSize(2).isSubsetOf("127.0.6.1", "127.0.6.2", "127.0.6.3");
        }
    }

    private void refusesNodesWithoutTheCasCertificate(TestCertificates ca, TestCertificates otherCa) throws Exception {

        // Both are refused at once; they run side by side, each until its 30 s join timeout ends its process.
        NodeProcess stranger = node(4).settings(internodeTls(otherCa.keystore("node4"), ca.truststore()));
        NodeProcess plaintext = node(5);
        nodes.add(stranger);
        nodes.add(plaintext);
        stranger.launch();
        plaintext.launch();
        assertThat(stranger.awaitExit(Duration.ofSeconds(120))).as("the stranger's exit code\n%s", stranger.logTail(20)).isEqualTo(1);
        assertThat(plaintext.awaitExit(Duration.ofSeconds(120))).as("the plaintext node's exit code\n%s", plaintext.logTail(20)).isEqualTo(1);
        assertThat(Files.readString(stranger.log())).contains("cannot reach any seed").contains("TLS handshake failed");
        assertThat(Files.readString(plaintext.log())).contains("cannot reach any seed");
        String seedLog = Files.readString(nodes.get(0).log());
        assertThat(seedLog).contains("closing internode connection from /127.0.6.4")
                .contains("closing internode connection from /127.0.6.5")
                .contains("the peer does not speak TLS");
    }

    private NodeProcess node(int i) {
        return new NodeProcess(directory.resolve("node" + i), "127.0.6." + i, NATIVE_PORT, STORAGE_PORT, SEEDS);
    }

    private static List<String> internodeTls(Path keystore, Path truststore) {
        return List.of("server_encryption_options:",
                "  internode_encryption: all",
                "  keystore: " + keystore,
                "  keystore_password: " + TestCertificates.PASSWORD,
                "  truststore: " + truststore,
                "  truststore_password: " + TestCertificates.PASSWORD);
    }
}
