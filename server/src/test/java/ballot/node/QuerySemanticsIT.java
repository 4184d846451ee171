package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** CQL semantics that applications rely on, checked through the Java driver against a real node. */
class QuerySemanticsIT {
    private static TestNode node;
    private static CqlSession session;

    @BeforeAll
    static void start() {
        node = TestNode.start("semantics");
        session = node.session();
        session.execute("CREATE KEYSPACE q WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    }

    @AfterAll
    static void stop() {
        if (session != null) session.close();
        if (node != null) node.close();
    }

    private static List<String> rows(String cql) {
        return rows(SimpleStatement.newInstance(cql));
    }

    private static List<String> rows(SimpleStatement statement) {
        List<String> out = new ArrayList<>();
        for (Row row : session.execute(statement)) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < row.getColumnDefinitions().size(); i++) {
                if (i > 0) sb.append(',');
                Object v = row.getObject(i);
                sb.append(v);
            }
            out.add(sb.toString());
        }
        return out;
    }

    @Test
    void staticColumnsAreSharedByThePartitionAndShowUpWithoutRows() {
        session.execute("CREATE TABLE q.st (k int, c int, s text static, v int, PRIMARY KEY (k, c))");
        session.execute("INSERT INTO q.st (k, c, s, v) VALUES (1, 1, 'one', 10)");
        session.execute("INSERT INTO q.st (k, c, v) VALUES (1, 2, 20)");
        session.execute("UPDATE q.st SET s = 'shared' WHERE k = 1");
        session.execute("INSERT INTO q.st (k, s) VALUES (2, 'alone')");
        assertThat(rows("SELECT k, c, s, v FROM q.st WHERE k = 1")).containsExactly("1,1,shared,10", "1,2,shared,20");
        assertThat(rows("SELECT k, c, s, v FROM q.st WHERE k = 2")).containsExactly("2,null,alone,null");
        assertThat(rows("SELECT DISTINCT k, s FROM q.st")).containsExactlyInAnyOrder("1,shared", "2,alone");
        // Cassandra's DISTINCT rules: a partition's key is needed only when partitions are scanned, and the columns
        // inside functions count.
        assertThat(rows("SELECT DISTINCT s FROM q.st WHERE k = 2")).containsExactly("alone");
        assertThat(rows("SELECT DISTINCT count(k) FROM q.st")).containsExactly("2");
        assertThatThrownBy(() -> session.execute("SELECT DISTINCT s FROM q.st")).isInstanceOf(InvalidQueryException.class)
                .hasMessage("SELECT DISTINCT queries must request all the partition key columns (missing k)");
        assertThatThrownBy(() -> session.execute("SELECT DISTINCT k, writetime(v) FROM q.st")).isInstanceOf(InvalidQueryException.class)
                .hasMessage("SELECT DISTINCT queries must only request partition key columns and/or static columns (not v)");
    }

    /** Checked against Cassandra 5.0.9: a list's element order is the order its writes ran, not their timestamps. */
    @Test
    void listsGrowInTheOrderTheirWritesRunWhateverTheirTimestamps() {
        session.execute("CREATE TABLE q.lists (k int PRIMARY KEY, l list<int>)");
        session.execute("UPDATE q.lists USING TIMESTAMP 20 SET l = l + [1] WHERE k = 1");
        session.execute("UPDATE q.lists USING TIMESTAMP 10 SET l = l + [2] WHERE k = 1");
        session.execute("UPDATE q.lists USING TIMESTAMP 30 SET l = [3] + l WHERE k = 1");
        session.execute("UPDATE q.lists USING TIMESTAMP 5 SET l = [4] + l WHERE k = 1");
        assertThat(rows("SELECT l, writetime(l) FROM q.lists WHERE k = 1")).containsExactly("[4, 3, 1, 2],[5, 30, 20, 10]");
        session.execute("BEGIN BATCH UPDATE q.lists SET l = l + [1] WHERE k = 2; UPDATE q.lists SET l = l + [2, 3] WHERE k = 2; "
                + "UPDATE q.lists SET l = [0] + l WHERE k = 2; APPLY BATCH");
        assertThat(rows("SELECT l FROM q.lists WHERE k = 2")).containsExactly("[0, 1, 2, 3]");
    }

