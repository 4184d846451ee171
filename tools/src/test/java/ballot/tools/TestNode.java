package ballot.tools;

import ballot.node.BallotNode;
import ballot.node.NodeConfig;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.function.Consumer;
import java.util.stream.Stream;

/** A real Ballot node in the test JVM, on ephemeral ports over a temporary directory that closing deletes. */
public final class TestNode implements AutoCloseable {
    private final Path directory;
    private final BallotNode node;

    private TestNode(Path directory, BallotNode node) {
        this.directory = directory;
        this.node = node;
    }

    public static TestNode start(String name) {
        return start(name, false);
    }

    /** @param metrics serve the metrics and the admin calls, on a port free now (0 would turn them off) */
    public static TestNode start(String name, boolean metrics) {
        return start(name, metrics, config -> { });
    }

    /** A node whose configuration {@code settings} adjusts after the test defaults. */
    public static TestNode start(String name, boolean metrics, Consumer<NodeConfig> settings) {
        try {
            Path directory = Files.createTempDirectory("ballot-" + name);
            NodeConfig config = new NodeConfig();
            config.dataDirectory = directory.resolve("data").toString();
            config.nativeTransportPort = 0;
            config.storagePort = 0;
            config.metricsPort = metrics ? freePort() : 0;
            config.requestThreads = 8;
            settings.accept(config);
            return new TestNode(directory, BallotNode.start(config));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The node's metrics_port, where it serves the admin calls; started with metrics. */
    public int metricsPort() {
        return node.metricsAddress().getPort();
    }

    public BallotNode node() {
        return node;
    }

    public InetSocketAddress address() {
        return node.address();
    }

    /** The node as a {@code --hosts} value. */
    public String hostPort() {
        return node.address().getAddress().getHostAddress() + ":" + node.address().getPort();
    }

    /**
     * A session whose schema changes return as soon as the node has them: the driver's default waits a second after
     * each one, in case more follow, before it refreshes its schema metadata.
     */
    public CqlSession session() {
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder().withDuration(DefaultDriverOption.METADATA_SCHEMA_WINDOW, Duration.ofMillis(10)).build();
        return CqlSession.builder().addContactPoint(node.address()).withLocalDatacenter("datacenter1").withConfigLoader(config).build();
    }

    @Override
    public void close() throws IOException {
        node.close();
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
