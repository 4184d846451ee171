package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.ConsistencyLevel;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code ORDER BY v ANN OF ... LIMIT k} within a partition, and Cassandra 5.0.9's refusals of ANN queries. */
class AnnOrderingTest {
    private final CasFixture db = new CasFixture(
            "CREATE TABLE t (k int, c int, v vector<float, 2>, x int, y int, PRIMARY KEY (k, c))",
            "CREATE CUSTOM INDEX t_v ON t (v) USING 'StorageAttachedIndex'",
            "CREATE CUSTOM INDEX t_x ON t (x) USING 'StorageAttachedIndex'",
            "CREATE TABLE d (k int, c int, v vector<float, 2>, w vector<float, 2>, PRIMARY KEY (k, c))",
            "CREATE CUSTOM INDEX d_v ON d (v) USING 'StorageAttachedIndex' WITH OPTIONS = {'similarity_function': 'dot_product'}",
            "CREATE CUSTOM INDEX d_w ON d (w) USING 'StorageAttachedIndex' WITH OPTIONS = {'similarity_function': 'EUCLIDEAN'}",
            "CREATE TABLE n (k int PRIMARY KEY, v vector<float, 2>, vi vector<int, 2>, l list<float>)");

    private List<Integer> clusterings(String cql) {
        List<Integer> out = new ArrayList<>();
        for (Map<String, Object> row : CasFixture.rows(db.execute(cql))) out.add((Integer) row.get("c"));
        return out;
    }

    /** Every row of partition 1 of t and d in one batch (the fixture keeps one write per partition). */
    private void insertRows() {
        StringBuilder batch = new StringBuilder("BEGIN UNLOGGED BATCH ");
        for (String values : List.of("1, [1.0, 0.0], 1", "2, [0.0, 1.0], 2", "3, [1.0, 1.0], 1", "4, [2.0, 0.5], 1", "5, [-1.0, 0.5], 2")) {
            String c = values.substring(0, values.indexOf(','));
            String vector = values.substring(values.indexOf('['), values.indexOf(']') + 1);
            batch.append("INSERT INTO t (k, c, v, x) VALUES (1, ").append(values).append("); ");
            batch.append("INSERT INTO d (k, c, v, w) VALUES (1, ").append(c).append(", ").append(vector).append(", ").append(vector).append("); ");
        }
        db.execute(batch.append("INSERT INTO t (k, c, x) VALUES (1, 6, 1); APPLY BATCH").toString());
    }

    @Test
    void rowsComeMostSimilarFirstByTheIndexsSimilarityAndOnlyTheLimit() {
        insertRows();
        assertThat(clusterings("SELECT c FROM t WHERE k = 1 ORDER BY v ANN OF [1.0, 0.2] LIMIT 10"))
                .as("cosine by default; a row without a vector is left out").containsExactly(4, 1, 3, 2, 5);
        assertThat(clusterings("SELECT c FROM t WHERE k = 1 ORDER BY v ANN OF [1.0, 0.2] LIMIT 2")).containsExactly(4, 1);
        assertThat(clusterings("SELECT c FROM t WHERE k = 1 AND c > 1 ORDER BY v ann of [1, 2] ASC LIMIT 3")).containsExactly(3, 2, 4);
        assertThat(clusterings("SELECT c FROM t WHERE k = 1 AND x = 2 ORDER BY v ANN OF [1.0, 0.2] LIMIT 3")).containsExactly(2, 5);
        assertThat(clusterings("SELECT c FROM d WHERE k = 1 ORDER BY v ANN OF [1.0, 0.5] LIMIT 5")).as("dot product")
                .containsExactly(4, 3, 1, 2, 5);
        assertThat(clusterings("SELECT c FROM d WHERE k = 1 ORDER BY w ANN OF [0.0, 0.0] LIMIT 5")).as("euclidean, the nearest first")
                .containsExactly(1, 2, 5, 3, 4);
        assertThat(clusterings("SELECT c FROM d WHERE k = 1 ORDER BY v ANN OF [0.0, 0.0] LIMIT 5")).as("equal scores keep the clustering order")
                .containsExactly(1, 2, 3, 4, 5);
        List<Map<String, Object>> scored = CasFixture.rows(db.execute(
                "SELECT c, similarity_cosine(v, [1.0, 0.2]) FROM t WHERE k = 1 ORDER BY v ANN OF [1.0, 0.2] LIMIT 1"));
        assertThat(scored.get(0).values()).containsExactly(4, 0.99943405f);
    }

