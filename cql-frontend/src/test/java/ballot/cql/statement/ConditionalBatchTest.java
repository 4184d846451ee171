package ballot.cql.statement;

import static ballot.cql.statement.CasFixture.DECREE_TIMESTAMP;
import static ballot.cql.statement.CasFixture.clusterings;
import static ballot.cql.statement.CasFixture.columns;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.spi.CasRequest;
import ballot.cql.ConsistencyLevel;
import ballot.cql.data.Cell;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.Row;
import ballot.cql.data.Slice;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Result;
import ballot.cql.type.CqlTypes;
import ballot.cql.protocol.message.Rows;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * BATCH with conditions, text and protocol, prepared and run against {@link CasFixture}: one compare-and-set on one
 * partition whose read covers every conditioned row, whose update merges every statement, and whose answer shows the
 * conditioned rows with their primary key. Partition 1 of t holds rows c=1 (v=10, w='a') and c=2 (v=20, w='b') and
 * the static value s=5.
 */
class ConditionalBatchTest {
    private CasFixture f;

    @BeforeEach
    void setUp() {
        f = new CasFixture(
                "CREATE TABLE t (k int, c int, s int static, v int, w text, PRIMARY KEY (k, c))",
                "CREATE TABLE u (k int PRIMARY KEY, v int)",
                "CREATE TABLE cnt (k int PRIMARY KEY, n counter)",
                "CREATE TABLE l (k int, c int, l list<int>, PRIMARY KEY (k, c))");
        f.execute("BEGIN BATCH INSERT INTO t (k, c, v, w) VALUES (1, 1, 10, 'a'); INSERT INTO t (k, c, v, w) VALUES (1, 2, 20, 'b'); "
                + "UPDATE t SET s = 5 WHERE k = 1; APPLY BATCH");
    }

    /** Each row's values in column order. */
    private static List<List<Object>> values(Result result) {
        List<List<Object>> out = new ArrayList<>();
        for (Map<String, Object> row : CasFixture.rows(result)) out.add(new ArrayList<>(row.values()));
        return out;
    }

    /** The clustering (one int) of each row the last compare-and-set read, in its order. */
    private List<Integer> readRows() {
        List<Integer> rows = new ArrayList<>();
        for (Slice s : f.lastCas().read().slices()) {
            assertThat(s.start()).as("one row").usingRecursiveComparison().isEqualTo(s.end());
            rows.add(s.start().prefix()[0].getInt(0));
        }
        return rows;
    }

    @Test
    void appliesEveryStatementWhenEveryConditionHoldsAndShowsTheRowsAsTheyWere() {
        Result result = f.execute("BEGIN BATCH "
                + "UPDATE t SET v = 21 WHERE k = 1 AND c = 2 IF v = 20; "
                + "UPDATE t SET v = 11 WHERE k = 1 AND c = 1 IF v = 10 AND s = 5; "
                + "INSERT INTO t (k, c, v) VALUES (1, 3, 30) USING TIMESTAMP 7; "
                + "APPLY BATCH");

        assertThat(columns(result)).as("the key, then the conditioned columns as Cassandra lists them: each statement's "
                + "regular ones, then its static ones").containsExactly("[applied]", "k", "c", "v", "s");
        assertThat(values(result)).as("conditioned rows in clustering order, previous values")
                .containsExactly(List.of(true, 1, 1, 10, 5), List.of(true, 1, 2, 20, 5));
        PartitionUpdate update = f.lastUpdate();
        assertThat(clusterings(update)).containsExactly(List.of(2), List.of(1), List.of(3));
        assertThat(update.rows().stream().flatMap(r -> r.cells().stream()).map(Cell::timestamp))
                .as("every cell at the decree's timestamp, a plain statement's USING TIMESTAMP included").containsOnly(DECREE_TIMESTAMP);
        assertThat(readRows()).as("the conditioned rows only, in clustering order").containsExactly(1, 2);
    }

    @Test
    void writesNothingWhenOneConditionFailsAndShowsTheCurrentRows() {
        Result result = f.execute("BEGIN BATCH "
                + "UPDATE t SET v = 21 WHERE k = 1 AND c = 2 IF v = 99; "
                + "UPDATE t SET v = 11 WHERE k = 1 AND c = 1 IF v = 10; "
                + "INSERT INTO t (k, c, v) VALUES (1, 3, 30); "
                + "APPLY BATCH");

        assertThat(f.lastUpdate()).isNull();
        assertThat(values(result)).containsExactly(List.of(false, 1, 1, 10), List.of(false, 1, 2, 20));
    }

