package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.protocol.message.ColumnSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the PREPARED result tells drivers of a statement's markers, as Cassandra 5.0 tells it: the name of what each
 * marker binds and which markers bind the partition key (the values below are Cassandra 5.0.9's answers).
 */
class PreparedMetadataTest {
    private final CasFixture f = new CasFixture(
            "CREATE TYPE pt (x int, y text)",
            "CREATE TABLE t (k int, c int, d int, v int, m map<int, text>, l list<int>, fm frozen<map<int, int>>, "
                    + "PRIMARY KEY (k, c, d))",
            "CREATE TABLE cpk (a int, b text, c int, d int, v int, PRIMARY KEY ((a, b, c), d))",
            "CREATE TABLE u (k int PRIMARY KEY, u pt, tu tuple<int, text>)");

    private List<String> names(String cql) {
        return f.preparer.prepare(cql, "ks").variables().stream().map(ColumnSpec::name).toList();
    }

    private List<Integer> keyIndexes(String cql) {
        return f.preparer.prepare(cql, "ks").partitionKeyIndexes();
    }

    @Test
    void markersOfAMultiColumnRelationBindTheColumnsThemselves() {
        assertThat(names("SELECT * FROM t WHERE k = ? AND (c, d) > (?, ?)")).containsExactly("k", "c", "d");
        assertThat(names("SELECT * FROM t WHERE k = ? AND (c, d) >= (?, ?) AND (c) < (?)")).containsExactly("k", "c", "d", "c");
        assertThat(names("SELECT * FROM t WHERE k = ? AND (c, d) IN ((?, ?), (?, ?))")).containsExactly("k", "c", "d", "c", "d");
        assertThat(names("SELECT * FROM t WHERE k = ? AND (c, d) = (?, 1)")).containsExactly("k", "c");
        assertThat(names("DELETE FROM t WHERE k = ? AND (c, d) IN ((?, ?))")).containsExactly("k", "c", "d");
        assertThat(names("SELECT * FROM t WHERE k = ? AND (c, d) IN ?")).containsExactly("k", "in(c,d)");
        assertThat(names("DELETE FROM t WHERE k = ? AND (c) IN ?")).containsExactly("k", "in(c)");
        assertThat(names("SELECT * FROM t WHERE k = ? AND (c, d) = ?")).as("a whole tuple").containsExactly("k", "(c,d)");
    }

    @Test
    void componentsOfATupleLiteralAreNumberedAfterTheirReceiver() {
        assertThat(names("UPDATE u SET tu = (?, ?) WHERE k = ?")).containsExactly("tu[0]", "tu[1]", "k");
    }

    @Test
    void markersInASelectionBindSelection() {
        assertThat(names("SELECT k, blobasint(?) FROM t WHERE k = ?")).containsExactly("[selection]", "k");
        assertThat(names("SELECT k, (int) ? FROM t WHERE k = ?")).containsExactly("[selection]", "k");
    }

    @Test
    void functionArgumentsAreNamedWithTheFunctionsKeyspace() {
        assertThat(names("SELECT * FROM t WHERE k = blobAsInt(?)")).containsExactly("arg0(system.blobasint)");
        assertThat(names("INSERT INTO t (k, c, d, v) VALUES (?, ?, ?, fromJson(?))")).containsExactly("k", "c", "d", "arg0(system.fromjson)");
    }

    @Test
    void containsKeyBindsTheKeyOfTheMap() {
        assertThat(names("SELECT * FROM t WHERE m CONTAINS KEY ? ALLOW FILTERING")).containsExactly("key(m)");
        assertThat(names("SELECT * FROM t WHERE m CONTAINS ? ALLOW FILTERING")).containsExactly("value(m)");
    }

    @Test
    void conditionsOnAnElementOrAFieldBindWhatTheyCompare() {
        String update = "UPDATE t SET v = ? WHERE k = ? AND c = ? AND d = ? ";
        assertThat(names(update + "IF m[?] = ?")).endsWith("key(m)", "value(m)");
        assertThat(names(update + "IF l[?] = ?")).endsWith("idx(l)", "value(l)");
        assertThat(names(update + "IF m[?] IN (?, ?)")).endsWith("key(m)", "value(m)", "value(m)");
        assertThat(names(update + "IF fm[?] IN ?")).endsWith("key(fm)", "in(value(fm))");
        assertThat(names(update + "IF v IN ?")).endsWith("in(v)");
        assertThat(names("UPDATE u SET u = ? WHERE k = ? IF u.x = ?")).containsExactly("u", "k", "u.x");
        assertThat(names("UPDATE u SET u = ? WHERE k = ? IF u.x IN ?")).containsExactly("u", "k", "in(u.x)");
    }

    @Test
    void aBatchTimestampIsOfTheBatch() {
        ColumnSpec timestamp = f.preparer.prepare("BEGIN BATCH USING TIMESTAMP ? INSERT INTO t (k, c, d) VALUES (?, ?, ?); APPLY BATCH",
                "ks").variables().get(0);

        assertThat(List.of(timestamp.keyspace(), timestamp.table(), timestamp.name())).containsExactly("[batch]", "[batch]", "[timestamp]");
    }

    @Test
    void theLastMarkerOfAKeyColumnRoutes() {
        assertThat(keyIndexes("SELECT * FROM t WHERE k IN (?, ?)")).containsExactly(1);
        assertThat(keyIndexes("UPDATE t SET v = ? WHERE k IN (?, ?) AND c = ? AND d = ?")).containsExactly(2);
        assertThat(keyIndexes("SELECT * FROM cpk WHERE a = ? AND b IN (?, ?) AND c = ?")).containsExactly(0, 2, 3);
        assertThat(keyIndexes("SELECT * FROM cpk WHERE d = ? AND c = ? AND b = ? AND a = ?")).containsExactly(3, 2, 1);
        assertThat(keyIndexes("SELECT * FROM t WHERE k IN ?")).as("a list is not the column").isEmpty();
        assertThat(keyIndexes("SELECT * FROM cpk WHERE a = 1 AND b = ? AND c = ?")).as("a key column without marker").isEmpty();
    }

    @Test
    void aBatchRoutesByTheMarkersOfAllItsStatements() {
        assertThat(keyIndexes("BEGIN BATCH INSERT INTO t (k, c, d, v) VALUES (?, ?, ?, ?); "
                + "UPDATE t SET v = ? WHERE k = ? AND c = ? AND d = ?; APPLY BATCH")).containsExactly(5);
        assertThat(keyIndexes("BEGIN BATCH UPDATE t SET v = ? WHERE k = ? AND c = ? AND d = ? IF v = ?; "
                + "UPDATE t SET v = ? WHERE k = ? AND c = ? AND d = ?; APPLY BATCH")).containsExactly(6);
        assertThat(keyIndexes("BEGIN BATCH INSERT INTO t (k, c, d, v) VALUES (:k, :c, 0, 1); "
                + "INSERT INTO t (k, c, d, v) VALUES (:k, :c, 1, 1); APPLY BATCH")).containsExactly(2);
    }
}