    /** A deleted counter stays deleted (as Cassandra 5.0.9), while a deleted row's counters count again from zero. */
    @Test
    void aDeletedCounterIgnoresLaterIncrements() {
        session.execute("CREATE TABLE q.counts (k int, c int, n counter, m counter, PRIMARY KEY (k, c))");
        session.execute("UPDATE q.counts SET n = n + 5, m = m + 7 WHERE k = 1 AND c = 1");
        session.execute("DELETE n FROM q.counts WHERE k = 1 AND c = 1");
        session.execute("UPDATE q.counts SET n = n + 2 WHERE k = 1 AND c = 1");
        assertThat(rows("SELECT c, n, m FROM q.counts WHERE k = 1")).containsExactly("1,null,7");
        session.execute("DELETE n FROM q.counts WHERE k = 2 AND c = 1");
        session.execute("UPDATE q.counts SET n = n + 2 WHERE k = 2 AND c = 1");
        assertThat(rows("SELECT c, n FROM q.counts WHERE k = 2")).isEmpty();
        session.execute("DELETE FROM q.counts WHERE k = 3 AND c = 1");
        session.execute("UPDATE q.counts SET n = n + 2 WHERE k = 3 AND c = 1");
        assertThat(rows("SELECT c, n FROM q.counts WHERE k = 3")).containsExactly("1,2");
        // A row or partition deletion hides what was counted, and an increment after it counts from zero
        // (docs/storage.md: Cassandra shows 7 while its counter cache holds the deleted value). It was 5: the shard
        // written after the deletion merged with the deleted one, of the same clock, before the deletion applied.
        session.execute("UPDATE q.counts SET n = n + 5 WHERE k = 4 AND c = 1");
        session.execute("DELETE FROM q.counts WHERE k = 4 AND c = 1");
        assertThat(rows("SELECT c, n FROM q.counts WHERE k = 4")).isEmpty();
        session.execute("UPDATE q.counts SET n = n + 2 WHERE k = 4 AND c = 1");
        assertThat(rows("SELECT c, n FROM q.counts WHERE k = 4")).containsExactly("1,2");
        session.execute("UPDATE q.counts SET n = n + 5 WHERE k = 5 AND c = 1");
        session.execute("DELETE FROM q.counts WHERE k = 5");
        session.execute("UPDATE q.counts SET n = n + 2, m = m + 1 WHERE k = 5 AND c = 1");
        assertThat(rows("SELECT c, n, m FROM q.counts WHERE k = 5")).containsExactly("1,2,1");
    }

    @Test
    void descendingClusteringSlicesAndReversedOrder() {
        session.execute("CREATE TABLE q.descending (k int, c int, v int, PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c DESC)");
        for (int c = 1; c <= 6; c++) session.execute("INSERT INTO q.descending (k, c, v) VALUES (1, " + c + ", " + c * 10 + ")");
        assertThat(rows("SELECT c FROM q.descending WHERE k = 1 AND c > 2 AND c <= 5")).containsExactly("5", "4", "3");
        assertThat(rows("SELECT c FROM q.descending WHERE k = 1 AND c > 2 AND c <= 5 ORDER BY c ASC")).containsExactly("3", "4", "5");
        assertThat(rows("SELECT c FROM q.descending WHERE k = 1 AND c > 2 AND c <= 5 ORDER BY c DESC, c ASC"))
                .as("the last ordering of a column wins").containsExactly("3", "4", "5");
        assertThat(rows("SELECT c FROM q.descending WHERE k = 1 AND c IN (2, 6, 4)")).containsExactly("6", "4", "2");
        assertThat(rows("SELECT c FROM q.descending WHERE k = 1 LIMIT 2")).containsExactly("6", "5");
    }

    @Test
    void multiColumnRelationsAndRangeDeletions() {
        session.execute("CREATE TABLE q.mc (k int, a int, b int, v int, PRIMARY KEY (k, a, b))");
        for (int a = 1; a <= 3; a++) {
            for (int b = 1; b <= 3; b++) session.execute("INSERT INTO q.mc (k, a, b, v) VALUES (0, " + a + ", " + b + ", 0)");
        }
        assertThat(rows("SELECT a, b FROM q.mc WHERE k = 0 AND (a, b) > (2, 2) AND (a, b) <= (3, 2)")).containsExactly("2,3", "3,1", "3,2");
        assertThat(rows("SELECT a, b FROM q.mc WHERE k = 0 AND (a, b) IN ((1, 2), (3, 3))")).containsExactly("1,2", "3,3");
        session.execute("DELETE FROM q.mc WHERE k = 0 AND a = 2");
        session.execute("DELETE FROM q.mc WHERE k = 0 AND a = 3 AND b >= 2");
        assertThat(rows("SELECT a, b FROM q.mc WHERE k = 0")).containsExactly("1,1", "1,2", "1,3", "3,1");
    }