    @Test
    void showsOnlyConditionedRowsThatExistWithEveryColumnForIfNotExists() {
        Result result = f.execute("BEGIN BATCH INSERT INTO t (k, c, v) VALUES (1, 3, 30) IF NOT EXISTS; "
                + "INSERT INTO t (k, c, v) VALUES (1, 2, 31) IF NOT EXISTS; APPLY BATCH");

        assertThat(f.lastUpdate()).isNull();
        assertThat(columns(result)).containsExactly("[applied]", "k", "c", "s", "v", "w");
        assertThat(values(result)).as("no statement writes a static column, so none is read, as in Cassandra")
                .containsExactly(Arrays.asList(false, 1, 2, null, 20, "b"));
    }

    @Test
    void answersAppliedAloneWhenNoConditionedRowExisted() {
        Result result = f.execute("BEGIN BATCH INSERT INTO t (k, c, v) VALUES (2, 1, 1) IF NOT EXISTS; "
                + "INSERT INTO t (k, c, v) VALUES (2, 2, 2) IF NOT EXISTS; "
                + "INSERT INTO t (k, c, w) VALUES (2, 2, 'x') IF NOT EXISTS; APPLY BATCH");

        assertThat(columns(result)).containsExactly("[applied]");
        assertThat(values(result)).containsExactly(List.of(true));
        assertThat(readRows()).as("the same condition twice on a row is one condition: one read of the row")
                .containsExactly(1, 2);
        assertThat(clusterings(f.lastUpdate())).as("both writes to row 2 are kept").containsExactly(List.of(1), List.of(2), List.of(2));
    }

    @Test
    void aStaticConditionReadsThePartitionsFirstRowWithTheStaticRow() {
        Result result = f.execute("BEGIN BATCH UPDATE t SET s = 6 WHERE k = 1 IF s = 5; "
                + "INSERT INTO t (k, c, v) VALUES (1, 4, 40); APPLY BATCH");

        assertThat(f.lastCas().read().slices()).containsExactly(Slice.ALL);
        assertThat(f.lastCas().read().rowLimit()).isEqualTo(1);
        assertThat(values(result)).as("as Cassandra reads it: the first row's key").containsExactly(Arrays.asList(true, 1, 1, 5));
        assertThat(f.lastUpdate().staticRow()).isNotNull();
        assertThat(clusterings(f.lastUpdate())).containsExactly(List.of(4));
    }

    @Test
    void staticAndRowConditionsMustAllHold() {
        f.execute("BEGIN BATCH UPDATE t SET v = 11 WHERE k = 1 AND c = 1 IF v = 10; UPDATE t SET s = 6 WHERE k = 1 IF s = 4; APPLY BATCH");
        assertThat(f.lastUpdate()).as("the static condition fails").isNull();
        f.execute("BEGIN BATCH UPDATE t SET v = 11 WHERE k = 1 AND c = 1 IF v = 10; UPDATE t SET s = 6 WHERE k = 1 IF s = 5; APPLY BATCH");
        assertThat(f.lastUpdate()).isNotNull();
    }

    @Test
    void readsTheRowsOfOperationsThatReadBeforeWriting() {
        f.execute("INSERT INTO l (k, c, l) VALUES (1, 1, [1, 2])");

        Result result = f.execute("BEGIN BATCH UPDATE l SET l[0] = 9 WHERE k = 1 AND c = 1; "
                + "INSERT INTO l (k, c) VALUES (1, 2) IF NOT EXISTS; APPLY BATCH");

        assertThat(values(result)).containsExactly(List.of(true));
        assertThat(readRows()).containsExactly(1, 2);
        Row listRow = f.lastUpdate().rows().get(0);
        assertThat(listRow.cells()).singleElement().satisfies(c -> assertThat(c.value()).isEqualTo(CqlTypes.INT.decompose(9)));
    }

