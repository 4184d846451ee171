package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.data.CqlDuration;
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import com.datastax.oss.driver.api.core.servererrors.TruncateException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import com.datastax.oss.driver.api.core.type.DataTypes;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What ScyllaDB's drivers send once they take the node for ScyllaDB, through the Java driver against a real node.
 * USING TIMEOUT: the statement's coordinator timeout becomes the given duration (zero times out at once, before
 * anything is written), it combines with TTL and TIMESTAMP, binds as a duration marker, and bad values get ScyllaDB's
 * errors (its test/cqlpy/test_using_timeout.py cases). system_schema.scylla_tables: a row per table.
 */
class ScyllaCqlIT {
    private static final CqlDuration ZERO = CqlDuration.newInstance(0, 0, 0);
    private static final CqlDuration DAY = CqlDuration.from("24h");

    private static TestNode node;
    private static CqlSession session;

    @BeforeAll
    static void start() {
        node = TestNode.start("scylla-cql");
        session = node.session();
        session.execute("CREATE KEYSPACE ut WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE ut.t (p bigint, c int, v int, PRIMARY KEY (p, c))");
    }

    @AfterAll
    static void stop() {
        if (session != null) session.close();
        if (node != null) node.close();
    }

    private static int rowCount(long p) {
        return session.execute("SELECT * FROM ut.t WHERE p = " + p).all().size();
    }

    @Test
    void aZeroTimeoutTimesOutReadsAndWritesBeforeTheyRun() {
        session.execute("INSERT INTO ut.t (p, c, v) VALUES (1, 1, 1)");
        assertThatThrownBy(() -> session.execute("SELECT * FROM ut.t WHERE p = 1 USING TIMEOUT 0ms"))
                .isInstanceOfSatisfying(ReadTimeoutException.class, e -> assertThat(e.getReceived()).isZero());
        assertThatThrownBy(() -> session.execute("SELECT * FROM ut.t USING TIMEOUT 0ms")).isInstanceOf(ReadTimeoutException.class);
        assertThatThrownBy(() -> session.execute("INSERT INTO ut.t (p, c, v) VALUES (2, 1, 1) USING TIMEOUT 0ms"))
                .isInstanceOfSatisfying(WriteTimeoutException.class, e -> assertThat(e.getWriteType()).isEqualTo(DefaultWriteType.SIMPLE));
        assertThatThrownBy(() -> session.execute("UPDATE ut.t USING TIMEOUT 0ms SET v = 5 WHERE p = 2 AND c = 1"))
                .isInstanceOf(WriteTimeoutException.class);
        assertThatThrownBy(() -> session.execute("DELETE FROM ut.t USING TIMEOUT 0ms AND TIMESTAMP 42 WHERE p = 1"))
                .isInstanceOf(WriteTimeoutException.class);
        assertThatThrownBy(() -> session.execute("BEGIN BATCH USING TIMEOUT 0ms INSERT INTO ut.t (p, c, v) VALUES (2, 2, 2); "
                        + "INSERT INTO ut.t (p, c, v) VALUES (3, 1, 1); APPLY BATCH"))
                .isInstanceOfSatisfying(WriteTimeoutException.class, e -> assertThat(e.getWriteType()).isEqualTo(DefaultWriteType.BATCH));
        assertThat(rowCount(1)).as("the timed-out delete deleted nothing").isEqualTo(1);
        assertThat(rowCount(2) + rowCount(3)).as("the timed-out writes wrote nothing").isZero();
    }

    @Test
    void timeoutsLongEnoughLetStatementsRunAndCombineWithTtlAndTimestamp() {
        session.execute("INSERT INTO ut.t (p, c, v) VALUES (10, 1, 1) USING TIMEOUT 60m AND TTL 1000000 AND TIMESTAMP 321");
        session.execute("INSERT INTO ut.t (p, c, v) VALUES (10, 2, 1) USING TIMESTAMP 42 AND TIMEOUT 30m");
        session.execute("UPDATE ut.t USING TIMEOUT 48h SET v = 5 WHERE p = 10 AND c = 2");
        session.execute("BEGIN UNLOGGED BATCH USING TIMEOUT 48h INSERT INTO ut.t (p, c, v) VALUES (11, 7, 8); "
                + "INSERT INTO ut.t (p, c, v) VALUES (12, 8, 9); APPLY BATCH");
        Row first = session.execute("SELECT ttl(v), writetime(v) FROM ut.t WHERE p = 10 AND c = 1 USING TIMEOUT 24h").one();
        assertThat(first.getInt(0)).isPositive();
        assertThat(first.getLong(1)).isEqualTo(321);
        assertThat(session.execute("SELECT v FROM ut.t WHERE p IN (10, 11, 12) USING TIMEOUT 24h").all())
                .extracting(r -> r.getInt("v")).containsExactlyInAnyOrder(1, 5, 8, 9);
    }

