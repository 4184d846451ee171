package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Admission control (issue 12, docs/admission.md), end to end: a node with one request thread and room for four
 * waiting requests gets 400 requests at once on one connection. Those it cannot queue are answered OVERLOADED (0x1001)
 * at once, with a message naming the setting, the others are answered, and afterwards the node serves as before.
 * Before admission control every request was queued, however many, and none was refused.
 */
class OverloadIT {
    private static final int BURST = 400;

    @Test
    void requestsPastTheQueueAreRefusedOverloadedAndTheNodeRecovers() throws Exception {
        try (TestNode node = TestNode.start("overload", config -> {
                    config.requestThreads = 1;
                    config.admissionQueueMax = 4;
                });
                CqlSession session = node.session()) {
            session.execute("CREATE KEYSPACE ov WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute("CREATE TABLE ov.t (k int, c int, v text, PRIMARY KEY (k, c))");
            PreparedStatement insert = session.prepare("INSERT INTO ov.t (k, c, v) VALUES (0, ?, 'a row that takes a little reading')");
            for (int c = 0; c < 500; c += 50) {
                BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.UNLOGGED);
                for (int i = c; i < c + 50; i++) batch.addStatement(insert.bind(i));
                session.execute(batch.build());
            }

            Answers answers;
            try (RawCqlConnection raw = RawCqlConnection.open(node.address())) {
                raw.startup(Map.of("CQL_VERSION", "3.0.0"));
                for (int stream = 1; stream <= BURST; stream++) raw.sendQuery(stream, "SELECT * FROM ov.t WHERE k = 0");
                answers = Answers.of(raw, Set.of());
            }
            assertThat(answers.other()).as("answers other than rows or OVERLOADED").isEmpty();
            assertThat(answers.overloaded()).as("requests refused with OVERLOADED").isNotEmpty();
            assertThat(answers.overloaded().get(0)).contains("admission queue is full").contains("admission_queue_max=4");
            assertThat(answers.rows()).as("requests answered with rows").isGreaterThan(0);

            for (int i = 0; i < 20; i++)
                assertThat(session.execute("SELECT count(*) FROM ov.t WHERE k = 0").one().getLong(0)).as("after the burst").isEqualTo(500);
        }
    }

