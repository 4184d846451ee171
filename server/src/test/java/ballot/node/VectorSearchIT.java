package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.data.CqlVector;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Cassandra 5.0's vector search on a real node through the Java driver: ANN indexes and their similarity functions,
 * {@code ORDER BY v ANN OF ... LIMIT k} over the whole table, a partition or other index relations, the similarity
 * functions beside it, and its refusals (docs/indexes.md).
 */
class VectorSearchIT {
    private static final int ROWS = 60;
    private static TestNode node;
    private static CqlSession session;
    /** The vector of row i (partition i % 6, clustering i), x = i % 3. */
    private static final List<float[]> VECTORS = new ArrayList<>();

    @BeforeAll
    static void start() {
        // 1 MiB of results per connection: an ANN query holds only its best rows, not every row it scores
        node = TestNode.start("vector-search", config -> config.resultDataPerConnectionMb = 1);
        session = node.session();
        session.execute("CREATE KEYSPACE vs WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE vs.items (k int, c int, v vector<float, 3>, x int, PRIMARY KEY (k, c))");
        session.execute("CREATE CUSTOM INDEX items_v ON vs.items (v) USING 'StorageAttachedIndex'");
        session.execute("CREATE CUSTOM INDEX items_x ON vs.items (x) USING 'StorageAttachedIndex'");
        session.execute("CREATE TABLE vs.dot (k int PRIMARY KEY, v vector<float, 3>)");
        session.execute("CREATE CUSTOM INDEX dot_v ON vs.dot (v) USING 'StorageAttachedIndex' WITH OPTIONS = {'similarity_function': 'dot_product'}");
        Random random = new Random(42);
        PreparedStatement insert = session.prepare("INSERT INTO vs.items (k, c, v, x) VALUES (?, ?, ?, ?)");
        PreparedStatement insertDot = session.prepare("INSERT INTO vs.dot (k, v) VALUES (?, ?)");
        for (int i = 0; i < ROWS; i++) {
            float[] v = {random.nextFloat() * 2 - 1, random.nextFloat() * 2 - 1, random.nextFloat() * 2 - 1};
            VECTORS.add(v);
            CqlVector<Float> vector = CqlVector.newInstance(v[0], v[1], v[2]);
            session.execute(insert.bind(i % 6, i, vector, i % 3));
            session.execute(insertDot.bind(i, vector));
        }
        session.execute("INSERT INTO vs.items (k, c, x) VALUES (0, 1000, 0)"); // no vector: never an answer
    }

    @AfterAll
    static void stop() {
        if (session != null) session.close();
        if (node != null) node.close();
    }

    private static final float[] QUERY = {0.5f, -0.25f, 1f};

    private static double cosine(float[] a) {
        double dot = 0, na = 0, nb = 0;
        for (int i = 0; i < 3; i++) {
            dot += a[i] * QUERY[i];
            na += a[i] * a[i];
            nb += QUERY[i] * QUERY[i];
        }
        return dot / Math.sqrt(na * nb);
    }

    private static double dot(float[] a) {
        return a[0] * QUERY[0] + a[1] * QUERY[1] + a[2] * QUERY[2];
    }

