package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Queries served by storage-attached indexes on a real node through the Java driver: which need ALLOW FILTERING, what
 * they return, and that overwrites, deletions and expiry make rows drop out (docs/indexes.md).
 */
class IndexQueryIT {
    private static final String FILTERING = "Cannot execute this query as it might involve data filtering and thus may have "
            + "unpredictable performance. If you want to execute this query despite the performance unpredictability, use ALLOW FILTERING";
    private static TestNode node;
    private static CqlSession session;

    @BeforeAll
    static void start() {
        node = TestNode.start("index-query");
        session = node.session();
        session.execute("CREATE KEYSPACE q WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    }

    @AfterAll
    static void stop() {
        if (session != null) session.close();
        if (node != null) node.close();
    }

    private static List<String> rows(String cql, int pageSize) {
        List<String> out = new ArrayList<>();
        for (Row row : session.execute(SimpleStatement.newInstance(cql).setPageSize(pageSize))) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < row.getColumnDefinitions().size(); i++) sb.append(i > 0 ? "," : "").append(row.getObject(i));
            out.add(sb.toString());
        }
        return out;
    }

    private static List<String> rows(String cql) {
        return rows(cql, 5000);
    }

    private static void invalid(String cql, String message) {
        assertThatThrownBy(() -> session.execute(cql)).as(cql).isInstanceOf(InvalidQueryException.class).hasMessage(message);
    }

