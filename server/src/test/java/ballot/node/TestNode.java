package ballot.node;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.config.ProgrammaticDriverConfigLoaderBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A real node in this JVM on an ephemeral port over a temporary data directory, and driver sessions to it. No metrics
 * endpoint unless a test asks for one: test JVMs run side by side on this machine.
 */
final class TestNode implements AutoCloseable {
    private final Path directory;
    private final Consumer<NodeConfig> settings;
    private BallotNode node;

    private TestNode(Path directory, Consumer<NodeConfig> settings) {
        this.directory = directory;
        this.settings = settings;
        start();
    }

    static TestNode start(String name) {
        return start(name, config -> { });
    }

    /** A node whose configuration {@code settings} adjusts after the test defaults, at every start. */
    static TestNode start(String name, Consumer<NodeConfig> settings) {
        try {
            return new TestNode(Files.createTempDirectory("ballot-" + name), settings);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void start() {
        NodeConfig config = new NodeConfig();
        config.dataDirectory = directory.resolve("data").toString();
        config.nativeTransportPort = 0;
        config.storagePort = 0;
        config.metricsPort = 0;
        config.requestThreads = 8;
        settings.accept(config);
        node = BallotNode.start(config);
    }

    /** Stops the node cleanly and starts it again on the same data (a new port). */
    void restart() {
        node.close();
        start();
    }

    InetSocketAddress address() {
        return node.address();
    }

    InetSocketAddress metricsAddress() {
        return node.metricsAddress();
    }

    CqlSession session() {
        return session(null);
    }

    CqlSession session(String keyspace) {
        return session(keyspace, options -> { });
    }

    /** A session logged in as {@code role} with {@code password} (PasswordAuthenticator). */
    CqlSession sessionAs(String role, String password) {
        return sessionBuilder(options -> { }).withAuthCredentials(role, password).build();
    }

    /** A session whose driver configuration {@code options} adjusts after the test defaults. */
    CqlSession session(String keyspace, Consumer<ProgrammaticDriverConfigLoaderBuilder> options) {
        CqlSessionBuilder builder = sessionBuilder(options);
        if (keyspace != null) builder.withKeyspace(keyspace);
        return builder.build();
    }

    /** A session builder for this node with the test defaults, which {@code options} adjusts (TLS: withSslContext). */
    CqlSessionBuilder sessionBuilder(Consumer<ProgrammaticDriverConfigLoaderBuilder> options) {
        ProgrammaticDriverConfigLoaderBuilder driverOptions = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(10));
        options.accept(driverOptions);
        DriverConfigLoader config = driverOptions.build();
        return CqlSession.builder().addContactPoint(address()).withLocalDatacenter("datacenter1").withConfigLoader(config);
    }

    @Override
    public void close() {
        node.close();
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