    @Test
    void aMarkerGivesTheVectorAndTheLimitIsCheckedWhenRun() {
        insertRows();
        QueryOptions options = new QueryOptions(ConsistencyLevel.ONE, List.of(ballot.cql.type.CqlTypes.vector(ballot.cql.type.CqlTypes.FLOAT, 2)
                .decompose(List.of(0.0f, 1.0f)), java.nio.ByteBuffer.allocate(4).putInt(0, 2)), null, false, -1, null,
                ConsistencyLevel.LOCAL_SERIAL, null, "ks", null);
        Result result = db.execute("SELECT c FROM t WHERE k = 1 ORDER BY v ANN OF ? LIMIT ?", options);
        assertThat(CasFixture.rows(result)).extracting(r -> r.get("c")).containsExactly(2, 3);

        db.assertInvalid("SELECT c FROM t WHERE k = 1 ORDER BY v ANN OF [1.0, 0.2]",
                "Top-K queries must have a limit specified and the limit must be less than the query page size");
        db.assertInvalid("SELECT c FROM t WHERE k = 1 ORDER BY v ANN OF [1.0, 0.2] LIMIT 1001",
                "Use of ANN OF in an ORDER BY clause requires a LIMIT that is not greater than 1000. LIMIT was 1001");
        db.assertInvalid("SELECT c FROM t WHERE k = 1 ORDER BY v ANN OF null LIMIT 3", "Unsupported null value for column v");
    }

    @Test
    void annQueriesCassandraRefusesAreRefusedWithItsMessages() {
        db.assertInvalid("SELECT * FROM n ORDER BY v ANN OF [1.0, 1.0] LIMIT 3", "ANN ordering by vector requires the column to be indexed");
        db.assertInvalid("SELECT * FROM n ORDER BY l ANN OF [1.0, 1.0] LIMIT 3", "ANN ordering is only supported on float vector indexes");
        db.assertInvalid("SELECT * FROM n ORDER BY vi ANN OF [1, 1] LIMIT 3", "ANN ordering is only supported on float vector indexes");
        db.assertInvalid("SELECT * FROM n ORDER BY k ANN OF [1.0, 1.0] LIMIT 3", "Unexpected receiver type 'int'; only list and vector are expected");
        db.assertInvalid("SELECT * FROM t ORDER BY v ANN OF [1.0, 0.2] DESC LIMIT 3", "Descending ANN ordering is not supported");
        db.assertInvalid("SELECT * FROM t WHERE k = 1 ORDER BY c ASC, v ANN OF [1.0, 0.2] LIMIT 3",
                "ANN ordering does not support any other ordering");
        db.assertInvalid("SELECT * FROM d ORDER BY v ANN OF [1.0, 0.5], w ANN OF [1.0, 0.5] LIMIT 4", "Cannot specify more than one ANN ordering");
        db.assertInvalid("SELECT * FROM t WHERE y = 1 ORDER BY v ANN OF [1.0, 0.2] LIMIT 2 ALLOW FILTERING",
                "ANN ordering by vector requires all restricted column(s) to be indexed");
        db.assertInvalid("SELECT * FROM t WHERE c = 1 ORDER BY v ANN OF [1.0, 0.2] LIMIT 2 ALLOW FILTERING",
                "ANN ordering by vector requires all restricted column(s) to be indexed");
        db.assertInvalid("SELECT * FROM t WHERE x = 1 AND c = 1 ORDER BY v ANN OF [1.0, 0.2] LIMIT 2",
                "ANN ordering by vector requires all restricted column(s) to be indexed");
        db.assertInvalid("SELECT * FROM t WHERE k > 1 ORDER BY v ANN OF [1.0, 0.2] LIMIT 2 ALLOW FILTERING",
                "ANN ordering by vector requires all restricted column(s) to be indexed");
        db.assertInvalid("SELECT * FROM t WHERE k IN (1, 2) ORDER BY v ANN OF [1.0, 0.2] LIMIT 2",
                "Select on indexed columns and with IN clause for the PRIMARY KEY are not supported");
        db.assertInvalid("SELECT * FROM t WHERE x IN (1, 2) ORDER BY v ANN OF [1.0, 0.2] LIMIT 2", SelectStatement.REQUIRES_ALLOW_FILTERING);
        db.assertInvalid("SELECT * FROM t ORDER BY v ANN OF [1.0, 0.2] PER PARTITION LIMIT 1 LIMIT 3",
                "Top-K queries do not support per-partition limits");
        db.assertInvalid("SELECT count(*) FROM t ORDER BY v ANN OF [1.0, 0.2] LIMIT 3", "Top-K queries can not be run with aggregation");
        db.assertInvalid("SELECT k FROM t GROUP BY k ORDER BY v ANN OF [1.0, 0.2] LIMIT 3", "Top-K queries can not be run with aggregation");
        db.assertInvalid("SELECT DISTINCT k FROM t ORDER BY v ANN OF [1.0, 0.2] LIMIT 3",
                "SELECT DISTINCT with WHERE clause only supports restriction by partition key and/or static columns.");
        db.assertInvalid("SELECT * FROM t WHERE v = [1.0, 0.0] ALLOW FILTERING", "Vector indexes only support ANN queries");
    }