    @Test
    void equalityAndRangesOnRegularColumnsNeedNoFilteringAndFollowTheData() throws InterruptedException {
        session.execute("CREATE TABLE q.people (id int, seq int, name text, age int, city text, PRIMARY KEY (id, seq))");
        session.execute("CREATE INDEX ON q.people (age)");
        session.execute("CREATE INDEX ON q.people (city)");
        for (int i = 0; i < 40; i++) {
            session.execute("INSERT INTO q.people (id, seq, name, age, city) VALUES (?, ?, ?, ?, ?)", i % 10, i, "p" + i, i % 7,
                    i % 2 == 0 ? "Paris" : "Oslo");
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 40; i++) if (i % 7 == 3) expected.add(i % 10 + "," + i);
        assertThat(rows("SELECT id, seq FROM q.people WHERE age = 3")).containsExactlyInAnyOrderElementsOf(expected);
        for (int pageSize : new int[] {1, 2, 3, 7, 100}) {
            assertThat(rows("SELECT id, seq FROM q.people WHERE age = 3", pageSize)).as("page size %d", pageSize)
                    .containsExactlyInAnyOrderElementsOf(expected).doesNotHaveDuplicates();
        }
        List<String> range = new ArrayList<>();
        for (int i = 0; i < 40; i++) if (i % 7 >= 2 && i % 7 < 5) range.add(i % 10 + "," + i);
        for (int pageSize : new int[] {1, 4, 1000}) {
            assertThat(rows("SELECT id, seq FROM q.people WHERE age >= 2 AND age < 5", pageSize)).containsExactlyInAnyOrderElementsOf(range);
        }
        List<String> both = new ArrayList<>();
        for (int i = 0; i < 40; i++) if (i % 7 > 4 && i % 2 == 0) both.add(i % 10 + "," + i);
        assertThat(rows("SELECT id, seq FROM q.people WHERE age > 4 AND city = 'Paris'")).containsExactlyInAnyOrderElementsOf(both);
        assertThat(rows("SELECT id, seq FROM q.people WHERE id = 3 AND age = 3")).containsExactly("3,3");
        assertThat(rows("SELECT count(*) FROM q.people WHERE city = 'Oslo'")).containsExactly("20");
        assertThat(rows("SELECT id, seq FROM q.people WHERE age = 3 LIMIT 2")).hasSize(2);

        invalid("SELECT * FROM q.people WHERE age = 3 AND name = 'p3'", FILTERING);
        assertThat(rows("SELECT id, seq FROM q.people WHERE age = 3 AND name = 'p3' ALLOW FILTERING")).containsExactly("3,3");
        invalid("SELECT * FROM q.people WHERE city > 'A'", FILTERING);
        invalid("SELECT * FROM q.people WHERE id IN (1, 2) AND age = 3",
                "Select on indexed columns and with IN clause for the PRIMARY KEY are not supported");
        // As in Cassandra, an IN of one value is an EQ, for the key and for the indexed column; an IN of several values
        // is no index's, so it needs filtering.
        assertThat(rows("SELECT id, seq FROM q.people WHERE id IN (3) AND seq IN (3) AND age = 3")).containsExactly("3,3");
        assertThat(rows("SELECT id, seq FROM q.people WHERE age IN (3)")).containsExactlyInAnyOrderElementsOf(expected);
        invalid("SELECT * FROM q.people WHERE age IN (3, 4)", FILTERING);
        assertThat(rows("SELECT id, seq FROM q.people WHERE age IN (3) AND city IN ('Oslo', 'Lima') ALLOW FILTERING"))
                .containsExactlyInAnyOrderElementsOf(expected.stream().filter(r -> Integer.parseInt(r.split(",")[1]) % 2 == 1).toList());

        // Overwrites, deletions of cells, rows, ranges and partitions, and expiry take rows out of the answers.
        session.execute("UPDATE q.people SET age = 100 WHERE id = 3 AND seq = 3");
        session.execute("DELETE age FROM q.people WHERE id = 0 AND seq = 10");
        session.execute("DELETE FROM q.people WHERE id = 7 AND seq = 17");
        session.execute("DELETE FROM q.people WHERE id = 4 AND seq >= 20 AND seq < 30");
        session.execute("DELETE FROM q.people WHERE id = 1");
        List<String> left = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            boolean gone = i == 3 || i == 10 || i == 17 || i == 24 || i % 10 == 1;
            if (i % 7 == 3 && !gone) left.add(i % 10 + "," + i);
        }
        assertThat(rows("SELECT id, seq FROM q.people WHERE age = 3", 2)).containsExactlyInAnyOrderElementsOf(left);
        assertThat(rows("SELECT id, seq FROM q.people WHERE age = 100")).containsExactly("3,3");
        session.execute("INSERT INTO q.people (id, seq, age) VALUES (50, 1, 77) USING TTL 1");
        assertThat(rows("SELECT id FROM q.people WHERE age = 77")).containsExactly("50");
        NodeProcess.await("the TTL to expire", Duration.ofSeconds(10), () -> rows("SELECT id FROM q.people WHERE age = 77").isEmpty());
    }

    /**
     * Random writes, overwrites and deletions (cells, rows, ranges, partitions, statics) on an indexed table and an
     * unindexed twin: every index query, at several page sizes, returns what the twin returns with ALLOW FILTERING.
     */
    @Test
    void indexQueriesAnswerWhatFilteringAnswersAfterRandomChanges() {
        long seed = Long.getLong("ballot.index.seed", System.nanoTime());
        java.util.Random random = new java.util.Random(seed);
        for (String t : List.of("prop_idx", "prop_plain")) {
            session.execute("CREATE TABLE q." + t + " (k int, c int, v int, w int, s int static, PRIMARY KEY (k, c))");
        }
        session.execute("CREATE INDEX ON q.prop_idx (v)");
        session.execute("CREATE INDEX ON q.prop_idx (s)");
        session.execute("CREATE INDEX ON q.prop_idx (c)");
        for (int i = 0; i < 400; i++) {
            int k = random.nextInt(12);
            int c = random.nextInt(6);
            // %1$s is the table, %2$s its USING TIMESTAMP clause: both tables get the same writes in the same order.
            String cql = switch (random.nextInt(10)) {
                case 0 -> "DELETE v FROM q.%1$s %2$s WHERE k = " + k + " AND c = " + c;
                case 1 -> "DELETE FROM q.%1$s %2$s WHERE k = " + k + " AND c = " + c;
                case 2 -> "DELETE FROM q.%1$s %2$s WHERE k = " + k + " AND c >= " + c;
                case 3 -> random.nextInt(4) == 0 ? "DELETE FROM q.%1$s %2$s WHERE k = " + k
                        : "UPDATE q.%1$s %2$s SET s = " + random.nextInt(3) + " WHERE k = " + k;
                case 4 -> "UPDATE q.%1$s %2$s SET w = " + random.nextInt(3) + " WHERE k = " + k + " AND c = " + c;
                default -> "INSERT INTO q.%1$s (k, c, v) VALUES (" + k + ", " + c + ", " + random.nextInt(5) + ") %2$s";
            };
            String using = "USING TIMESTAMP " + (1_000_000L + i);
            for (String t : List.of("prop_idx", "prop_plain")) session.execute(String.format(cql, t, using));
        }
        List<String> wheres = new ArrayList<>();
        for (int v = 0; v < 5; v++) wheres.add("v = " + v);
        for (int s = 0; s < 3; s++) wheres.add("s = " + s);
        wheres.addAll(List.of("v > 2", "v >= 1 AND v < 3", "c = 2", "c > 3", "v = 1 AND s = 0", "v < 4 AND c <= 1", "k = 3 AND v = 2"));
        for (String where : wheres) {
            List<String> expected = rows("SELECT k, c, v, s FROM q.prop_plain WHERE " + where + " ALLOW FILTERING");
            for (int pageSize : new int[] {1, 3, 1000}) {
                assertThat(rows("SELECT k, c, v, s FROM q.prop_idx WHERE " + where, pageSize)).as("seed %d, %s, page size %d", seed, where, pageSize)
                        .containsExactlyInAnyOrderElementsOf(expected).doesNotHaveDuplicates();
            }
            assertThat(rows("SELECT count(*) FROM q.prop_idx WHERE " + where)).as("seed %d, count where %s", seed, where)
                    .containsExactly(Integer.toString(expected.size()));
        }
    }

    @Test
    void staticClusteringAndPartitionKeyComponentsAreIndexed() {
        session.execute("CREATE TABLE q.parts (a int, b text, c int, s text static, v int, PRIMARY KEY ((a, b), c))");
        session.execute("CREATE INDEX ON q.parts (b)");
        session.execute("CREATE INDEX ON q.parts (c)");
        session.execute("CREATE INDEX ON q.parts (s)");
        for (int a = 0; a < 4; a++) {
            for (int c = 0; c < 3; c++) session.execute("INSERT INTO q.parts (a, b, c, s, v) VALUES (?, ?, ?, ?, ?)", a, "b" + a % 2, c, "s" + a, c);
        }
        assertThat(rows("SELECT a, c FROM q.parts WHERE b = 'b1'")).containsExactlyInAnyOrder("1,0", "1,1", "1,2", "3,0", "3,1", "3,2");
        assertThat(rows("SELECT a, c FROM q.parts WHERE c = 2")).containsExactlyInAnyOrder("0,2", "1,2", "2,2", "3,2");
        assertThat(rows("SELECT a, c FROM q.parts WHERE c > 0 AND c <= 1")).containsExactlyInAnyOrder("0,1", "1,1", "2,1", "3,1");
        assertThat(rows("SELECT a, c FROM q.parts WHERE s = 's2'", 1)).containsExactly("2,0", "2,1", "2,2");
        assertThat(rows("SELECT a, c FROM q.parts WHERE s = 's2' AND c = 1")).containsExactly("2,1");
        session.execute("UPDATE q.parts SET s = 'moved' WHERE a = 2 AND b = 'b0'");
        assertThat(rows("SELECT a, c FROM q.parts WHERE s = 's2'")).isEmpty();
        assertThat(rows("SELECT a FROM q.parts WHERE s = 'moved'")).containsExactly("2", "2", "2");
        invalid("SELECT * FROM q.parts WHERE a = 1", FILTERING);
    }

    @Test
    void collectionsAreIndexedByValuesKeysEntriesAndWhole() {
        session.execute("CREATE TABLE q.coll (k int PRIMARY KEY, tags set<text>, attrs map<text, int>, nums list<int>, f frozen<list<int>>)");
        session.execute("CREATE INDEX ON q.coll (tags)");
        session.execute("CREATE INDEX ON q.coll (keys(attrs))");
        session.execute("CREATE INDEX ON q.coll (entries(attrs))");
        session.execute("CREATE INDEX ON q.coll (values(nums))");
        session.execute("CREATE INDEX ON q.coll (full(f))");
        session.execute("INSERT INTO q.coll (k, tags, attrs, nums, f) VALUES (1, {'red', 'big'}, {'w': 1, 'h': 2}, [5, 6], [1, 2])");
        session.execute("INSERT INTO q.coll (k, tags, attrs, nums, f) VALUES (2, {'red'}, {'w': 3}, [6], [2, 1])");
        session.execute("INSERT INTO q.coll (k, tags, attrs, nums, f) VALUES (3, {'blue'}, {'h': 1}, [7], [1, 2])");
        assertThat(rows("SELECT k FROM q.coll WHERE tags CONTAINS 'red'")).containsExactlyInAnyOrder("1", "2");
        assertThat(rows("SELECT k FROM q.coll WHERE attrs CONTAINS KEY 'h'")).containsExactlyInAnyOrder("1", "3");
        assertThat(rows("SELECT k FROM q.coll WHERE attrs['w'] = 3")).containsExactly("2");
        assertThat(rows("SELECT k FROM q.coll WHERE nums CONTAINS 6")).containsExactlyInAnyOrder("1", "2");
        assertThat(rows("SELECT k FROM q.coll WHERE f = [1, 2]")).containsExactlyInAnyOrder("1", "3");
        assertThat(rows("SELECT k FROM q.coll WHERE tags CONTAINS 'red' AND attrs CONTAINS KEY 'h'")).containsExactly("1");
        session.execute("UPDATE q.coll SET tags = tags - {'red'} WHERE k = 1");
        session.execute("DELETE attrs['w'] FROM q.coll WHERE k = 2");
        assertThat(rows("SELECT k FROM q.coll WHERE tags CONTAINS 'red'")).containsExactly("2");
        assertThat(rows("SELECT k FROM q.coll WHERE attrs['w'] = 3")).isEmpty();
        invalid("SELECT k FROM q.coll WHERE attrs CONTAINS 1", FILTERING);
        invalid("SELECT k FROM q.coll WHERE attrs CONTAINS 1 AND tags CONTAINS 'red'", FILTERING);
    }

    @Test
    void caseInsensitiveTextIndexesMatchAnalyzedValues() {
        session.execute("CREATE TABLE q.words (k int PRIMARY KEY, w text)");
        session.execute("CREATE INDEX ON q.words (w) USING 'sai' WITH OPTIONS = {'case_sensitive': 'false', 'normalize': 'true'}");
        session.execute("INSERT INTO q.words (k, w) VALUES (1, 'Hello')");
        session.execute("INSERT INTO q.words (k, w) VALUES (2, 'HELLO')");
        session.execute("INSERT INTO q.words (k, w) VALUES (3, 'help')");
        assertThat(rows("SELECT k FROM q.words WHERE w = 'hello'")).containsExactlyInAnyOrder("1", "2");
        assertThat(rows("SELECT k FROM q.words WHERE w = 'hElLo'")).containsExactlyInAnyOrder("1", "2");
    }

    @Test
    void indexesOnTablesWithDataAreBuiltAndThenAnswer() throws InterruptedException {
        session.execute("CREATE TABLE q.later (k int PRIMARY KEY, v int)");
        for (int i = 0; i < 300; i++) session.execute("INSERT INTO q.later (k, v) VALUES (?, ?)", i, i % 5);
        session.execute("CREATE INDEX later_v ON q.later (v)");
        NodeProcess.await("the index to be built", Duration.ofSeconds(30), () -> session.execute(
                "SELECT is_queryable FROM system_views.sai_column_indexes WHERE keyspace_name = 'q' AND index_name = 'later_v'").one().getBoolean(0));
        Row status = session.execute("SELECT table_name, column_name, is_building, is_string, analyzer FROM system_views.sai_column_indexes "
                + "WHERE keyspace_name = 'q' AND index_name = 'later_v'").one();
        assertThat(status.getString("table_name")).isEqualTo("later");
        assertThat(status.getString("column_name")).isEqualTo("v");
        assertThat(status.getBoolean("is_building")).isFalse();
        assertThat(status.getBoolean("is_string")).isFalse();
        assertThat(rows("SELECT k FROM q.later WHERE v = 4", 7)).hasSize(60);
        assertThat(rows("SELECT k FROM q.later WHERE v < 2", 13)).hasSize(120);
    }

}
