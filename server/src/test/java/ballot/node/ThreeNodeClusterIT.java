package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultProtocolVersion;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;

import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import com.datastax.oss.protocol.internal.util.Bytes;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A real cluster of three node processes on 127.0.0.1, .2 and .3 seen through the DataStax Java driver: discovery,
 * token-aware routing to the replicas the servers use, prepared statements dropped on every node by a schema change
 * made through one, QUORUM through the SIGKILL of one node, UNAVAILABLE at ALL, hints delivered to a restarted node,
 * read repair, and every QUORUM-acknowledged write read back at the end.
 */
class ThreeNodeClusterIT {
    private static final Duration WAIT = Duration.ofSeconds(60);

    private Path directory;
    private final List<NodeProcess> nodes = new ArrayList<>();
    private CqlSession session;

    @BeforeEach
    void startCluster() throws Exception {
        directory = Files.createTempDirectory("ballot-cluster");
        nodes.addAll(NodeProcess.startCluster(directory, 3));
        int nativePort = nodes.get(0).nativePort;
        session = CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", nativePort))
                .withLocalDatacenter("datacenter1")
                .withConfigLoader(NodeProcess.driverConfig()
                        .build())
                .build();
        await("the driver sees three nodes up", () -> upNodes() == 3);
    }

    @AfterEach
    void stopCluster() throws Exception {
        if (session != null) session.close();
        for (NodeProcess n : nodes) n.close();
        if (!Boolean.getBoolean("ballot.keepNodeFiles")) NodeProcess.delete(directory);
    }