    @Test
    void runsAProtocolBatchOfBoundStatementsAtItsLevels() {
        List<String> cql = List.of("UPDATE t SET v = ? WHERE k = ? AND c = ? IF v = ?", "INSERT INTO t (k, c, v) VALUES (?, ?, ?)");

        Result applied = f.batch(cql, List.of(ints(11, 1, 1, 10), ints(1, 5, 50)));
        assertThat(values(applied)).containsExactly(List.of(true, 1, 1, 10));
        assertThat(clusterings(f.lastUpdate())).containsExactly(List.of(1), List.of(5));
        assertThat(f.lastLevels()).containsExactly(ConsistencyLevel.LOCAL_SERIAL, ConsistencyLevel.QUORUM);

        Result notApplied = f.batch(cql, List.of(ints(11, 1, 2, 10), ints(1, 5, 50)));
        assertThat(values(notApplied)).containsExactly(List.of(false, 1, 2, 20));
        assertThat(f.lastUpdate()).isNull();

        // A prepared INSERT JSON ... IF NOT EXISTS is a conditional part like any other.
        Result json = f.batch(List.of("INSERT INTO t JSON ? IF NOT EXISTS", "INSERT INTO t (k, c, v) VALUES (?, ?, ?)"),
                List.of(List.of(CqlTypes.TEXT.decompose("{\"k\": 1, \"c\": 7, \"v\": 70}")), ints(1, 8, 80)));
        assertThat(values(json)).singleElement().satisfies(row -> assertThat(row.get(0)).isEqualTo(true));
        assertThat(clusterings(f.lastUpdate())).containsExactly(List.of(7), List.of(8));
    }

    private static List<ByteBuffer> ints(int... values) {
        List<ByteBuffer> out = new ArrayList<>();
        for (int v : values) out.add(CqlTypes.INT.decompose(v));
        return out;
    }

