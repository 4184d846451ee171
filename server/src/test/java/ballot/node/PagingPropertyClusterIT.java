package ballot.node;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link PagingProperty} on a cluster of three node processes at RF 3 and QUORUM: scans cross the ring's token ranges
 * and merge three replicas' answers, and pages may be served by different coordinators.
 */
class PagingPropertyClusterIT {
    private static Path directory;
    private static final List<NodeProcess> nodes = new ArrayList<>();
    private static CqlSession session;
    private static PagingProperty property;

    @BeforeAll
    static void start() throws Exception {
        directory = Files.createTempDirectory("ballot-paging-cluster");
        nodes.addAll(NodeProcess.startCluster(directory, 3));
        session = CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", nodes.get(0).nativePort))
                .withLocalDatacenter("datacenter1")
                .withConfigLoader(NodeProcess.driverConfig().withString(DefaultDriverOption.REQUEST_CONSISTENCY, "QUORUM").build())
                .build();
        NodeProcess.await("the driver sees three nodes up", java.time.Duration.ofSeconds(60),
                () -> session.getMetadata().getNodes().values().stream().filter(n -> n.getState()
                        == com.datastax.oss.driver.api.core.metadata.NodeState.UP).count() == 3);
        session.execute("CREATE KEYSPACE paging WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
        property = new PagingProperty(session, "paging");
    }

    @AfterAll
    static void stop() throws Exception {
        if (session != null) session.close();
        for (NodeProcess n : nodes) n.close();
        if (directory != null && !Boolean.getBoolean("ballot.keepNodeFiles")) NodeProcess.delete(directory);
    }

    @Test
    void pagedReadsEqualUnpagedReadsAndTheModelForRandomSchemas() {
        property.checkRandomSchemas(8);
    }

    @Test
    void aggregatesOverThousandsOfPartitionsCountEachRowOnce() {
        property.checkAggregatesOverManyPartitions(1_500);
    }
}