    @Test
    void driverRoutesToReplicasAndQuorumSurvivesAKilledNode() throws Exception {
        session.execute("CREATE KEYSPACE one WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE one.t (k int PRIMARY KEY, v int)");
        session.execute("CREATE KEYSPACE three WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
        session.execute("CREATE TABLE three.t (k int PRIMARY KEY, v text)");
        session.execute("CREATE TABLE three.dropped (k int PRIMARY KEY, v text)");
        PreparedStatement oneInsert = session.prepare("INSERT INTO one.t (k, v) VALUES (?, ?)");
        PreparedStatement oneSelect = session.prepare("SELECT v FROM one.t WHERE k = ?");
        PreparedStatement insert = session.prepare("INSERT INTO three.t (k, v) VALUES (?, ?)");
        PreparedStatement select = session.prepare("SELECT v FROM three.t WHERE k = ?");
        TokenMap tokens = session.getMetadata().getTokenMap().orElseThrow();
        schemaChangeThroughOneNodeDropsPreparedStatementsOnEveryNode();

        // Token-aware routing: each statement's coordinator is the one replica the driver computed from the ring the
        // nodes advertise, and every node owns some keys.
        Set<Node> owners = new java.util.HashSet<>();
        for (int k = 0; k < 60; k++) {
            Node replica = replica(tokens, k);
            owners.add(replica);
            ResultSet rs = session.execute(oneInsert.bind(k, k).setConsistencyLevel(DefaultConsistencyLevel.ONE));
            assertThat(rs.getExecutionInfo().getCoordinator()).as("coordinator of key %d", k).isEqualTo(replica);
        }
        assertThat(owners).hasSize(3);

        List<Integer> acknowledged = new ArrayList<>();
        for (int k = 0; k < 100; k++) {
            session.execute(quorum(insert.bind(k, "v" + k)));
            acknowledged.add(k);
        }
        for (int k : acknowledged) assertThat(value(select, k, DefaultConsistencyLevel.QUORUM)).isEqualTo("v" + k);

        NodeProcess third = nodes.get(2);
        third.kill();
        awaitViews(tokens, oneSelect);
        // The oldest hints the third node will be sent are of a table dropped before it comes back: they must not
        // hold back the others (they did, forever: the node refused them, the sender kept retrying them first).
        for (int k = 0; k < 10; k++) {
            session.execute(SimpleStatement.newInstance("INSERT INTO three.dropped (k, v) VALUES (?, 'x')", k)
                    .setConsistencyLevel(DefaultConsistencyLevel.QUORUM));
        }
        for (int k = 100; k < 200; k++) {
            session.execute(quorum(insert.bind(k, "v" + k)));
            acknowledged.add(k);
        }
        session.execute("DROP TABLE three.dropped");
        for (int k : acknowledged) assertThat(value(select, k, DefaultConsistencyLevel.QUORUM)).isEqualTo("v" + k);

        // The servers place RF=1 keys where the driver expects them: keys owned by the dead node are unavailable,
        // the others are served.
        Node thirdNode = node(third);
        for (int k = 0; k < 60; k++) {
            BoundStatement read = oneSelect.bind(k).setConsistencyLevel(DefaultConsistencyLevel.ONE);
            if (replica(tokens, k).equals(thirdNode)) {
                assertThatThrownBy(() -> session.execute(read)).as("key %d on the dead node", k).isInstanceOf(UnavailableException.class);
            } else {
                assertThat(session.execute(read).one().getInt("v")).isEqualTo(k);
            }
        }

        // Hints: the restarted node gets the writes it missed, read from itself alone at ONE.
        third.start();
        await("the driver sees the restarted node up", () -> node(third).getState() == NodeState.UP);
        await("hints delivered to the restarted node", () -> {
            for (int k = 100; k < 200; k++) {
                if (!("v" + k).equals(valueOn(select, k, node(third)))) return false;
            }
            return true;
        });

        // Read repair: writes the third node misses while the first node, holding their hints, is down too.
        NodeProcess first = nodes.get(0);
        third.kill();
        awaitViews(tokens, oneSelect);
        for (int k = 200; k < 250; k++) {
            session.execute(quorum(insert.bind(k, "v" + k)).setNode(node(first)));
            acknowledged.add(k);
        }
        first.kill();
        third.start();
        await("the driver sees the restarted node up", () -> node(third).getState() == NodeState.UP);
        awaitViews(tokens, oneSelect);
        for (int k = 200; k < 250; k++) {
            assertThat(value(select, k, DefaultConsistencyLevel.QUORUM)).as("QUORUM read of key %d", k).isEqualTo("v" + k);
            assertThat(valueOn(select, k, node(third))).as("key %d repaired on the third node", k).isEqualTo("v" + k);
        }

        // Nothing acknowledged is lost once every node is back.
        first.start();
        await("three nodes up", () -> upNodes() == 3);
        awaitViews(tokens, oneSelect);
        for (int k : acknowledged) assertThat(value(select, k, DefaultConsistencyLevel.ALL)).isEqualTo("v" + k);
    }

    /**
     * A DDL coordinated by the first node drops the statements it affects on every node before it returns: the second
     * node prepares the statement again when the driver executes it there, and returns the added column (protocol v5
     * tells the driver of the new result metadata); the third answers UNPREPARED for it.
     */
    private void schemaChangeThroughOneNodeDropsPreparedStatementsOnEveryNode() throws IOException {
        assertThat(session.getContext().getProtocolVersion()).isEqualTo(DefaultProtocolVersion.V5);
        Node first = node(nodes.get(0));
        Node second = node(nodes.get(1));
        NodeProcess third = nodes.get(2);
        session.execute("CREATE TABLE three.wide (k int PRIMARY KEY, a text)");
        session.execute(SimpleStatement.newInstance("INSERT INTO three.wide (k, a) VALUES (1, 'a')").setConsistencyLevel(DefaultConsistencyLevel.QUORUM));
        String query = "SELECT * FROM three.wide WHERE k = ?";
        PreparedStatement select = session.prepare(SimpleStatement.newInstance(query).setNode(second));
        assertThat(session.execute(quorum(select.bind(1)).setNode(second)).one().getColumnDefinitions().size()).isEqualTo(2);
        try (RawCqlConnection onThird = RawCqlConnection.open(new InetSocketAddress(third.address, third.nativePort))
                .startup(Map.of("CQL_VERSION", "3.0.0"))) {
            byte[] id = onThird.prepare(query).id();
            assertThat(id).isEqualTo(Bytes.getArray(select.getId()));
            assertThat(RawCqlConnection.rowsHead(onThird.execute(id, 1)).columnCount()).isEqualTo(2);

            session.execute(SimpleStatement.newInstance("ALTER TABLE three.wide ADD b text").setNode(first));
            session.execute(SimpleStatement.newInstance("UPDATE three.wide SET b = 'b' WHERE k = 1")
                    .setConsistencyLevel(DefaultConsistencyLevel.QUORUM).setNode(first));

            assertThat(RawCqlConnection.error(onThird.executeAnswer(id, false, 1)).code()).isEqualTo(0x2500);
        }
        Row row = session.execute(quorum(select.bind(1)).setNode(second)).one();
        assertThat(row.getString("a")).isEqualTo("a");
        assertThat(row.getString("b")).isEqualTo("b");
    }

    /**
     * An index at RF 3 (docs/indexes.md): exact answers at QUORUM while a node is down and rows are overwritten and
     * deleted, then with that node back but stale (the node holding its hints is down: the coordinator must re-read
     * rows one replica returned and the other did not), and at ONE on that node once hints have reached it and its
     * index.
     */
    @Test
    void indexQueriesStayExactThroughADownNodeAStaleReplicaAndHints() throws Exception {
        session.execute("CREATE KEYSPACE one WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE one.t (k int PRIMARY KEY, v int)");
        PreparedStatement oneInsert = session.prepare("INSERT INTO one.t (k, v) VALUES (?, ?)");
        for (int k = 0; k < 60; k++) session.execute(oneInsert.bind(k, k));
        PreparedStatement oneSelect = session.prepare("SELECT v FROM one.t WHERE k = ?");
        TokenMap tokens = session.getMetadata().getTokenMap().orElseThrow();
        session.execute("CREATE KEYSPACE three WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
        session.execute("CREATE TABLE three.x (k int, c int, v int, PRIMARY KEY (k, c))");
        session.execute("CREATE INDEX x_v ON three.x (v)");
        PreparedStatement put = session.prepare("INSERT INTO three.x (k, c, v) VALUES (?, ?, ?)");
        PreparedStatement remove = session.prepare("DELETE FROM three.x WHERE k = ? AND c = ?");
        PreparedStatement byV = session.prepare("SELECT k, c FROM three.x WHERE v = ?");
        for (NodeProcess p : nodes) {
            await(p.address + " answers with the index on every replica", () -> {
                try {
                    session.execute(byV.bind(0).setConsistencyLevel(DefaultConsistencyLevel.ALL).setNode(node(p)));
                    return true;
                } catch (com.datastax.oss.driver.api.core.DriverException e) {
                    return false;
                }
            });
        }
        Map<String, Integer> model = new java.util.TreeMap<>();
        for (int k = 0; k < 40; k++) {
            for (int c = 0; c < 3; c++) {
                session.execute(quorum(put.bind(k, c, (k + c) % 4)));
                model.put(k + "," + c, (k + c) % 4);
            }
        }
        checkIndex(byV, model, DefaultConsistencyLevel.QUORUM, null);

        NodeProcess first = nodes.get(0);
        NodeProcess third = nodes.get(2);
        third.kill();
        awaitViews(tokens, oneSelect);
        for (int k = 0; k < 20; k++) {
            int v = (model.get(k + ",0") + 1) % 4;
            session.execute(quorum(put.bind(k, 0, v)).setNode(node(first)));
            model.put(k + ",0", v);
            if (k % 5 == 0) {
                session.execute(quorum(remove.bind(k, 1)).setNode(node(first)));
                model.remove(k + ",1");
            }
        }
        checkIndex(byV, model, DefaultConsistencyLevel.QUORUM, null);

        first.kill();
        third.start();
        await("the driver sees the restarted node up", () -> node(third).getState() == NodeState.UP);
        awaitViews(tokens, oneSelect);
        checkIndex(byV, model, DefaultConsistencyLevel.QUORUM, null);

        first.start();
        await("three nodes up", () -> upNodes() == 3);
        awaitViews(tokens, oneSelect);
        await("hints and read repair bring the restarted node's data and index up to date", () -> {
            for (int v = 0; v < 4; v++) if (!matching(byV, v, DefaultConsistencyLevel.ONE, node(third), 1000).equals(expected(model, v))) return false;
            return true;
        });
        checkIndex(byV, model, DefaultConsistencyLevel.ALL, null);
    }

    private void checkIndex(PreparedStatement byV, Map<String, Integer> model, DefaultConsistencyLevel cl, Node coordinator) {
        for (int v = 0; v < 4; v++) {
            for (int pageSize : new int[] {3, 1000}) {
                assertThat(matching(byV, v, cl, coordinator, pageSize)).as("v = %d at %s, page size %d", v, cl, pageSize)
                        .isEqualTo(expected(model, v));
            }
        }
    }

    private java.util.SortedSet<String> matching(PreparedStatement byV, int v, DefaultConsistencyLevel cl, Node coordinator, int pageSize) {
        BoundStatement statement = byV.bind(v).setConsistencyLevel(cl).setPageSize(pageSize);
        if (coordinator != null) statement = statement.setNode(coordinator);
        java.util.SortedSet<String> out = new java.util.TreeSet<>();
        for (Row row : session.execute(statement)) assertThat(out.add(row.getInt("k") + "," + row.getInt("c"))).as("no duplicate rows").isTrue();
        return out;
    }

    private static java.util.SortedSet<String> expected(Map<String, Integer> model, int v) {
        java.util.SortedSet<String> out = new java.util.TreeSet<>();
        model.forEach((key, value) -> {
            if (value == v) out.add(key);
        });
        return out;
    }

    /**
     * Waits until every running node's failure detector agrees with which processes run: through each running node as
     * coordinator, an RF=1 key owned by a running node is served and one owned by a killed node is UNAVAILABLE. Until
     * then a QUORUM read could pick a dead replica the coordinator still counts alive, and time out.
     */
    private void awaitViews(TokenMap tokens, PreparedStatement oneSelect) throws InterruptedException {
        Map<NodeProcess, Integer> probeKeys = new java.util.HashMap<>();
        for (int k = 0; k < 60; k++) {
            for (NodeProcess p : nodes) if (replica(tokens, k).equals(node(p))) probeKeys.putIfAbsent(p, k);
        }
        assertThat(probeKeys).hasSize(nodes.size());
        for (NodeProcess coordinator : nodes) {
            if (!coordinator.isAlive()) continue;
            await(coordinator.address + " sees exactly the running nodes alive", () -> {
                for (NodeProcess owner : nodes) {
                    BoundStatement read = oneSelect.bind(probeKeys.get(owner)).setConsistencyLevel(DefaultConsistencyLevel.ONE)
                            .setNode(node(coordinator));
                    if (served(read) != owner.isAlive()) return false;
                }
                return true;
            });
        }
    }

    /** True if served, false if the coordinator answered UNAVAILABLE; other errors (timeouts) propagate. */
    private boolean served(BoundStatement read) {
        try {
            session.execute(read);
            return true;
        } catch (UnavailableException e) {
            return false;
        } catch (AllNodesFailedException e) {
            // the driver retries UNAVAILABLE on the next node; with a fixed node there is none
            Throwable first = e.getAllErrors().values().iterator().next().get(0);
            if (first instanceof UnavailableException) return false;
            throw e;
        }
    }

    private static BoundStatement quorum(BoundStatement statement) {
        return statement.setConsistencyLevel(DefaultConsistencyLevel.QUORUM);
    }

    private String value(PreparedStatement select, int k, DefaultConsistencyLevel cl) {
        Row row = session.execute(select.bind(k).setConsistencyLevel(cl)).one();
        return row == null ? null : row.getString("v");
    }

    /** The value the given node holds itself: it coordinates a read at ONE and, being a replica, reads locally. */
    private String valueOn(PreparedStatement select, int k, Node node) {
        Row row = session.execute(select.bind(k).setConsistencyLevel(DefaultConsistencyLevel.ONE).setNode(node)).one();
        return row == null ? null : row.getString("v");
    }

    private static Node replica(TokenMap tokens, int k) {
        Set<Node> replicas = tokens.getReplicas(CqlIdentifier.fromCql("one"), TypeCodecs.INT.encode(k, ProtocolVersion.DEFAULT));
        assertThat(replicas).hasSize(1);
        return replicas.iterator().next();
    }

    private Node node(NodeProcess process) {
        return process.driverNode(session);
    }

    private long upNodes() {
        return session.getMetadata().getNodes().values().stream().filter(n -> n.getState() == NodeState.UP).count();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        NodeProcess.await(what, WAIT, condition);
    }
}
