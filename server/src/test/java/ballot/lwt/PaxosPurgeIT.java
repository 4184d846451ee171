package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.node.BallotNode;
import ballot.node.NodeConfig;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * docs/paxos.md §4.13 on a real node: system.paxos empties once partitions have been idle for the purge grace period,
 * and the purged partitions take LWTs and SERIAL reads again, seeing what their decrees wrote.
 */
class PaxosPurgeIT {
    @Test
    void idlePartitionsRegistersArePurgedAndThePartitionsStayUsable() throws Exception {
        Path directory = Files.createTempDirectory("ballot-purge");
        NodeConfig config = new NodeConfig();
        config.dataDirectory = directory.resolve("data").toString();
        config.nativeTransportPort = 0;
        config.storagePort = 0;
        config.metricsPort = 0;
        config.paxosPurgeGraceSeconds = 10;
        try (BallotNode node = BallotNode.start(config);
                CqlSession session = CqlSession.builder().addContactPoint(node.address()).withLocalDatacenter("datacenter1").build()) {
            session.execute("CREATE KEYSPACE p WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute("CREATE TABLE p.accounts (id int PRIMARY KEY, balance int)");
            for (int i = 0; i < 50; i++) {
                assertThat(session.execute("INSERT INTO p.accounts (id, balance) VALUES (" + i + ", 100) IF NOT EXISTS").wasApplied()).isTrue();
            }
            assertThat(registers(session)).as("registers after the LWTs").isEqualTo(50);

            long deadline = System.nanoTime() + 60_000_000_000L;
            while (registers(session) > 0) {
                assertThat(System.nanoTime()).as("system.paxos still holds registers a minute later").isLessThan(deadline);
                LockSupport.parkNanos(200_000_000L);
            }

            assertThat(session.execute("INSERT INTO p.accounts (id, balance) VALUES (7, 1) IF NOT EXISTS").wasApplied())
                    .as("the purged partition still has its row").isFalse();
            assertThat(session.execute("UPDATE p.accounts SET balance = 90 WHERE id = 7 IF balance = 100").wasApplied()).isTrue();
            Row row = session.execute(SimpleStatement.newInstance("SELECT balance FROM p.accounts WHERE id = 7")
                    .setConsistencyLevel(DefaultConsistencyLevel.SERIAL)).one();
            assertThat(row.getInt(0)).isEqualTo(90);
        }
    }

    private static long registers(CqlSession session) {
        return session.execute("SELECT COUNT(*) FROM system.paxos").one().getLong(0);
    }
}
