package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.NodeUnavailableException;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Lightweight-transaction semantics through the DataStax driver, on a cluster whose keyspace is replicated to every
 * node. Statements rotate over the nodes as coordinators ({@code setNode}), so on several nodes conditional updates of
 * one partition race between coordinators. The subclasses choose the cluster.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LwtSemantics {
    PaxosCluster cluster;
    CqlSession session;

    abstract PaxosCluster startCluster();

    @BeforeAll
    void start() {
        cluster = startCluster();
        session = cluster.session();
        session.execute("CREATE KEYSPACE lwt WITH replication = {'class': 'SimpleStrategy', 'replication_factor': " + cluster.size() + "}");
    }

    @AfterAll
    void stop() {
        if (session != null) session.close();
        if (cluster != null) cluster.close();
    }

    /** {@code statement} coordinated by node {@code coordinator} (modulo the cluster size). */
    <S extends Statement<S>> S on(int coordinator, S statement) {
        return statement.setNode(PaxosCluster.node(session, coordinator % cluster.size()));
    }

    ResultSet exec(int coordinator, String cql, Object... values) {
        return session.execute(on(coordinator, SimpleStatement.newInstance(cql, values)));
    }

    /**
     * A plain write that later LWTs must see: at QUORUM, since at the driver's default LOCAL_ONE the replica that
     * acknowledged it need not be in the next LWT's quorum yet (as with Cassandra).
     */
    ResultSet plain(int coordinator, String cql, Object... values) {
        return session.execute(on(coordinator, SimpleStatement.newInstance(cql, values).setConsistencyLevel(ConsistencyLevel.QUORUM)));
    }

    ResultSet serial(int coordinator, String cql, Object... values) {
        return session.execute(on(coordinator, SimpleStatement.newInstance(cql, values).setConsistencyLevel(ConsistencyLevel.SERIAL)));
    }

    static List<String> columns(ResultSet rs) {
        List<String> names = new ArrayList<>();
        rs.getColumnDefinitions().forEach(d -> names.add(d.getName().asInternal()));
        return names;
    }

    @Test
    void insertIfNotExistsAppliesOnceAndReportsTheRowItFound() {
        session.execute("CREATE TABLE lwt.ine (k int PRIMARY KEY, v int, w text)");
        ResultSet first = exec(0, "INSERT INTO lwt.ine (k, v, w) VALUES (1, 1, 'a') IF NOT EXISTS");
        assertThat(first.wasApplied()).isTrue();
        assertThat(columns(first)).as("no previous row: [applied] alone").containsExactly("[applied]");
        ResultSet second = exec(1, "INSERT INTO lwt.ine (k, v, w) VALUES (1, 2, 'b') IF NOT EXISTS");
        assertThat(second.wasApplied()).isFalse();
        Row existing = second.one();
        assertThat(existing.getInt("k")).isEqualTo(1);
        assertThat(existing.getInt("v")).isEqualTo(1);
        assertThat(existing.getString("w")).isEqualTo("a");
        Row read = serial(2, "SELECT v, w FROM lwt.ine WHERE k = 1").one();
        assertThat(read.getInt("v")).isEqualTo(1);
        assertThat(read.getString("w")).isEqualTo("a");
    }

    @Test
    void conditionsAreEvaluatedOnTheCurrentRow() {
        session.execute("CREATE TABLE lwt.cond (k int PRIMARY KEY, v int, w text)");
        plain(0, "INSERT INTO lwt.cond (k, v, w) VALUES (1, 1, 'a')");
        ResultSet applied = exec(1, "UPDATE lwt.cond SET v = 2 WHERE k = 1 IF v = 1");
        assertThat(applied.wasApplied()).isTrue();
        assertThat(applied.one().getInt("v")).as("applied: the previous value, as ScyllaDB reports it").isEqualTo(1);
        ResultSet stale = exec(2, "UPDATE lwt.cond SET v = 3 WHERE k = 1 IF v = 1");
        assertThat(stale.wasApplied()).isFalse();
        assertThat(columns(stale)).containsExactly("[applied]", "v");
        assertThat(stale.one().getInt("v")).isEqualTo(2);
        assertThat(exec(0, "UPDATE lwt.cond SET v = 3 WHERE k = 1 IF v > 1 AND w = 'a'").wasApplied()).isTrue();
        assertThat(exec(1, "UPDATE lwt.cond SET v = 4 WHERE k = 1 IF v IN (7, 8)").wasApplied()).isFalse();
        assertThat(exec(2, "UPDATE lwt.cond SET w = 'b' WHERE k = 1 IF v IN (3, 8) AND w != 'b'").wasApplied()).isTrue();
        ResultSet missing = exec(0, "UPDATE lwt.cond SET v = 9 WHERE k = 2 IF v = 1");
        assertThat(missing.wasApplied()).isFalse();
        assertThat(columns(missing)).as("no row: [applied] alone").containsExactly("[applied]");
        assertThat(exec(1, "UPDATE lwt.cond SET v = 5 WHERE k = 3 IF v = null").wasApplied()).as("a missing value is null").isTrue();
        Row one = serial(2, "SELECT v, w FROM lwt.cond WHERE k = 1").one();
        assertThat(one.getInt("v")).isEqualTo(3);
        assertThat(one.getString("w")).isEqualTo("b");
        assertThat(serial(0, "SELECT v FROM lwt.cond WHERE k = 3").one().getInt("v")).isEqualTo(5);
    }

    /**
     * A plain write takes the driver's client-side timestamp (microseconds); an LWT issued after it was acknowledged
     * must write at a later timestamp, or last-write-wins would let the older plain write shadow the LWT.
     */
    @Test
    void anLwtAfterAnAcknowledgedPlainWriteIsNotShadowedByIt() {
        session.execute("CREATE TABLE lwt.after (k int PRIMARY KEY, v int)");
        PreparedStatement plain = session.prepare("INSERT INTO lwt.after (k, v) VALUES (?, 1)");
        PreparedStatement conditional = session.prepare("UPDATE lwt.after SET v = 2 WHERE k = ? IF EXISTS");
        PreparedStatement read = session.prepare("SELECT v FROM lwt.after WHERE k = ?");
        for (int k = 0; k < 100; k++) {
            // At QUORUM: a write the driver's default LOCAL_ONE acknowledged may not have reached the LWT's quorum yet.
            session.execute(on(k, plain.bind(k).setConsistencyLevel(ConsistencyLevel.QUORUM)));
            assertThat(session.execute(on(k, conditional.bind(k))).wasApplied()).isTrue();
            assertThat(session.execute(on(k + 1, read.bind(k).setConsistencyLevel(ConsistencyLevel.SERIAL))).one().getInt("v"))
                    .as("key %d: the LWT's value, not the plain write's", k).isEqualTo(2);
        }
    }

    /**
     * §5.6: a plain write stamped by a client whose clock runs ahead (here 300 ms) is in the state an LWT reads; the
     * LWT's ballot moves past it, so its write wins and a read shows it. Beyond a second ahead the ballot does not
     * follow (that would drag every later ballot into the future), and last-write-wins keeps the plain write.
     */
    @Test
    void anLwtAfterAPlainWriteFromAClockAheadIsNotShadowedByIt() {
        session.execute("CREATE TABLE lwt.ahead (k int PRIMARY KEY, v int)");
        PreparedStatement plain = session.prepare("INSERT INTO lwt.ahead (k, v) VALUES (?, 1) USING TIMESTAMP ?");
        PreparedStatement conditional = session.prepare("UPDATE lwt.ahead SET v = 2 WHERE k = ? IF v = 1");
        PreparedStatement read = session.prepare("SELECT v, writetime(v) AS at FROM lwt.ahead WHERE k = ?");
        for (int k = 0; k < 5; k++) {
            long ahead = System.currentTimeMillis() * 1000 + 300_000;
            session.execute(on(k, plain.bind(k, ahead).setConsistencyLevel(ConsistencyLevel.QUORUM)));
            assertThat(session.execute(on(k, conditional.bind(k))).wasApplied()).isTrue();
            Row row = session.execute(on(k + 1, read.bind(k).setConsistencyLevel(ConsistencyLevel.SERIAL))).one();
            assertThat(row.getInt("v")).as("key %d: the LWT's value, not the plain write's", k).isEqualTo(2);
            assertThat(row.getLong("at")).isGreaterThan(ahead);
        }
        long farAhead = System.currentTimeMillis() * 1000 + 3_600_000_000L;
        session.execute(on(9, plain.bind(9, farAhead).setConsistencyLevel(ConsistencyLevel.QUORUM)));
        assertThat(session.execute(on(9, conditional.bind(9))).wasApplied()).isTrue();
        assertThat(session.execute(on(0, read.bind(9).setConsistencyLevel(ConsistencyLevel.SERIAL))).one().getLong("at"))
                .as("an hour ahead: not followed").isEqualTo(farAhead);
    }

    @Test
    void insertJsonIfNotExistsAppliesOnce() {
        session.execute("CREATE TABLE lwt.json (k int PRIMARY KEY, v int, w text)");
        ResultSet first = exec(0, "INSERT INTO lwt.json JSON '{\"k\": 1, \"v\": 2, \"w\": \"a\"}' IF NOT EXISTS");
        assertThat(first.wasApplied()).isTrue();
        ResultSet second = exec(1, "INSERT INTO lwt.json JSON ? IF NOT EXISTS", "{\"k\": 1, \"v\": 3}");
        assertThat(second.wasApplied()).isFalse();
        assertThat(second.one().getInt("v")).as("the row that exists").isEqualTo(2);
        Row row = serial(2, "SELECT v, w FROM lwt.json WHERE k = 1").one();
        assertThat(row.getInt("v")).isEqualTo(2);
        assertThat(row.getString("w")).isEqualTo("a");
        assertThatThrownBy(() -> exec(0, "INSERT INTO lwt.json JSON '{\"k\": 2}' IF NOT EXISTS USING TIMESTAMP 5"))
                .isInstanceOf(InvalidQueryException.class).hasMessageContaining("custom timestamp");
    }

    @Test
    void ifExistsTouchesOnlyExistingRows() {
        session.execute("CREATE TABLE lwt.ex (k int PRIMARY KEY, v int)");
        assertThat(exec(0, "DELETE FROM lwt.ex WHERE k = 1 IF EXISTS").wasApplied()).isFalse();
        assertThat(exec(1, "UPDATE lwt.ex SET v = 1 WHERE k = 1 IF EXISTS").wasApplied()).isFalse();
        assertThat(serial(2, "SELECT * FROM lwt.ex WHERE k = 1").one()).isNull();
        plain(0, "INSERT INTO lwt.ex (k, v) VALUES (1, 1)");
        assertThat(exec(1, "UPDATE lwt.ex SET v = 2 WHERE k = 1 IF EXISTS").wasApplied()).isTrue();
        ResultSet deleted = exec(2, "DELETE FROM lwt.ex WHERE k = 1 IF EXISTS");
        assertThat(deleted.wasApplied()).isTrue();
        assertThat(deleted.one().getInt("v")).as("the row as it was before the delete").isEqualTo(2);
        assertThat(serial(0, "SELECT * FROM lwt.ex WHERE k = 1").one()).isNull();
        assertThat(exec(1, "INSERT INTO lwt.ex (k, v) VALUES (1, 5) IF NOT EXISTS").wasApplied()).as("a deleted row does not exist").isTrue();
        assertThat(serial(2, "SELECT v FROM lwt.ex WHERE k = 1").one().getInt("v")).isEqualTo(5);
    }

    @Test
    void clusteringRowsAndStaticColumnsHaveTheirOwnConditions() {
        session.execute("CREATE TABLE lwt.st (k int, c int, s int static, v int, PRIMARY KEY (k, c))");
        assertThat(exec(0, "INSERT INTO lwt.st (k, c, s, v) VALUES (1, 1, 10, 1) IF NOT EXISTS").wasApplied()).isTrue();
        assertThat(exec(1, "INSERT INTO lwt.st (k, c, v) VALUES (1, 2, 2) IF NOT EXISTS").wasApplied()).as("another row").isTrue();
        assertThat(exec(2, "UPDATE lwt.st SET s = 11 WHERE k = 1 IF s = 10").wasApplied()).isTrue();
        assertThat(exec(0, "UPDATE lwt.st SET v = 3 WHERE k = 1 AND c = 2 IF s = 11 AND v = 2").wasApplied()).isTrue();
        ResultSet stale = exec(1, "UPDATE lwt.st SET s = 12 WHERE k = 1 IF s = 10");
        assertThat(stale.wasApplied()).isFalse();
        assertThat(stale.one().getInt("s")).isEqualTo(11);
        List<String> rows = new ArrayList<>();
        for (Row r : serial(2, "SELECT c, s, v FROM lwt.st WHERE k = 1")) rows.add(r.getInt("c") + ":" + r.getInt("s") + ":" + r.getInt("v"));
        assertThat(rows).containsExactly("1:11:1", "2:11:3");
    }

    @Test
    void aStatementsOwnErrorReachesTheClient() {
        session.execute("CREATE TABLE lwt.err (k int PRIMARY KEY, l list<int>)");
        plain(0, "INSERT INTO lwt.err (k, l) VALUES (1, [1])");
        assertThatThrownBy(() -> exec(1, "UPDATE lwt.err SET l[5] = 9 WHERE k = 1 IF EXISTS"))
                .isInstanceOf(InvalidQueryException.class).hasMessageContaining("List index 5 out of bound");
        assertThat(exec(2, "UPDATE lwt.err SET l[0] = 9 WHERE k = 1 IF EXISTS").wasApplied()).isTrue();
        assertThat(serial(0, "SELECT l FROM lwt.err WHERE k = 1").one().getList("l", Integer.class)).containsExactly(9);
    }

    @Test
    void serialReadsSeeEveryAppliedUpdateWithLimitsAndPaging() {
        session.execute("CREATE TABLE lwt.sr (k int, c int, v int, PRIMARY KEY (k, c))");
        for (int c = 1; c <= 5; c++) {
            assertThat(exec(c, "INSERT INTO lwt.sr (k, c, v) VALUES (1, ?, ?) IF NOT EXISTS", c, c * 10).wasApplied()).isTrue();
            assertThat(serial(c + 1, "SELECT v FROM lwt.sr WHERE k = 1 AND c = ?", c).one().getInt("v")).isEqualTo(c * 10);
        }
        assertThat(clusterings(serial(0, "SELECT c FROM lwt.sr WHERE k = 1 LIMIT 2"))).containsExactly(1, 2);
        assertThat(clusterings(serial(1, "SELECT c FROM lwt.sr WHERE k = 1 ORDER BY c DESC LIMIT 2"))).containsExactly(5, 4);
        assertThat(clusterings(serial(2, "SELECT c FROM lwt.sr WHERE k = 1 AND c > 2"))).containsExactly(3, 4, 5);
        ResultSet paged = session.execute(on(0, SimpleStatement.newInstance("SELECT c FROM lwt.sr WHERE k = 1")
                .setConsistencyLevel(ConsistencyLevel.SERIAL).setPageSize(2)));
        assertThat(clusterings(paged)).as("all pages").containsExactly(1, 2, 3, 4, 5);
        assertThatThrownBy(() -> serial(1, "SELECT c FROM lwt.sr WHERE k IN (1, 2)")).isInstanceOf(InvalidQueryException.class)
                .hasMessage("SERIAL/LOCAL_SERIAL consistency may only be requested for one partition at a time");
        assertThat(clusterings(serial(2, "SELECT c FROM lwt.sr"))).as("a scan at SERIAL reads at QUORUM, as in Cassandra")
                .containsExactly(1, 2, 3, 4, 5);
    }

    private static List<Integer> clusterings(ResultSet rs) {
        List<Integer> out = new ArrayList<>();
        for (Row r : rs) out.add(r.getInt("c"));
        return out;
    }

    /**
     * Read-modify-CAS increments from several threads on every coordinator: each applied increment adds one to v and
     * its own token to a set, so v equals the number of tokens unless an update was lost, and every increment
     * acknowledged as applied must have its token there. An increment answered WriteTimeout(CAS) may or may not have
     * applied; it is counted only as a bound.
     */
    @Test
    void concurrentIncrementsNeverLoseAnUpdate() throws Exception {
        session.execute("CREATE TABLE lwt.counter (k int PRIMARY KEY, v int, tokens set<uuid>)");
        exec(0, "INSERT INTO lwt.counter (k, v) VALUES (0, 0) IF NOT EXISTS");
        PreparedStatement increment = session.prepare("UPDATE lwt.counter SET v = ?, tokens = tokens + ? WHERE k = 0 IF v = ?");
        PreparedStatement read = session.prepare("SELECT v FROM lwt.counter WHERE k = 0");
        int threads = 4;
        int increments = 25;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        Set<UUID> acknowledged = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.concurrent.atomic.AtomicInteger unknown = new java.util.concurrent.atomic.AtomicInteger();
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int coordinator = t;
            workers.add(pool.submit(() -> {
                int current = sent(() -> session.execute(on(coordinator, read.bind().setConsistencyLevel(ConsistencyLevel.SERIAL)))).one().getInt("v");
                for (int done = 0; done < increments; ) {
                    UUID token = UUID.randomUUID();
                    BoundStatement next = on(coordinator, increment.bind(current + 1, Set.of(token), current));
                    try {
                        ResultSet rs = sent(() -> session.execute(next));
                        if (rs.wasApplied()) {
                            acknowledged.add(token);
                            done++;
                            current++;
                        } else {
                            current = rs.one().getInt("v");
                        }
                    } catch (WriteTimeoutException e) {
                        unknown.incrementAndGet();
                        current = sent(() -> session.execute(on(coordinator, read.bind().setConsistencyLevel(ConsistencyLevel.SERIAL)))).one().getInt("v");
                    }
                }
                return null;
            }));
        }
        pool.shutdown();
        for (Future<?> w : workers) w.get(180, TimeUnit.SECONDS);
        Row result = serial(1, "SELECT v, tokens FROM lwt.counter WHERE k = 0").one();
        Set<UUID> tokens = new HashSet<>(result.getSet("tokens", UUID.class));
        assertThat(acknowledged).hasSize(threads * increments);
        assertThat(tokens).as("every acknowledged increment is there").containsAll(acknowledged);
        assertThat(result.getInt("v")).as("no lost update: one increment per applied update").isEqualTo(tokens.size());
        assertThat(tokens.size() - acknowledged.size()).as("only increments with an unknown outcome may add more")
                .isBetween(0, unknown.get());
    }

    /**
     * Runs {@code request}, again while the driver has no open connection to the pinned coordinator (it reconnects a
     * pool that a loaded machine let time out); such a request was never sent, so repeating it is safe.
     */
    static ResultSet sent(java.util.function.Supplier<ResultSet> request) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return request.get();
            } catch (AllNodesFailedException e) {
                boolean notSent = e.getAllErrors().values().stream().flatMap(List::stream).allMatch(NodeUnavailableException.class::isInstance);
                if (!notSent || attempt == 50) throw e;
                Thread.sleep(100);
            }
        }
    }
}