    @Test
    void filteringPagesThroughManyNonMatchingRows() {
        session.execute("CREATE TABLE q.f (k int, c int, v int, PRIMARY KEY (k, c))");
        for (int k = 0; k < 4; k++) {
            for (int c = 0; c < 300; c++) session.execute("INSERT INTO q.f (k, c, v) VALUES (" + k + ", " + c + ", " + (c % 50) + ")");
        }
        assertThatThrownBy(() -> session.execute("SELECT * FROM q.f WHERE v = 7"))
                .isInstanceOf(InvalidQueryException.class).hasMessageContaining("ALLOW FILTERING");
        List<String> matches = rows(SimpleStatement.newInstance("SELECT k, c FROM q.f WHERE v = 7 ALLOW FILTERING").setPageSize(5));
        assertThat(matches).hasSize(4 * 6).doesNotHaveDuplicates();
        assertThat(rows("SELECT count(*) FROM q.f WHERE k = 1 AND v < 10 ALLOW FILTERING")).containsExactly("60");
    }

    @Test
    void groupByAggregatesPerPartitionAndClusteringPrefix() {
        session.execute("CREATE TABLE q.g (k int, a int, b int, v int, PRIMARY KEY (k, a, b))");
        for (int k = 0; k < 2; k++) {
            for (int a = 0; a < 2; a++) {
                for (int b = 0; b < 3; b++) session.execute("INSERT INTO q.g (k, a, b, v) VALUES (" + k + ", " + a + ", " + b + ", " + (a * 10 + b) + ")");
            }
        }
        assertThat(rows("SELECT k, a, count(*), sum(v), max(v) FROM q.g WHERE k = 0 GROUP BY k, a"))
                .containsExactly("0,0,3,3,2", "0,1,3,33,12");
        assertThat(rows("SELECT avg(v), min(v) FROM q.g WHERE k = 1")).containsExactly("6,0");
    }

    @Test
    void timestampsTtlsAndDefaultTimeToLive() {
        session.execute("CREATE TABLE q.t (k int PRIMARY KEY, v text) WITH default_time_to_live = 1000");
        session.execute("INSERT INTO q.t (k, v) VALUES (1, 'newer') USING TIMESTAMP 2000");
        session.execute("INSERT INTO q.t (k, v) VALUES (1, 'older') USING TIMESTAMP 1000");
        Row row = session.execute("SELECT v, writetime(v), ttl(v) FROM q.t WHERE k = 1").one();
        assertThat(row.getString(0)).isEqualTo("newer");
        assertThat(row.getLong(1)).isEqualTo(2000);
        assertThat(row.getInt(2)).isBetween(990, 1000);
        session.execute("INSERT INTO q.t (k, v) VALUES (2, 'forever') USING TTL 0");
        assertThat(session.execute("SELECT ttl(v) FROM q.t WHERE k = 2").one().isNull(0)).isTrue();
        session.execute("DELETE FROM q.t USING TIMESTAMP 1500 WHERE k = 1");
        assertThat(rows("SELECT v FROM q.t WHERE k = 1")).as("a delete older than the write does not remove it").containsExactly("newer");
    }

    /**
     * IN on the partition key returns the partitions sorted by key value and without duplicates, as Cassandra does
     * (its cqlsh tests print them so), not in token order; paging walks them in that order.
     */
    @Test
    void partitionsOfAnInComeInKeyOrder() {
        session.execute("CREATE TABLE q.in_text (k text PRIMARY KEY, v int)");
        for (String k : List.of("1", "13", "2", "b", "a")) session.execute("INSERT INTO q.in_text (k, v) VALUES ('" + k + "', 0)");
        assertThat(rows("SELECT k FROM q.in_text WHERE k IN ('2', 'b', '13', '1', 'a', '2')")).containsExactly("1", "13", "2", "a", "b");
        session.execute("CREATE TABLE q.in_pair (a int, b int, c int, PRIMARY KEY ((a, b), c))");
        for (int a = 0; a < 3; a++) for (int b = 0; b < 3; b++) for (int c = 0; c < 2; c++)
            session.execute("INSERT INTO q.in_pair (a, b, c) VALUES (" + a + ", " + b + ", " + c + ")");
        List<String> expected = List.of("0,1,0", "0,1,1", "0,2,0", "0,2,1", "2,1,0", "2,1,1", "2,2,0", "2,2,1");
        assertThat(rows("SELECT a, b, c FROM q.in_pair WHERE a IN (2, 0) AND b IN (2, 1)")).containsExactlyElementsOf(expected);
        assertThat(rows(SimpleStatement.newInstance("SELECT a, b, c FROM q.in_pair WHERE a IN (2, 0) AND b IN (2, 1)").setPageSize(3)))
                .as("paged three rows at a time").containsExactlyElementsOf(expected);
    }

