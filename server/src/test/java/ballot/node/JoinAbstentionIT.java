package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/paxos.md §4.14 on real processes: a fourth node joins a three-node cluster whose RF 3 table already took LWTs.
 * It abstains from that table's votes, every LWT still applies exactly once, and a table created after the join counts
 * it as a full voter: with an old replica of a partition down, the new table's LWTs go on with the joined node's
 * vote and the old table's find no quorum.
 */
class JoinAbstentionIT {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void aJoinedNodeAbstainsFromTablesThatPredateItAndVotesOnNewOnes() throws Exception {
        Path directory = Files.createTempDirectory("ballot-join");
        List<NodeProcess> nodes = new ArrayList<>(NodeProcess.startCluster(directory, 3));
        try (CqlSession session = CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", nodes.get(0).nativePort))
                .withLocalDatacenter("datacenter1").withConfigLoader(NodeProcess.driverConfig().build()).build()) {
            session.execute("CREATE KEYSPACE j WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
            session.execute("CREATE TABLE j.before (k int PRIMARY KEY, v int)");
            PreparedStatement insertBefore = session.prepare("INSERT INTO j.before (k, v) VALUES (?, 0) IF NOT EXISTS");
            PreparedStatement bumpBefore = session.prepare("UPDATE j.before SET v = ? WHERE k = ? IF v = ?");
            for (int k = 0; k < 40; k++) assertThat(session.execute(insertBefore.bind(k)).wasApplied()).isTrue();

            NodeProcess fourth = new NodeProcess(directory.resolve("node4"), "127.0.0.4", nodes.get(0).nativePort,
                    nodes.get(0).storagePort, List.of("127.0.0.1:" + nodes.get(0).storagePort)).start();
            nodes.add(fourth);
            NodeProcess.await("the driver sees four nodes up", WAIT, () -> session.getMetadata().getNodes().values().stream()
                    .filter(n -> n.getState() == com.datastax.oss.driver.api.core.metadata.NodeState.UP).count() == 4);
            session.execute("CREATE TABLE j.after (k int PRIMARY KEY, v int)");
            PreparedStatement insertAfter = session.prepare("INSERT INTO j.after (k, v) VALUES (?, 0) IF NOT EXISTS");

            // Every partition of both tables moves its value 0 -> 1 -> 2 by LWTs coordinated by every node in turn.
            List<Node> coordinators = new ArrayList<>(session.getMetadata().getNodes().values());
            for (int k = 0; k < 40; k++) assertThat(session.execute(insertAfter.bind(k)).wasApplied()).isTrue();
            for (int round = 0; round < 2; round++) {
                for (int k = 0; k < 40; k++) {
                    Node coordinator = coordinators.get((k + round) % coordinators.size());
                    assertThat(session.execute(bumpBefore.bind(round + 1, k, round).setNode(coordinator)).wasApplied())
                            .as("j.before k=%d round %d", k, round).isTrue();
                    assertThat(session.execute(SimpleStatement.newInstance("UPDATE j.after SET v = ? WHERE k = ? IF v = ?", round + 1, k, round)
                            .setNode(coordinator)).wasApplied()).as("j.after k=%d round %d", k, round).isTrue();
                }
            }
            for (int k = 0; k < 40; k++) {
                Row row = session.execute(SimpleStatement.newInstance("SELECT v FROM j.before WHERE k = ?", k)
                        .setConsistencyLevel(DefaultConsistencyLevel.SERIAL)).one();
                assertThat(row.getInt(0)).as("j.before k=%d", k).isEqualTo(2);
            }

            // A partition the joined node and node 1 both replicate: with node 1 down, the new table's LWTs go on with
            // the joined node's vote, the old table's have only one voter left and get no quorum.
            Node node1 = nodes.get(0).driverNode(session);
            Node node4 = fourth.driverNode(session);
            var tokens = session.getMetadata().getTokenMap().orElseThrow();
            int shared = -1;
            for (int k = 0; k < 40 && shared < 0; k++) {
                var replicas = tokens.getReplicas("j", com.datastax.oss.driver.api.core.type.codec.TypeCodecs.INT.encode(k,
                        com.datastax.oss.driver.api.core.ProtocolVersion.DEFAULT));
                if (replicas.contains(node1) && replicas.contains(node4)) shared = k;
            }
            assertThat(shared).as("a partition replicated by node 1 and the joined node").isNotNegative();
            nodes.get(0).kill();
            NodeProcess.await("the driver sees node 1 down", WAIT, () -> node1.getState() == com.datastax.oss.driver.api.core.metadata.NodeState.DOWN);
            Node coordinator = nodes.get(1).driverNode(session);
            int k = shared;
            NodeProcess.await("the cluster sees node 1 down", WAIT, () -> {
                try {
                    return session.execute(SimpleStatement.newInstance("UPDATE j.after SET v = 3 WHERE k = ? IF v = 2", k)
                            .setNode(coordinator)).wasApplied();
                } catch (com.datastax.oss.driver.api.core.servererrors.QueryExecutionException notYet) {
                    return false;
                }
            });
            assertThat(session.execute(SimpleStatement.newInstance("SELECT v FROM j.after WHERE k = ?", k)
                    .setConsistencyLevel(DefaultConsistencyLevel.SERIAL).setNode(coordinator)).one().getInt(0)).isEqualTo(3);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> session.execute(
                    SimpleStatement.newInstance("UPDATE j.before SET v = 3 WHERE k = ? IF v = 2", k).setNode(coordinator)))
                    .as("the old table's LWT without node 1: the joined node does not vote")
                    .isInstanceOfAny(com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException.class,
                            com.datastax.oss.driver.api.core.servererrors.UnavailableException.class);
        } finally {
            for (NodeProcess n : nodes) n.close();
            if (!Boolean.getBoolean("ballot.keepNodeFiles")) NodeProcess.delete(directory);
        }
    }
}