    @Test
    void aBatchOverSeveralPartitionsRunsAsOneTransactionWithOneCompareAndSetPerPartition() {
        int before = f.casCount();
        f.batch(List.of("UPDATE t SET v = 1 WHERE k = 1 AND c = 1 IF v = 10", "INSERT INTO t (k, c) VALUES (2, 1)",
                "INSERT INTO u (k) VALUES (1)", "UPDATE t SET v = 2 WHERE k = 1 AND c = 2"), List.of(List.of(), List.of(), List.of(), List.of()));
        assertThat(f.casCount()).isEqualTo(before);
        List<CasRequest> participants = f.lastTransaction();
        assertThat(participants).extracting(p -> p.table().name()).containsExactly("t", "t", "u");
        assertThat(participants.get(0).key()).isNotEqualTo(participants.get(1).key());
        // Both statements on partition 1 are one participant, which reads the conditioned row.
        assertThat(participants.get(0).read().slices()).hasSize(1);
        // Applied: [applied] alone, as Cassandra answers a batch.
        Result applied = f.execute("BEGIN BATCH UPDATE t SET v = 1 WHERE k = 1 AND c = 1 IF v = 10; INSERT INTO u (k) VALUES (3) IF NOT EXISTS; "
                + "APPLY BATCH");
        assertThat(f.lastTransaction()).hasSize(2);
        assertThat(columns(applied)).containsExactly("[applied]");
        assertThat(values(applied)).containsExactly(List.of(true));
        // Not applied: the current values of the conditioned live rows of every partition, with the primary key and
        // conditioned columns of every table involved (null in another table's columns).
        f.execute("INSERT INTO u (k, v) VALUES (3, 30)");
        Result refused = f.execute("BEGIN BATCH UPDATE t SET v = 1 WHERE k = 1 AND c = 1 IF v = 11; UPDATE u SET v = 2 WHERE k = 3 IF v = 1; "
                + "APPLY BATCH");
        assertThat(columns(refused)).containsExactly("[applied]", "k", "c", "v", "k", "v");
        List<List<Object>> positional = new ArrayList<>();
        Rows rows = (Rows) refused;
        for (ByteBuffer[] row : rows.rows()) {
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < row.length; i++) values.add(row[i] == null ? null : rows.metadata().columns().get(i).type().compose(row[i]));
            positional.add(values);
        }
        assertThat(positional).containsExactly(java.util.Arrays.asList(false, 1, 1, 10, null, null),
                java.util.Arrays.asList(false, null, null, null, 3, 30));
    }

    @Test
    void aProtocolBatchHoldsOnlyWrites() {
        assertRefused(() -> f.batch(List.of("UPDATE t SET v = 1 WHERE k = 1 AND c = 1 IF v = 10", "SELECT * FROM t"),
                List.of(List.of(), List.of())), "Invalid statement in batch: only UPDATE, INSERT and DELETE statements are allowed.");
    }

    @Test
    void refusesWhatCassandraRefuses() {
        assertRefused("BEGIN BATCH UPDATE t SET v = 1 WHERE k IN (1, 2) AND c = 1 IF v = 10; APPLY BATCH",
                "Batch with conditions cannot span multiple partitions (you cannot use IN on the partition key)");
        assertRefused("BEGIN BATCH UPDATE t SET v = 1 WHERE k = 1 AND c = 1 IF v = 10; INSERT INTO t (k, c) VALUES (1, 2); "
                + "DELETE FROM t WHERE k = 1 AND c IN (3, 4); APPLY BATCH", "IN on the clustering key columns is not supported with conditional deletions");
        assertRefused("BEGIN BATCH USING TIMESTAMP 5 UPDATE t SET v = 1 WHERE k = 1 AND c = 1 IF v = 10; APPLY BATCH",
                "Cannot provide custom timestamp for conditional BATCH");
        assertRefused("BEGIN BATCH UPDATE t USING TIMESTAMP 5 SET v = 1 WHERE k = 1 AND c = 1 IF v = 10; APPLY BATCH",
                "Cannot provide custom timestamp for conditional updates");
        assertRefused("BEGIN COUNTER BATCH UPDATE cnt SET n = n + 1 WHERE k = 1 IF n = 0; APPLY BATCH",
                "Conditions on counters are not supported");
        assertRefused("BEGIN COUNTER BATCH UPDATE cnt SET n = n + 1 WHERE k = 1 IF EXISTS; APPLY BATCH",
                "Conditional updates are not supported on counter tables");
        assertRefused("BEGIN COUNTER BATCH UPDATE cnt SET n = n + 1 WHERE k = 1; UPDATE u SET v = 1 WHERE k = 1 IF v = 0; APPLY BATCH",
                "Cannot include non-counter statement in a counter batch");
        assertRefused("BEGIN BATCH INSERT INTO t (k, c) VALUES (1, 1) IF NOT EXISTS; DELETE FROM t WHERE k = 1 AND c = 1 IF EXISTS; APPLY BATCH",
                "Cannot mix IF EXISTS and IF NOT EXISTS conditions for the same row");
        assertRefused("BEGIN BATCH INSERT INTO t (k, c) VALUES (1, 1) IF NOT EXISTS; UPDATE t SET v = 1 WHERE k = 1 AND c = 1 IF v = 2; APPLY BATCH",
                "Cannot mix IF conditions and IF NOT EXISTS for the same row");
        assertRefused("BEGIN BATCH UPDATE t SET v = 1 WHERE k = 1 AND c = 1 IF v = 2; UPDATE t SET w = 'x' WHERE k = 1 AND c = 1 IF EXISTS; APPLY BATCH",
                "Cannot mix IF conditions and IF EXISTS for the same row");
        assertRefused("BEGIN BATCH UPDATE t SET w = 'x' WHERE k = 1 AND c = 1 IF EXISTS; UPDATE t SET v = 1 WHERE k = 1 AND c = 1 IF v = 2; APPLY BATCH",
                "Cannot mix IF conditions and IF NOT EXISTS for the same row");
        assertThat(f.casCount()).isZero();
    }

    @Test
    void commitsAtTheBatchLevelUnderTheRequestedSerialLevel() {
        String batch = "BEGIN BATCH UPDATE u SET v = 1 WHERE k = 1 IF v = null; APPLY BATCH";
        QueryOptions serialCommit = QueryOptions.of(ConsistencyLevel.SERIAL, List.of());
        assertThatThrownBy(() -> f.execute(batch, serialCommit)).isInstanceOf(InvalidRequestException.class)
                .hasMessageStartingWith("SERIAL is not supported as conditional update commit consistency.");
        QueryOptions quorumAtOne = new QueryOptions(ConsistencyLevel.QUORUM, List.of(), null, false, -1, null, ConsistencyLevel.ONE, null, null, null);
        assertThatThrownBy(() -> f.execute(batch, quorumAtOne)).isInstanceOf(InvalidRequestException.class)
                .hasMessage("Invalid consistency for conditional update. Must be one of SERIAL or LOCAL_SERIAL");

        f.execute(batch, QueryOptions.of(ConsistencyLevel.ANY, List.of()));
        assertThat(f.lastLevels()).containsExactly(ConsistencyLevel.SERIAL, ConsistencyLevel.ANY);
    }

    @Test
    void refusesAnEachQuorumCommitWithoutDataCenters() {
        String batch = "BEGIN BATCH UPDATE u SET v = 1 WHERE k = 1 IF v = null; APPLY BATCH";
        assertThatThrownBy(() -> f.execute(batch, QueryOptions.of(ConsistencyLevel.EACH_QUORUM, List.of())))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("consistency level EACH_QUORUM not compatible with replication strategy (org.apache.cassandra.locator.SimpleStrategy)");
        assertThat(f.casCount()).isZero();
    }

    /** The same rule for the transactions a multi-partition batch or BEGIN TRANSACTION runs. */
    @Test
    void refusesAnEachQuorumTransactionWithoutDataCenters() {
        QueryOptions eachQuorum = QueryOptions.of(ConsistencyLevel.EACH_QUORUM, List.of());
        String message = "consistency level EACH_QUORUM not compatible with replication strategy (org.apache.cassandra.locator.SimpleStrategy)";
        assertThatThrownBy(() -> f.execute("BEGIN BATCH UPDATE u SET v = 1 WHERE k = 1 IF v = null; "
                + "UPDATE u SET v = 2 WHERE k = 2 IF v = null; APPLY BATCH", eachQuorum))
                .isInstanceOf(InvalidRequestException.class).hasMessage(message);
        assertThatThrownBy(() -> f.execute("BEGIN TRANSACTION UPDATE u SET v = 1 WHERE k = 1; UPDATE u SET v = 2 WHERE k = 2; "
                + "COMMIT TRANSACTION", eachQuorum))
                .isInstanceOf(InvalidRequestException.class).hasMessage(message);
        assertThat(f.transactionCount()).isZero();
        f.execute("BEGIN TRANSACTION UPDATE u SET v = 1 WHERE k = 1; UPDATE u SET v = 2 WHERE k = 2; COMMIT TRANSACTION",
                QueryOptions.of(ConsistencyLevel.QUORUM, List.of()));
        assertThat(f.transactionCount()).isOne();
    }

    @Test
    void aPreparedConditionalBatchIsAnLwtRoutedByItsKey() {
        CqlStatement conditional = f.preparer.prepare("BEGIN BATCH INSERT INTO t (k, c, v) VALUES (?, ?, ?) IF NOT EXISTS; "
                + "UPDATE t SET v = ? WHERE k = ? AND c = ?; APPLY BATCH", "ks");
        CqlStatement plain = f.preparer.prepare("BEGIN BATCH INSERT INTO t (k, c, v) VALUES (?, ?, ?); APPLY BATCH", "ks");

        assertThat(conditional.isConditional()).isTrue();
        assertThat(conditional.partitionKeyIndexes()).as("the last marker of k, as Cassandra").containsExactly(4);
        assertThat(plain.isConditional()).isFalse();
    }

    /** A single statement's answer has no key columns (Cassandra's shape), and shows its row and the static row. */
    @Test
    void aSingleConditionalStatementAnswersWithoutKeyColumns() {
        Result result = f.execute("UPDATE t SET v = 11 WHERE k = 1 AND c = 1 IF s = 5 AND v = 99");
        assertThat(columns(result)).as("regular before static, as Cassandra").containsExactly("[applied]", "v", "s");
        assertThat(values(result)).containsExactly(List.of(false, 10, 5));

        assertThat(columns(f.execute("UPDATE t SET v = 11 WHERE k = 1 AND c = 1 IF w = 'x' AND v = 99")))
                .as("in the order the conditions name them").containsExactly("[applied]", "w", "v");

        Result missingRow = f.execute("UPDATE t SET v = 11 WHERE k = 1 AND c = 7 IF s = 5 AND v = 99");
        assertThat(values(missingRow)).as("the static row alone").containsExactly(Arrays.asList(false, null, 5));
    }

    private void assertRefused(String cql, String message) {
        assertRefused(() -> f.execute(cql), message);
    }

    private static void assertRefused(Runnable statement, String message) {
        assertThatThrownBy(statement::run).isInstanceOf(InvalidRequestException.class).hasMessage(message);
    }
}