    @Test
    void tokenRangesCoverTheRingWithoutOverlap() {
        session.execute("CREATE TABLE q.tr (k int PRIMARY KEY)");
        for (int k = 0; k < 50; k++) session.execute("INSERT INTO q.tr (k) VALUES (" + k + ")");
        List<String> low = rows("SELECT k FROM q.tr WHERE token(k) <= 0");
        List<String> high = rows("SELECT k FROM q.tr WHERE token(k) > 0");
        assertThat(low.size() + high.size()).isEqualTo(50);
        List<String> all = new ArrayList<>(low);
        all.addAll(high);
        assertThat(all).doesNotHaveDuplicates();
        // The same split by the token of a key value, literal or bound, as token paging writes it.
        List<String> fromKey = rows("SELECT k FROM q.tr WHERE token(k) > token(7)");
        List<String> toKey = rows(SimpleStatement.newInstance("SELECT k FROM q.tr WHERE token(k) <= token(?)", 7));
        assertThat(fromKey.size() + toKey.size()).isEqualTo(50);
        assertThat(toKey).last().isEqualTo("7");
    }

    @Test
    void jsonInAndOut() {
        session.execute("CREATE TABLE q.j (k int PRIMARY KEY, name text, tags set<text>, \"Mixed\" int)");
        session.execute("INSERT INTO q.j JSON '{\"k\": 1, \"name\": \"ann\", \"tags\": [\"b\", \"a\"], \"\\\"Mixed\\\"\": 7}'");
        assertThat(session.execute("SELECT JSON k, name, tags, \"Mixed\" FROM q.j WHERE k = 1").one().getString(0))
                .isEqualTo("{\"k\": 1, \"name\": \"ann\", \"tags\": [\"a\", \"b\"], \"\\\"Mixed\\\"\": 7}");
        session.execute("INSERT INTO q.j JSON '{\"k\": 1, \"name\": \"bob\"}' DEFAULT UNSET");
        assertThat(rows("SELECT name, tags FROM q.j WHERE k = 1")).containsExactly("bob,[a, b]");
    }

    @Test
    void badStatementsGetClearErrors() {
        session.execute("CREATE TABLE q.e (k int, c int, v int, PRIMARY KEY (k, c))");
        assertThatThrownBy(() -> session.execute("INSERT INTO q.e (k, v) VALUES (1, 1)"))
                .isInstanceOf(InvalidQueryException.class).hasMessage("Some clustering keys are missing: c");
        assertThatThrownBy(() -> session.execute("UPDATE q.e SET k = 2 WHERE k = 1 AND c = 1"))
                .isInstanceOf(InvalidQueryException.class).hasMessage("PRIMARY KEY part k found in SET part");
        assertThatThrownBy(() -> session.execute("SELECT * FROM q.e WHERE k = 1 ORDER BY v"))
                .isInstanceOf(InvalidQueryException.class).hasMessageContaining("Order by is currently only supported on the clustered columns");
        assertThatThrownBy(() -> session.execute("INSERT INTO q.e (k, c, v) VALUES (1, 1, 1) USING TTL -1"))
                .isInstanceOf(InvalidQueryException.class).hasMessage("A TTL must be greater or equal to 0, but was -1");
        assertThatThrownBy(() -> session.execute("SELECT * FROM q.e WHERE k = 1 LIMIT 0"))
                .isInstanceOf(InvalidQueryException.class).hasMessage("LIMIT must be strictly positive");
        ResultSet ok = session.execute("SELECT * FROM q.e WHERE k IN ()");
        assertThat(ok.all()).isEmpty();
    }
}
