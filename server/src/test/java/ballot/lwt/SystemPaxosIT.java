package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;
import com.datastax.oss.driver.api.core.type.DataTypes;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * system.paxos on a real node through the DataStax driver (docs/paxos.md §12): this node's acceptor registers after
 * real LWTs, by partition and in paged scans; read-only like the other system tables; in the driver's schema metadata.
 * Each test uses its own table and keys, and looks only at its table's rows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SystemPaxosIT {
    private PaxosCluster cluster;
    private CqlSession session;

    @BeforeAll
    void start() {
        cluster = PaxosCluster.start("system-paxos", 1, 2000);
        session = cluster.session();
        session.execute("CREATE KEYSPACE sp WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    }

    @AfterAll
    void stop() {
        if (session != null) session.close();
        if (cluster != null) cluster.close();
    }

    private UUID createTable(String name) {
        session.execute("CREATE TABLE sp." + name + " (k int PRIMARY KEY, v int)");
        return session.execute("SELECT id FROM system_schema.tables WHERE keyspace_name = 'sp' AND table_name = ?", name).one().getUuid("id");
    }

    /** An int partition key serialized as the partition key of system.paxos: its 4 bytes. */
    private static ByteBuffer rowKey(int k) {
        return ByteBuffer.allocate(4).putInt(0, k);
    }

    /** The time a ballot's time UUID carries, in microseconds since the Unix epoch. */
    private static long micros(UUID timeUuid) {
        assertThat(timeUuid.version()).isEqualTo(1);
        return (timeUuid.timestamp() - BallotTimeUuid.GREGORIAN_TO_UNIX_100NS) / 10;
    }

    private List<Row> rowsOf(UUID table, ResultSet rs) {
        List<Row> rows = new ArrayList<>();
        for (Row r : rs) if (r.getUuid("cf_id").equals(table)) rows.add(r);
        return rows;
    }

    private long writetime(String table, int k) {
        return session.execute("SELECT writetime(v) FROM sp." + table + " WHERE k = ?", k).one().getLong(0);
    }

    @Test
    void showsARowForEachPartitionWithLwtsAtTheLwtsTimestamp() {
        UUID table = createTable("accounts");
        for (int k = 1; k <= 3; k++) {
            assertThat(session.execute("INSERT INTO sp.accounts (k, v) VALUES (?, 0) IF NOT EXISTS", k).wasApplied()).isTrue();
        }
        List<Row> rows = rowsOf(table, session.execute("SELECT * FROM system.paxos"));
        Map<ByteBuffer, Row> byKey = new LinkedHashMap<>();
        for (Row r : rows) byKey.put(r.getByteBuffer("row_key"), r);
        assertThat(rows).hasSize(3);
        assertThat(byKey.keySet()).containsExactlyInAnyOrder(rowKey(1), rowKey(2), rowKey(3));
        for (int k = 1; k <= 3; k++) {
            Row r = byKey.get(rowKey(k));
            long committedAt = micros(r.getUuid("most_recent_commit_at"));
            assertThat(committedAt).as("one LWT on the partition: its ballot is the row's write time").isEqualTo(writetime("accounts", k));
            assertThat(micros(r.getUuid("in_progress_ballot"))).as("promised >= committed").isGreaterThanOrEqualTo(committedAt);
            assertThat(r.isNull("in_progress_read_ballot")).isTrue();
        }
    }

    @Test
    void mostRecentCommitMovesForwardWithEachLwt() {
        UUID table = createTable("counters");
        assertThat(session.execute("INSERT INTO sp.counters (k, v) VALUES (7, 0) IF NOT EXISTS").wasApplied()).isTrue();
        long previous = Long.MIN_VALUE;
        for (int i = 1; i <= 5; i++) {
            assertThat(session.execute("UPDATE sp.counters SET v = ? WHERE k = 7 IF v = ?", i, i - 1).wasApplied()).isTrue();
            Row r = session.execute("SELECT most_recent_commit_at FROM system.paxos WHERE row_key = ? AND cf_id = ?", rowKey(7), table).one();
            long committedAt = micros(r.getUuid("most_recent_commit_at"));
            assertThat(committedAt).as("after LWT %d", i).isGreaterThan(previous).isGreaterThanOrEqualTo(writetime("counters", 7));
            previous = committedAt;
        }
    }

    @Test
    void selectByRowKeyFindsThePartition() {
        UUID table = createTable("lookups");
        assertThat(session.execute("INSERT INTO sp.lookups (k, v) VALUES (424242, 1) IF NOT EXISTS").wasApplied()).isTrue();
        assertThat(session.execute("INSERT INTO sp.lookups (k, v) VALUES (424243, 1) IF NOT EXISTS").wasApplied()).isTrue();
        List<Row> found = session.execute(session.prepare("SELECT * FROM system.paxos WHERE row_key = ?").bind(rowKey(424242))).all();
        assertThat(found).hasSize(1);
        assertThat(found.get(0).getUuid("cf_id")).isEqualTo(table);
        assertThat(found.get(0).getByteBuffer("row_key")).isEqualTo(rowKey(424242));
        assertThat(session.execute("SELECT * FROM system.paxos WHERE row_key = ?", rowKey(424244)).all()).as("no LWT there").isEmpty();
    }

    @Test
    void pagedScanReturnsEveryPartitionOnce() {
        UUID table = createTable("paged");
        Set<ByteBuffer> expected = new HashSet<>();
        for (int k = 1000; k < 1025; k++) {
            assertThat(session.execute("INSERT INTO sp.paged (k, v) VALUES (?, 0) IF NOT EXISTS", k).wasApplied()).isTrue();
            expected.add(rowKey(k));
        }
        ResultSet paged = session.execute(SimpleStatement.newInstance("SELECT * FROM system.paxos").setPageSize(4));
        assertThat(paged.getAvailableWithoutFetching()).as("the first page").isLessThanOrEqualTo(4);
        List<ByteBuffer> keys = new ArrayList<>();
        for (Row r : rowsOf(table, paged)) keys.add(r.getByteBuffer("row_key"));
        assertThat(keys).as("every partition once").hasSize(25).doesNotHaveDuplicates();
        assertThat(new HashSet<>(keys)).isEqualTo(expected);
    }

    @Test
    void writesAreRefusedLikeOtherSystemTables() {
        String local = refusal("INSERT INTO system.local (key, cluster_name) VALUES ('local', 'x')");
        assertThat(local).isEqualTo("system keyspace is not user-modifiable.");
        UUID table = createTable("guarded");
        assertThat(refusal("INSERT INTO system.paxos (row_key, cf_id) VALUES (0x01, " + table + ")")).isEqualTo(local);
        assertThat(refusal("INSERT INTO system.paxos (row_key, cf_id) VALUES (0x01, " + table + ") IF NOT EXISTS")).isEqualTo(local);
        assertThat(refusal("DELETE FROM system.paxos WHERE row_key = 0x01 AND cf_id = " + table)).isEqualTo(local);
        assertThat(session.execute("SELECT * FROM system.paxos WHERE row_key = 0x01").all()).isEmpty();
    }

    private String refusal(String cql) {
        Throwable[] thrown = new Throwable[1];
        assertThatThrownBy(() -> session.execute(cql)).as(cql).isInstanceOf(UnauthorizedException.class).satisfies(e -> thrown[0] = e);
        return thrown[0].getMessage();
    }

    /** Drivers leave system keyspaces out of their schema metadata unless asked; this session asks for {@code system}. */
    @Test
    void driverMetadataAndDescribeShowCassandrasSchema() {
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withStringList(DefaultDriverOption.METADATA_SCHEMA_REFRESHED_KEYSPACES, List.of("system"))
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
                .build();
        TableMetadata paxos;
        try (CqlSession withSystem = CqlSession.builder().addContactPoint(cluster.cql(0)).withLocalDatacenter("datacenter1")
                .withConfigLoader(config).build()) {
            paxos = withSystem.getMetadata().getKeyspace("system").orElseThrow().getTable("paxos").orElseThrow();
        }
        assertThat(paxos.getPartitionKey()).extracting(c -> c.getName().asInternal()).containsExactly("row_key");
        assertThat(paxos.getClusteringColumns().keySet()).extracting(c -> c.getName().asInternal()).containsExactly("cf_id");
        Map<String, Object> types = new LinkedHashMap<>();
        for (ColumnMetadata c : paxos.getColumns().values()) types.put(c.getName().asInternal(), c.getType());
        assertThat(types).containsOnly(
                Map.entry("row_key", DataTypes.BLOB), Map.entry("cf_id", DataTypes.UUID),
                Map.entry("in_progress_ballot", DataTypes.TIMEUUID), Map.entry("in_progress_read_ballot", DataTypes.TIMEUUID),
                Map.entry("most_recent_commit", DataTypes.BLOB), Map.entry("most_recent_commit_at", DataTypes.TIMEUUID),
                Map.entry("most_recent_commit_version", DataTypes.INT), Map.entry("proposal", DataTypes.BLOB),
                Map.entry("proposal_ballot", DataTypes.TIMEUUID), Map.entry("proposal_version", DataTypes.INT));
        Row describe = session.execute("DESCRIBE TABLE system.paxos").one();
        assertThat(describe.getString("create_statement")).contains("CREATE TABLE system.paxos (").contains("PRIMARY KEY (row_key, cf_id)");
    }
}
