package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * BATCH with conditions on a real node through the DataStax driver: text batches and protocol batches of bound
 * prepared statements run as one compare-and-set on one partition; every statement is written only if every condition
 * holds; the answer shows each conditioned row that exists with its key, as it was before (applied) or as it is (not
 * applied); and what Cassandra refuses is refused with its messages (batches over several partitions, which
 * Cassandra refuses, are transactions here: MultiPartitionBatchIT).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConditionalBatchIT {
    private PaxosCluster cluster;
    private CqlSession session;

    @BeforeAll
    void start() {
        cluster = PaxosCluster.start("cbatch", 1, 1000);
        session = cluster.session();
        session.execute("CREATE KEYSPACE cb WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE cb.t (k int, c int, s int static, v int, w text, PRIMARY KEY (k, c))");
        session.execute("CREATE TABLE cb.other (k int PRIMARY KEY, v int)");
        session.execute("CREATE TABLE cb.cnt (k int PRIMARY KEY, n counter)");
    }

    @AfterAll
    void stop() {
        if (session != null) session.close();
        if (cluster != null) cluster.close();
    }

    private static List<String> columns(ResultSet rs) {
        List<String> names = new ArrayList<>();
        rs.getColumnDefinitions().forEach(d -> names.add(d.getName().asInternal()));
        return names;
    }

    /** Each row's values in column order, joined by ':', null for a missing value. */
    private static List<String> rows(ResultSet rs) {
        List<String> out = new ArrayList<>();
        for (Row r : rs) {
            List<String> values = new ArrayList<>();
            for (int i = 0; i < r.size(); i++) values.add(String.valueOf(r.getObject(i)));
            out.add(String.join(":", values));
        }
        return out;
    }

    /** The partition as a SERIAL read sees it: "c:s:v:w" per row. */
    private List<String> serialRead(int k) {
        List<String> out = new ArrayList<>();
        SimpleStatement read = SimpleStatement.newInstance("SELECT c, s, v, w FROM cb.t WHERE k = ?", k).setConsistencyLevel(ConsistencyLevel.SERIAL);
        for (Row r : session.execute(read)) out.add(r.getObject("c") + ":" + r.getObject("s") + ":" + r.getObject("v") + ":" + r.getObject("w"));
        return out;
    }

    @Test
    void aTextBatchAppliesAllOrNothingOnConditionsOverTwoRowsAndTheStaticRow() {
        session.execute("BEGIN BATCH INSERT INTO cb.t (k, c, v, w) VALUES (1, 1, 10, 'a'); INSERT INTO cb.t (k, c, v, w) VALUES (1, 2, 20, 'b'); "
                + "UPDATE cb.t SET s = 5 WHERE k = 1; APPLY BATCH");
        String batch = "BEGIN BATCH "
                + "UPDATE cb.t SET v = 21 WHERE k = 1 AND c = 2 IF v = 20; "
                + "UPDATE cb.t SET v = 11, s = 6 WHERE k = 1 AND c = 1 IF v = 10 AND s = 5; "
                + "INSERT INTO cb.t (k, c, v, w) VALUES (1, 3, 30, 'c'); "
                + "APPLY BATCH";

        ResultSet applied = session.execute(batch);
        assertThat(applied.wasApplied()).isTrue();
        assertThat(columns(applied)).as("key, then each statement's regular conditioned columns before its static ones, as Cassandra")
                .containsExactly("[applied]", "k", "c", "v", "s");
        assertThat(rows(applied)).as("the conditioned rows as they were, in clustering order").containsExactly("true:1:1:10:5", "true:1:2:20:5");
        assertThat(serialRead(1)).containsExactly("1:6:11:a", "2:6:21:b", "3:6:30:c");

        ResultSet again = session.execute(batch);
        assertThat(again.wasApplied()).isFalse();
        assertThat(rows(again)).as("the rows as they are now").containsExactly("false:1:1:11:6", "false:1:2:21:6");
        session.execute("DELETE FROM cb.t WHERE k = 1 AND c = 3");
        session.execute(batch);
        assertThat(serialRead(1)).as("the plain insert waits for the conditions too").containsExactly("1:6:11:a", "2:6:21:b");
    }

    @Test
    void aProtocolBatchOfBoundPreparedStatementsIsOneCompareAndSet() {
        PreparedStatement insert = session.prepare("INSERT INTO cb.t (k, c, v, w) VALUES (?, ?, ?, ?) IF NOT EXISTS");
        PreparedStatement update = session.prepare("UPDATE cb.t SET v = ? WHERE k = ? AND c = ? IF v = ?");
        PreparedStatement plain = session.prepare("UPDATE cb.t SET w = ? WHERE k = ? AND c = ?");

        ResultSet created = session.execute(BatchStatement.newInstance(DefaultBatchType.LOGGED,
                insert.bind(2, 1, 10, "a"), insert.bind(2, 2, 20, "b"), plain.bind("z", 2, 3)));
        assertThat(created.wasApplied()).isTrue();
        assertThat(columns(created)).as("no row existed").containsExactly("[applied]");

        BatchStatement stale = BatchStatement.newInstance(DefaultBatchType.LOGGED,
                update.bind(11, 2, 1, 10), update.bind(21, 2, 2, 99), plain.bind("y", 2, 3))
                .setSerialConsistencyLevel(ConsistencyLevel.LOCAL_SERIAL).setConsistencyLevel(ConsistencyLevel.QUORUM);
        ResultSet notApplied = session.execute(stale);
        assertThat(notApplied.wasApplied()).isFalse();
        assertThat(columns(notApplied)).containsExactly("[applied]", "k", "c", "v");
        assertThat(rows(notApplied)).containsExactly("false:2:1:10", "false:2:2:20");

        ResultSet applied = session.execute(BatchStatement.newInstance(DefaultBatchType.UNLOGGED,
                update.bind(11, 2, 1, 10), update.bind(21, 2, 2, 20), plain.bind("y", 2, 3)));
        assertThat(applied.wasApplied()).isTrue();
        assertThat(rows(applied)).containsExactly("true:2:1:10", "true:2:2:20");
        assertThat(serialRead(2)).containsExactly("1:null:11:a", "2:null:21:b", "3:null:null:y");
    }

    @Test
    void aPreparedTextBatchWithConditionsRuns() {
        PreparedStatement batch = session.prepare("BEGIN BATCH INSERT INTO cb.t (k, c, v) VALUES (?, ?, ?) IF NOT EXISTS; "
                + "UPDATE cb.t SET s = ? WHERE k = ?; APPLY BATCH");

        assertThat(session.execute(batch.bind(3, 1, 10, 7, 3)).wasApplied()).isTrue();
        ResultSet again = session.execute(batch.bind(3, 1, 11, 8, 3));
        assertThat(again.wasApplied()).isFalse();
        assertThat(columns(again)).containsExactly("[applied]", "k", "c", "s", "v", "w");
        // only the conditional statement chooses what the answer reads: its row's regular columns, not the static s
        // the plain UPDATE writes (Cassandra 5.0.9 answers s = null here too)
        assertThat(rows(again)).containsExactly("false:3:1:null:10:null");
        assertThat(serialRead(3)).containsExactly("1:7:10:null");
    }

    @Test
    void refusesBatchesCassandraRefuses() {
        assertRefused("BEGIN BATCH USING TIMESTAMP 5 UPDATE cb.t SET v = 1 WHERE k = 1 AND c = 1 IF v = 10; APPLY BATCH",
                "Cannot provide custom timestamp for conditional BATCH");
        assertRefused("BEGIN BATCH UPDATE cb.t USING TIMESTAMP 5 SET v = 1 WHERE k = 1 AND c = 1 IF v = 10; APPLY BATCH",
                "Cannot provide custom timestamp for conditional updates");
        assertRefused("BEGIN COUNTER BATCH UPDATE cb.cnt SET n = n + 1 WHERE k = 1 IF n = 0; APPLY BATCH",
                "Conditions on counters are not supported");
        assertRefused("BEGIN COUNTER BATCH UPDATE cb.cnt SET n = n + 1 WHERE k = 1 IF EXISTS; APPLY BATCH",
                "Conditional updates are not supported on counter tables");
        assertRefused("BEGIN COUNTER BATCH UPDATE cb.cnt SET n = n + 1 WHERE k = 1; UPDATE cb.other SET v = 1 WHERE k = 1 IF v = 0; APPLY BATCH",
                "Cannot include non-counter statement in a counter batch");
    }

    private void assertRefused(String cql, String message) {
        assertThatThrownBy(() -> session.execute(cql)).as(cql).isInstanceOf(InvalidQueryException.class).hasMessage(message);
    }
}
