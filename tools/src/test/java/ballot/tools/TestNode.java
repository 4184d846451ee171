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
        try {
            Path directory = Files.createTempDirectory("ballot-" + name);
            NodeConfig config = new NodeConfig();
            config.dataDirectory = directory.resolve("data").toString();
            config.nativeTransportPort = 0;
            config.storagePort = 0;
            config.metricsPort = 0;
            config.requestThreads = 8;
            return new TestNode(directory, BallotNode.start(config));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