    @Test
    void anIndexOnAVectorTakesItsSimilarityFunctionAndOnlyFloatElements() {
        db.assertInvalid("CREATE CUSTOM INDEX ON n (v) USING 'StorageAttachedIndex' WITH OPTIONS = {'similarity_function': 'foo'}",
                "Similarity function FOO was not recognized for index null. Valid values are: EUCLIDEAN, DOT_PRODUCT, COSINE");
        db.assertInvalid("CREATE CUSTOM INDEX ON n (v) USING 'StorageAttachedIndex' WITH OPTIONS = {'optimize_for': 'foo'}",
                "optimize_for 'FOO' was not recognized for index null. Valid values are: LATENCY, RECALL");
        db.assertInvalid("CREATE CUSTOM INDEX ON n (vi) USING 'StorageAttachedIndex'",
                "SAI ANN indexes are only allowed on vector columns with float elements");
        db.assertInvalid("CREATE CUSTOM INDEX ON n (l) USING 'StorageAttachedIndex' WITH OPTIONS = {'similarity_function': 'cosine'}",
                "CQL type float cannot have vector options");
        db.assertInvalid("CREATE CUSTOM INDEX ON n (v) USING 'StorageAttachedIndex' WITH OPTIONS = {'case_sensitive': 'false'}",
                "CQL type vector<float, 2> cannot be analyzed.");
        db.execute("CREATE CUSTOM INDEX n_v ON n (v) USING 'sai' WITH OPTIONS = {'similarity_function': 'Dot_Product', 'optimize_for': 'recall'}");
        assertThat(db.schema().keyspace("ks").table("n").indexes().get(0).options()).isEqualTo(Map.of("class_name", "sai", "target", "v",
                "similarity_function", "Dot_Product", "optimize_for", "recall"));
    }

    /**
     * A filtered ANN query reads in chunks of 512 rows and keeps only the best rows so far between them: the best
     * rows, one in each chunk, must all survive the pruning, in order.
     */
    @Test
    void theBestRowsOfEveryChunkSurviveThePruningBetweenChunks() {
        StringBuilder batch = new StringBuilder("BEGIN UNLOGGED BATCH ");
        for (int c = 0; c < 1200; c++) {
            String v = switch (c) {
                case 1100 -> "[0.0, 1.0]";
                case 10 -> "[0.1, 1.0]";
                case 600 -> "[0.2, 1.0]";
                default -> "[1.0, 0.0]";
            };
            batch.append("INSERT INTO t (k, c, v, x, y) VALUES (7, ").append(c).append(", ").append(v).append(", 1, 1); ");
        }
        db.execute(batch.append("APPLY BATCH").toString());
        assertThat(clusterings("SELECT c FROM t WHERE k = 7 AND x = 1 ORDER BY v ANN OF [0.0, 1.0] LIMIT 3"))
                .containsExactly(1100, 10, 600);
    }
}