    /** The clusterings of the {@code limit} rows most similar to QUERY among those {@code selected}, best first. */
    private static List<Integer> nearest(java.util.function.IntPredicate selected, ToDoubleFunction<float[]> similarity, int limit) {
        List<Integer> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) if (selected.test(i)) rows.add(i);
        rows.sort(Comparator.comparingDouble((Integer i) -> similarity.applyAsDouble(VECTORS.get(i))).reversed());
        return rows.subList(0, Math.min(limit, rows.size()));
    }

    private static List<Integer> ints(ResultSet rs, String column) {
        List<Integer> out = new ArrayList<>();
        for (Row row : rs) out.add(row.getInt(column));
        return out;
    }

    private static void invalid(String cql, String message) {
        assertThatThrownBy(() -> session.execute(cql)).as(cql).isInstanceOf(InvalidQueryException.class).hasMessage(message);
    }

    @Test
    void annOrderingReturnsTheMostSimilarRowsFirst() {
        String query = "[0.5, -0.25, 1.0]";
        assertThat(ints(session.execute("SELECT c FROM vs.items ORDER BY v ANN OF " + query + " LIMIT 7"), "c"))
                .containsExactlyElementsOf(nearest(i -> true, VectorSearchIT::cosine, 7));
        assertThat(ints(session.execute("SELECT c FROM vs.items WHERE k = 2 ORDER BY v ANN OF " + query + " LIMIT 4"), "c"))
                .containsExactlyElementsOf(nearest(i -> i % 6 == 2, VectorSearchIT::cosine, 4));
        assertThat(ints(session.execute("SELECT c FROM vs.items WHERE x = 1 ORDER BY v ANN OF " + query + " LIMIT 1000"), "c"))
                .containsExactlyElementsOf(nearest(i -> i % 3 == 1, VectorSearchIT::cosine, ROWS));
        assertThat(ints(session.execute("SELECT k FROM vs.dot ORDER BY v ANN OF " + query + " LIMIT 5"), "k")).as("dot_product index")
                .containsExactlyElementsOf(nearest(i -> true, VectorSearchIT::dot, 5));

        PreparedStatement prepared = session.prepare("SELECT c, similarity_cosine(v, ?) AS s FROM vs.items ORDER BY v ANN OF ? LIMIT ?");
        CqlVector<Float> vector = CqlVector.newInstance(QUERY[0], QUERY[1], QUERY[2]);
        List<Float> scores = new ArrayList<>();
        List<Integer> clusterings = new ArrayList<>();
        for (Row row : session.execute(prepared.bind(vector, vector, 3))) {
            clusterings.add(row.getInt("c"));
            scores.add(row.getFloat("s"));
        }
        assertThat(clusterings).containsExactlyElementsOf(nearest(i -> true, VectorSearchIT::cosine, 3));
        assertThat(scores).isSortedAccordingTo(Comparator.reverseOrder());
        assertThat(scores.get(0)).isCloseTo((float) (1 + cosine(VECTORS.get(clusterings.get(0)))) / 2, org.assertj.core.data.Offset.offset(1e-6f));
    }

    @Test
    void anAnnQueryScoresMoreRowsThanTheConnectionHoldsForResults() {
        session.execute("CREATE TABLE vs.wide (k int PRIMARY KEY, v vector<float, 256>)");
        session.execute("CREATE CUSTOM INDEX wide_v ON vs.wide (v) USING 'StorageAttachedIndex' WITH OPTIONS = {'similarity_function': 'euclidean'}");
        PreparedStatement insert = session.prepare("INSERT INTO vs.wide (k, v) VALUES (?, ?)");
        int rows = 1500; // 1.5 MiB of vectors
        for (int k = 0; k < rows; k++) {
            List<Float> v = new ArrayList<>();
            for (int i = 0; i < 256; i++) v.add((float) k);
            session.execute(insert.bind(k, CqlVector.newInstance(v)));
        }
        String near = "[" + String.join(", ", java.util.Collections.nCopies(256, "700.25")) + "]";
        assertThat(ints(session.execute("SELECT k, v FROM vs.wide ORDER BY v ANN OF " + near + " LIMIT 3"), "k")).containsExactly(700, 701, 699);
    }

    @Test
    void theAnswerIsOnePageWhateverThePageSize() {
        ResultSet rs = session.execute(SimpleStatement.newInstance("SELECT c FROM vs.items ORDER BY v ANN OF [0.5, -0.25, 1.0] LIMIT 5")
                .setPageSize(2));
        assertThat(rs.getAvailableWithoutFetching()).isEqualTo(5);
        assertThat(rs.isFullyFetched()).isTrue();
        assertThat(rs.getExecutionInfo().getWarnings()).containsExactly("Top-K queries do not support paging and the page size is set to 2, "
                + "which is less than LIMIT 5. The page size has been set to 5 to match the LIMIT.");
    }

    @Test
    void annQueriesCassandraRefusesAreRefused() {
        invalid("SELECT c FROM vs.items ORDER BY v ANN OF [0.5, -0.25, 1.0]",
                "Top-K queries must have a limit specified and the limit must be less than the query page size");
        invalid("SELECT c FROM vs.items ORDER BY v ANN OF [0.5, -0.25, 1.0] LIMIT 1001",
                "Use of ANN OF in an ORDER BY clause requires a LIMIT that is not greater than 1000. LIMIT was 1001");
        invalid("SELECT c FROM vs.items WHERE c = 3 ORDER BY v ANN OF [0.5, -0.25, 1.0] LIMIT 3 ALLOW FILTERING",
                "ANN ordering by vector requires all restricted column(s) to be indexed");
        invalid("SELECT c FROM vs.items WHERE v = [0.5, -0.25, 1.0] ALLOW FILTERING", "Vector indexes only support ANN queries");
        invalid("SELECT similarity_cosine(v, [1.0, 2.0]) FROM vs.items WHERE k = 1", "All arguments must have the same vector dimensions");
    }

    @Test
    void theSimilarityFunctionIsKeptInTheSchema() {
        Row index = session.execute("SELECT options FROM system_schema.indexes WHERE keyspace_name = 'vs' AND table_name = 'dot'").one();
        assertThat(index.getMap("options", String.class, String.class)).containsEntry("similarity_function", "dot_product");
        assertThat(session.execute("DESCRIBE INDEX vs.dot_v").one().getString("create_statement")).isEqualTo(
                "CREATE CUSTOM INDEX dot_v ON vs.dot (v) USING 'StorageAttachedIndex' WITH OPTIONS = {'similarity_function': 'dot_product'};");
    }
}
