package ballot.tools.workload;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/** Where the workload runs: contact points, the local data center and the keyspace; shared by every subcommand. */
final class ClusterOptions {
    /**
     * The execution profile of check's full-table scans, which the node answers with a warning ("Aggregation query
     * used without partition key") that the driver would log for every check: they are full scans on purpose.
     */
    static final String SCAN_PROFILE = "scan";

    /** The driver's per-connection limit on outstanding requests is 1024 by default; the protocol allows 32768. */
    private static final int REQUESTS_PER_CONNECTION_MAX = 32_768;

    @Option(names = "--hosts", split = ",", defaultValue = "127.0.0.1:9042", converter = HostPortConverter.class, paramLabel = "HOST[:PORT]",
            description = "contact points, comma-separated; port 9042 when omitted (default ${DEFAULT-VALUE})")
    List<InetSocketAddress> hosts;

    @Option(names = "--dc", paramLabel = "DC", defaultValue = "datacenter1", description = "the driver's local data center (default ${DEFAULT-VALUE})")
    String dataCenter;

    @Option(names = "--keyspace", paramLabel = "NAME", defaultValue = "lightest", description = "keyspace of the workload's tables (default ${DEFAULT-VALUE})")
    String keyspace;

    CqlIdentifier keyspaceId() {
        return CqlIdentifier.fromInternal(keyspace);
    }

    /** The keyspace as it goes into CQL text, quoted if it needs to be. */
    String keyspaceCql() {
        return keyspaceId().asCql(true);
    }

    /**
     * A session that routes each request to a replica of its partition (the driver's default for prepared statements
     * whose key is bound) and lets {@code inFlight} requests be outstanding on one connection. The request timeout is
     * longer than the server's own write timeout, so a slow request reports the server's answer rather than the driver's.
     * Closing does not wait out Netty's quiet period (2 s by default): nothing else runs on the session's event loops.
     * A schema change (the tables a run creates) returns once the cluster agrees on it, rather than a second later: by
     * default the driver waits that long for more changes before it refreshes its schema metadata.
     */
    CqlSession connect(int inFlight) {
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(12))
                .withInt(DefaultDriverOption.CONNECTION_MAX_REQUESTS, Math.min(Math.max(inFlight, 1024), REQUESTS_PER_CONNECTION_MAX))
                .withInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_QUIET_PERIOD, 0)
                .withInt(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_QUIET_PERIOD, 0)
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_WINDOW, Duration.ofMillis(10))
                .startProfile(SCAN_PROFILE).withBoolean(DefaultDriverOption.REQUEST_LOG_WARNINGS, false).endProfile()
                .build();
        return CqlSession.builder().addContactPoints(hosts).withLocalDatacenter(dataCenter).withConfigLoader(config).build();
    }
}
