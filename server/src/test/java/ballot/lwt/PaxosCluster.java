package ballot.lwt;

import ballot.node.BallotNode;
import ballot.node.NodeConfig;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * Real nodes in this JVM (as ballot.node.TestNode, several of them): node {@code i} listens on 127.0.0.{i+1} with
 * ephemeral CQL and storage ports over its own temporary data directory; nodes after the first join through it.
 * Nodes can be stopped cleanly and started again on their data.
 */
final class PaxosCluster implements AutoCloseable {
    private final Path directory;
    private final BallotNode[] nodes;
    private final int[] storagePorts;
    private final long casContentionMillis;

    private PaxosCluster(Path directory, int size, long casContentionMillis) {
        this.directory = directory;
        this.nodes = new BallotNode[size];
        this.storagePorts = new int[size];
        this.casContentionMillis = casContentionMillis;
    }

    static PaxosCluster start(String name, int size, long casContentionMillis) {
        PaxosCluster cluster;
        try {
            cluster = new PaxosCluster(Files.createTempDirectory("ballot-" + name), size, casContentionMillis);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            for (int i = 0; i < size; i++) cluster.start(i);
            cluster.awaitPeers();
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    int size() {
        return nodes.length;
    }

    static String ip(int i) {
        return "127.0.0." + (i + 1);
    }

    /** Starts node {@code i} on its data directory (again, if it was stopped). */
    void start(int i) {
        NodeConfig config = new NodeConfig();
        config.clusterName = "paxos-it";
        config.dataDirectory = directory.resolve("node" + i).toString();
        config.listenAddress = ip(i);
        config.nativeTransportAddress = ip(i);
        config.nativeTransportPort = 0;
        config.metricsPort = 0;
        config.storagePort = storagePorts[i];
        config.requestThreads = 8;
        config.numTokens = 8;
        config.casContentionTimeoutMillis = casContentionMillis;
        for (int s = 0; s < nodes.length; s++) { // the first running node is the seed; the first node starts alone
            if (s != i && nodes[s] != null) {
                config.seeds = List.of(ip(s) + ":" + storagePorts[s]);
                break;
            }
        }
        nodes[i] = BallotNode.start(config);
        storagePorts[i] = nodes[i].identity().storagePort();
    }

    /** Stops node {@code i} cleanly (its peers hear that it is shutting down). */
    void stop(int i) {
        nodes[i].close();
        nodes[i] = null;
    }

    InetSocketAddress cql(int i) {
        return nodes[i].address();
    }

    CqlSession session() {
        for (int i = 0; i < nodes.length; i++) if (nodes[i] != null) return session(i);
        throw new IllegalStateException("no node is running");
    }

    /** A session that knows the whole cluster, contacting node {@code i} first. */
    CqlSession session(int i) {
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(20))
                // a traced request's events are written by a background writer on a shared machine: poll longer for them
                .withInt(DefaultDriverOption.REQUEST_TRACE_ATTEMPTS, 200)
                .withDuration(DefaultDriverOption.REQUEST_TRACE_INTERVAL, Duration.ofMillis(10))
                .build();
        return CqlSession.builder().addContactPoint(cql(i)).withLocalDatacenter("datacenter1").withConfigLoader(config).build();
    }

    /** The driver's node for cluster node {@code i}, to pin a statement's coordinator with {@code setNode}. */
    static Node node(CqlSession session, int i) {
        for (Node n : session.getMetadata().getNodes().values()) {
            InetSocketAddress a = (InetSocketAddress) n.getEndPoint().resolve();
            if (a.getAddress().getHostAddress().equals(ip(i))) return n;
        }
        throw new IllegalStateException("the driver does not know node " + ip(i) + ": " + session.getMetadata().getNodes().keySet());
    }

    /** Waits (bounded) until the driver sees node {@code i} in {@code state}. */
    static void awaitState(CqlSession session, int i, NodeState state) {
        await("node " + ip(i) + " " + state + " for the driver", () -> {
            try {
                return node(session, i).getState() == state;
            } catch (IllegalStateException unknownYet) {
                return false;
            }
        });
    }

    /** Every node lists every other as a peer (bounded wait). */
    private void awaitPeers() {
        if (nodes.length == 1) return;
        List<CqlSession> sessions = new ArrayList<>();
        try {
            for (int i = 0; i < nodes.length; i++) sessions.add(session(i));
            await("every node sees " + (nodes.length - 1) + " peers", () -> sessions.stream().allMatch(s ->
                    s.execute("SELECT peer FROM system.peers").all().size() == nodes.length - 1));
            for (int i = 0; i < nodes.length; i++) for (CqlSession s : sessions) awaitState(s, i, NodeState.UP);
        } finally {
            for (CqlSession s : sessions) s.close();
        }
    }

    static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("timed out waiting until " + what);
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting until " + what);
            }
        }
    }

    @Override
    public void close() {
        for (int i = nodes.length - 1; i >= 0; i--) {
            if (nodes[i] != null) {
                nodes[i].close();
                nodes[i] = null;
            }
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