    @Test
    void theTimeoutBindsAsADurationMarkerNamedTimeout() {
        PreparedStatement insert = session.prepare("INSERT INTO ut.t (p, c, v) VALUES (20, 6, 7) USING TIMEOUT ?");
        ColumnDefinition marker = insert.getVariableDefinitions().get(0);
        assertThat(marker.getName().asInternal()).isEqualTo("[timeout]");
        assertThat(marker.getType()).isEqualTo(DataTypes.DURATION);
        assertThatThrownBy(() -> session.execute(insert.bind(ZERO))).isInstanceOf(WriteTimeoutException.class);
        session.execute(insert.bind(DAY));
        assertThat(rowCount(20)).isEqualTo(1);

        PreparedStatement select = session.prepare("SELECT * FROM ut.t WHERE p = 20 USING TIMEOUT ?");
        assertThatThrownBy(() -> session.execute(select.bind(ZERO))).isInstanceOf(ReadTimeoutException.class);
        assertThat(session.execute(select.bind(DAY)).all()).hasSize(1);

        PreparedStatement named = session.prepare("UPDATE ut.t USING TIMEOUT :timeout AND TIMESTAMP :ts SET v = :v WHERE p = 20 AND c = 6");
        assertThat(named.getVariableDefinitions().get(0).getName().asInternal()).isEqualTo("timeout");
        assertThatThrownBy(() -> session.execute(named.bind().setLong("ts", 42).setInt("v", 3)))
                .isInstanceOf(InvalidQueryException.class).hasMessage("Unexpected unset value for bind variable 0");
        session.execute(named.bind().setCqlDuration("timeout", DAY).setLong("ts", 42).setInt("v", 3));

        PreparedStatement batch = session.prepare("BEGIN BATCH USING TIMEOUT ? INSERT INTO ut.t (p, c, v) VALUES (21, 7, 10); APPLY BATCH");
        assertThatThrownBy(() -> session.execute(batch.bind(ZERO))).isInstanceOf(WriteTimeoutException.class);
        session.execute(batch.bind(DAY));
        assertThat(rowCount(21)).isEqualTo(1);
    }

    @Test
    void conditionalStatementsKeepPaxosTimeoutsAsInScyllaDb() {
        assertThat(session.execute("INSERT INTO ut.t (p, c, v) VALUES (30, 1, 1) IF NOT EXISTS USING TIMEOUT 0ms").wasApplied()).isTrue();
        assertThat(session.execute("UPDATE ut.t USING TIMEOUT 0ms SET v = 2 WHERE p = 30 AND c = 1 IF v = 1").wasApplied()).isTrue();
    }

    @Test
    void truncateGivesUpWhenItsTimeoutHasPassed() {
        session.execute("CREATE TABLE ut.truncated (k int PRIMARY KEY)");
        session.execute("INSERT INTO ut.truncated (k) VALUES (1)");
        assertThatThrownBy(() -> session.execute("TRUNCATE TABLE ut.truncated USING TIMEOUT 0s")).isInstanceOf(TruncateException.class);
        assertThat(session.execute("SELECT * FROM ut.truncated").all()).hasSize(1);
        session.execute(session.prepare("TRUNCATE ut.truncated USING TIMEOUT ?").bind(CqlDuration.from("1000s")));
        assertThat(session.execute("SELECT * FROM ut.truncated").all()).isEmpty();
    }

    @Test
    void badTimeoutsAreRejectedWithScyllaDbsErrors() {
        assertInvalid("SELECT * FROM ut.t USING TIMEOUT 'hey'", "Invalid STRING constant");
        assertInvalid("SELECT * FROM ut.t USING TIMEOUT 3mo", "Timeout values cannot be expressed in days/months");
        assertInvalid("SELECT * FROM ut.t USING TIMEOUT 40y", "Timeout values cannot be expressed in days/months");
        assertInvalid("SELECT * FROM ut.t USING TIMEOUT 917", "917");
        assertInvalid("SELECT * FROM ut.t USING TIMEOUT null", "Timeout value cannot be null");
        assertInvalid("SELECT * FROM ut.t USING TIMEOUT 60s5ns", "Timeout values cannot have granularity finer than milliseconds");
        assertInvalid("SELECT * FROM ut.t USING TIMEOUT -10ms", "Timeout values must be non-negative");
        assertInvalid("INSERT INTO ut.t (p, c, v) VALUES (1, 1, 1) USING TIMEOUT -10ms", "Timeout values must be non-negative");
        assertThatThrownBy(() -> session.execute("SELECT * FROM ut.t USING TIMEOUT 60s AND TIMESTAMP 42")).isInstanceOf(SyntaxError.class);
        assertThatThrownBy(() -> session.execute("SELECT * FROM ut.t USING TIMEOUT 60s AND TTL 10000")).isInstanceOf(SyntaxError.class);
        assertThatThrownBy(() -> session.execute("DELETE FROM ut.t USING TIMEOUT 60s AND TTL 42 WHERE p = 42")).isInstanceOf(SyntaxError.class);
    }

    @Test
    void scyllaTablesHasARowPerTableWithTheDefaultsNull() {
        session.execute("CREATE TABLE ut.described (k int PRIMARY KEY)");
        Row row = session.execute("SELECT * FROM system_schema.scylla_tables WHERE keyspace_name = 'ut' AND table_name = 'described'").one();
        assertThat(row).isNotNull();
        for (String property : List.of("cdc", "committed_by_group0", "in_memory", "partitioner", "tablets", "version")) {
            assertThat(row.isNull(property)).as(property).isTrue();
        }
        session.execute("DROP TABLE ut.described");
        assertThat(session.execute("SELECT table_name FROM system_schema.scylla_tables WHERE keyspace_name = 'ut'").all())
                .extracting(r -> r.getString(0)).doesNotContain("described").contains("t");
    }

    private static void assertInvalid(String cql, String message) {
        assertThatThrownBy(() -> session.execute(cql)).as(cql).isInstanceOf(InvalidQueryException.class).hasMessageContaining(message);
    }
}
