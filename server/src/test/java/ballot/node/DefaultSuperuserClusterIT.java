package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Three node processes with PasswordAuthenticator: the default superuser exists once, written at timestamp 0, and a
 * node that runs the role setup again (a restart) does not bring its default password back; system_auth's replication,
 * raised on one node, reaches every node and outlives a restart (docs/security.md).
 */
class DefaultSuperuserClusterIT {
    private static final Duration WAIT = Duration.ofSeconds(60);

    private Path directory;
    private final List<NodeProcess> nodes = new ArrayList<>();

    @AfterEach
    void stopCluster() throws Exception {
        for (NodeProcess n : nodes) n.close();
        if (directory != null && !Boolean.getBoolean("ballot.keepNodeFiles")) NodeProcess.delete(directory);
    }

    private CqlSession login(NodeProcess node, String password) {
        return CqlSession.builder().addContactPoint(new InetSocketAddress(node.address, node.nativePort))
                .withLocalDatacenter(NodeProcess.DEFAULT_DATA_CENTER).withAuthCredentials("cassandra", password)
                .withConfigLoader(NodeProcess.driverConfig().build()).build();
    }

    private boolean logsIn(NodeProcess node, String password) {
        try (CqlSession session = login(node, password)) {
            return true;
        } catch (AllNodesFailedException e) {
            return false;
        }
    }

    @Test
    void theDefaultSuperuserIsCreatedOnceAndALaterPasswordWinsOverARestartedNodesSetup() throws Exception {
        directory = Files.createTempDirectory("ballot-auth-cluster");
        nodes.addAll(NodeProcess.startCluster(directory, Collections.nCopies(3, NodeProcess.DEFAULT_DATA_CENTER),
                List.of("authenticator: PasswordAuthenticator")));
        for (NodeProcess node : nodes)
            NodeProcess.await("cassandra/cassandra logs in at " + node.address, WAIT, () -> logsIn(node, "cassandra"));

        try (CqlSession session = login(nodes.get(0), "cassandra")) {
            List<Row> rows = session.execute("SELECT role, writetime(salted_hash) FROM system_auth.roles").all();
            assertThat(rows).hasSize(1);
            assertThat(rows.get(0).getString(0)).isEqualTo("cassandra");
            assertThat(rows.get(0).getLong(1)).isZero();
            // Raised before the password changes, so that the new password is written to every replica.
            session.execute("ALTER KEYSPACE system_auth WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
            session.execute("ALTER ROLE cassandra WITH PASSWORD = 'changed'");
        }
        for (NodeProcess node : nodes)
            NodeProcess.await("system_auth has replication factor 3 at " + node.address, WAIT, () -> authReplicationFactor(node).equals("3"));
        NodeProcess third = nodes.get(2);
        third.kill();
        third.start();
        NodeProcess.await("the new password logs in at " + third.address, WAIT, () -> logsIn(third, "changed"));
        for (NodeProcess node : nodes) assertThat(logsIn(node, "cassandra")).as("default password at " + node.address).isFalse();
        assertThat(authReplicationFactor(third)).as("after a restart").isEqualTo("3");
    }

    /** system_auth's replication factor as the node shows it in system_schema. */
    private String authReplicationFactor(NodeProcess node) {
        try (CqlSession session = login(node, "changed")) {
            return session.execute("SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = 'system_auth'").one()
                    .getMap(0, String.class, String.class).get("replication_factor");
        } catch (AllNodesFailedException e) {
            return "(no login yet)";
        }
    }
}