    /**
     * The per-partition cap: with at most two conditional statements allowed to wait for one partition, a burst of
     * 400 on one partition gets some OVERLOADED answers naming the setting; the others are decided, and the partition
     * takes statements afterwards.
     */
    @Test
    void conditionalStatementsPastThePartitionCapAreRefusedOverloaded() throws Exception {
        try (TestNode node = TestNode.start("partition-cap", config -> config.admissionPartitionLwtQueueMax = 2);
                CqlSession session = node.session()) {
            session.execute("CREATE KEYSPACE pc WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute("CREATE TABLE pc.t (k int PRIMARY KEY, v int)");
            int decided = 0;
            List<String> overloaded = new ArrayList<>();
            List<String> other = new ArrayList<>();
            try (RawCqlConnection raw = RawCqlConnection.open(node.address())) {
                raw.startup(Map.of("CQL_VERSION", "3.0.0"));
                for (int stream = 1; stream <= BURST; stream++) raw.sendQuery(stream, "UPDATE pc.t SET v = " + stream + " WHERE k = 0 IF v != -1");
                for (int i = 0; i < BURST; i++) {
                    RawCqlConnection.Frame answer = raw.receive();
                    if (answer.opcode() == 0x08) {
                        decided++;
                        continue;
                    }
                    RawCqlConnection.Error error = RawCqlConnection.error(answer);
                    if (error.code() == 0x1001) overloaded.add(error.message());
                    else other.add(Integer.toHexString(error.code()) + " " + error.message());
                }
            }
            assertThat(other).as("answers other than decisions or OVERLOADED").isEmpty();
            assertThat(overloaded).as("statements refused with OVERLOADED").isNotEmpty();
            assertThat(overloaded.get(0)).contains("wait for this partition of pc.t").contains("admission_partition_lwt_queue_max");
            assertThat(decided).as("statements decided").isGreaterThan(0);
            assertThat(session.execute("INSERT INTO pc.t (k, v) VALUES (1, 1) IF NOT EXISTS").wasApplied()).as("after the burst").isTrue();
        }
    }

    /**
     * A keyspace admitted at background priority ({@code admission_background_keyspaces}) gives way: while a burst of
     * its reads overflows the queue, reads of another keyspace sent meanwhile on another connection are all answered
     * (a full queue refuses the background request, not the normal one).
     */
    @Test
    void backgroundKeyspacesGiveWayToOthersWhenTheQueueIsFull() throws Exception {
        try (TestNode node = TestNode.start("background", config -> {
                    config.requestThreads = 1;
                    config.admissionQueueMax = 4;
                    config.admissionBackgroundKeyspaces = List.of("bulk");
                });
                CqlSession session = node.session()) {
            for (String keyspace : List.of("bulk", "live")) writePartitionToRead(session, keyspace);
            int bulkOverloaded = 0;
            List<String> liveRefused = new ArrayList<>();
            try (RawCqlConnection bulk = RawCqlConnection.open(node.address()); RawCqlConnection live = RawCqlConnection.open(node.address())) {
                bulk.startup(Map.of("CQL_VERSION", "3.0.0"));
                live.startup(Map.of("CQL_VERSION", "3.0.0"));
                live.query("USE live");
                bulk.query("USE bulk");
                for (int stream = 1; stream <= BURST; stream++) bulk.sendQuery(stream, "SELECT * FROM t WHERE k = 0");
                for (int i = 0; i < 10; i++) {
                    RawCqlConnection.Response answer = live.query("SELECT * FROM t WHERE k = 0", 0);
                    if (answer.opcode() != 0x08)
                        liveRefused.add(RawCqlConnection.error(new RawCqlConnection.Frame(answer.opcode(), answer.body())).message());
                }
                for (int i = 0; i < BURST; i++) {
                    RawCqlConnection.Frame answer = bulk.receive();
                    if (answer.opcode() != 0x08 && RawCqlConnection.error(answer).code() == 0x1001) bulkOverloaded++;
                }
            }
            assertThat(bulkOverloaded).as("background reads refused with OVERLOADED").isPositive();
            assertThat(liveRefused).as("normal reads refused while the background burst overflowed the queue").isEmpty();
        }
    }

    /**
     * A request whose custom payload lowers it to background priority ({@code ballot.priority}) gives way as a
     * background keyspace does: in one keyspace, a burst of lowered reads overflows the queue and is refused, while
     * reads sent meanwhile without the key are all answered. A value other than normal or background is INVALID.
     */
    @Test
    void requestsLoweredByTheirCustomPayloadGiveWayToOthers() throws Exception {
        try (TestNode node = TestNode.start("payload-priority", config -> {
                    config.requestThreads = 1;
                    config.admissionQueueMax = 4;
                });
                CqlSession session = node.session()) {
            writePartitionToRead(session, "shared");
            int loweredOverloaded = 0;
            List<String> normalRefused = new ArrayList<>();
            try (RawCqlConnection lowered = RawCqlConnection.open(node.address()); RawCqlConnection normal = RawCqlConnection.open(node.address())) {
                lowered.startup(Map.of("CQL_VERSION", "3.0.0"));
                normal.startup(Map.of("CQL_VERSION", "3.0.0"));
                for (int stream = 1; stream <= BURST; stream++)
                    lowered.sendQuery(stream, "SELECT * FROM shared.t WHERE k = 0", Map.of("ballot.priority", "background"));
                for (int i = 0; i < 10; i++) {
                    RawCqlConnection.Response answer = normal.query("SELECT * FROM shared.t WHERE k = 0", 0);
                    if (answer.opcode() != 0x08)
                        normalRefused.add(RawCqlConnection.error(new RawCqlConnection.Frame(answer.opcode(), answer.body())).message());
                }
                for (int i = 0; i < BURST; i++) {
                    RawCqlConnection.Frame answer = lowered.receive();
                    if (answer.opcode() != 0x08 && RawCqlConnection.error(answer).code() == 0x1001) loweredOverloaded++;
                }

                lowered.sendQuery(1, "SELECT * FROM shared.t WHERE k = 0", Map.of("ballot.priority", "system"));
                RawCqlConnection.Frame raised = lowered.receive();
                assertThat(raised.opcode()).as("a request that asks for a priority above normal").isEqualTo(0x00);
                assertThat(RawCqlConnection.error(raised).code()).isEqualTo(0x2200);
                assertThat(RawCqlConnection.error(raised).message()).contains("ballot.priority", "'normal' or 'background'");
            }
            assertThat(loweredOverloaded).as("lowered reads refused with OVERLOADED").isPositive();
            assertThat(normalRefused).as("normal reads refused while the lowered burst overflowed the queue").isEmpty();
        }
    }

    /**
     * A prepared statement's USING TIMEOUT is also its admission deadline (docs/admission.md): of a burst on one request
     * thread, the executions that would start after waiting their 20 ms are refused OVERLOADED, naming USING TIMEOUT,
     * although admission_max_wait_in_ms would have let them wait 30 s. Those that start may still time out running.
     */
    @Test
    void preparedStatementsAreNotStartedAfterTheirUsingTimeout() throws Exception {
        assertNotStartedAfterUsingTimeout("using-timeout", "ut", (raw, cql) -> {
            byte[] select = raw.prepare(cql).id();
            for (int stream = 1; stream <= BURST; stream++) raw.sendExecute(stream, select);
        });
    }

    /**
     * The same for an unprepared statement: the node reads its USING TIMEOUT before admitting it (docs/admission.md,
     * "Deadlines"). Before, an unprepared statement was parsed only once admitted, so every one of the burst waited its
     * turn (up to admission_max_wait_in_ms, 30 s here) and none was refused.
     */
    @Test
    void unpreparedStatementsAreNotStartedAfterTheirUsingTimeout() throws Exception {
        assertNotStartedAfterUsingTimeout("query-using-timeout", "qut", (raw, cql) -> {
            for (int stream = 1; stream <= BURST; stream++) raw.sendQuery(stream, cql);
        });
    }

    /** Sends {@link #BURST} statements of {@code cql} on {@code raw}. */
    private interface Burst {
        void send(RawCqlConnection raw, String cql) throws java.io.IOException;
    }

    /**
     * On a node with one request thread and admission_max_wait_in_ms of 30 s, a burst of reads with USING TIMEOUT 20ms:
     * some are refused OVERLOADED naming their USING TIMEOUT, some answered with rows, others time out running.
     */
    private static void assertNotStartedAfterUsingTimeout(String name, String keyspace, Burst burst) throws Exception {
        try (TestNode node = TestNode.start(name, config -> {
                    config.requestThreads = 1;
                    config.admissionQueueMax = 1000;
                    config.admissionMaxWaitMillis = 30_000;
                });
                CqlSession session = node.session()) {
            writePartitionToRead(session, keyspace);
            Answers answers;
            try (RawCqlConnection raw = RawCqlConnection.open(node.address())) {
                raw.startup(Map.of("CQL_VERSION", "3.0.0"));
                burst.send(raw, "SELECT * FROM " + keyspace + ".t WHERE k = 0 USING TIMEOUT 20ms");
                answers = Answers.of(raw, Set.of(0x1200)); // a read timeout: started in time, ran too long
            }
            assertThat(answers.other()).as("answers other than rows, OVERLOADED or a read timeout").isEmpty();
            assertThat(answers.overloaded()).as("statements refused once their USING TIMEOUT passed in the queue").isNotEmpty();
            assertThat(answers.overloaded().get(0)).contains("waited 20 ms", "(its USING TIMEOUT)");
            assertThat(answers.rows()).as("statements answered with rows").isPositive();
        }
    }

    /** The answers to a burst of {@link #BURST}: rows, OVERLOADED messages, and other errors not in {@code tolerated}. */
    private record Answers(int rows, List<String> overloaded, List<String> other) {
        static Answers of(RawCqlConnection raw, Set<Integer> tolerated) throws java.io.IOException {
            int rows = 0;
            List<String> overloaded = new ArrayList<>();
            List<String> other = new ArrayList<>();
            for (int i = 0; i < BURST; i++) {
                RawCqlConnection.Frame answer = raw.receive();
                if (answer.opcode() == 0x08) {
                    rows++;
                    continue;
                }
                RawCqlConnection.Error error = RawCqlConnection.error(answer);
                if (error.code() == 0x1001) overloaded.add(error.message());
                else if (!tolerated.contains(error.code())) other.add(Integer.toHexString(error.code()) + " " + error.message());
            }
            return new Answers(rows, overloaded, other);
        }
    }

    /** {@code keyspace}.t with partition 0 of 500 rows: a read that takes the one request thread a little while. */
    private static void writePartitionToRead(CqlSession session, String keyspace) {
        session.execute("CREATE KEYSPACE " + keyspace + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE " + keyspace + ".t (k int, c int, v text, PRIMARY KEY (k, c))");
        PreparedStatement insert = session.prepare("INSERT INTO " + keyspace + ".t (k, c, v) VALUES (0, ?, 'a row that takes a little reading')");
        for (int c = 0; c < 500; c += 50) {
            BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.UNLOGGED);
            for (int i = c; i < c + 50; i++) batch.addStatement(insert.bind(i));
            session.execute(batch.build());
        }
    }
}
