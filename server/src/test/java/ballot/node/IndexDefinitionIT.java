package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.metadata.schema.IndexMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.servererrors.InvalidConfigurationInQueryException;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** CREATE/DROP INDEX through the Java driver: names, metadata, DESCRIBE and Cassandra 5.0's errors (docs/indexes.md). */
class IndexDefinitionIT {
    private static TestNode node;
    private static CqlSession session;

    @BeforeAll
    static void start() {
        node = TestNode.start("index-ddl");
        session = node.session();
        session.execute("CREATE KEYSPACE d WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    }

    @AfterAll
    static void stop() {
        if (session != null) session.close();
        if (node != null) node.close();
    }

    private static Map<String, String> options(String index) {
        Row row = session.execute("SELECT kind, options FROM system_schema.indexes WHERE keyspace_name = 'd' AND table_name = 't' AND index_name = '"
                + index + "'").one();
        assertThat(row).as("index %s", index).isNotNull();
        assertThat(row.getString("kind")).isEqualTo("CUSTOM");
        return row.getMap("options", String.class, String.class);
    }

    private static List<String> describe(String cql) {
        List<String> out = new ArrayList<>();
        for (Row row : session.execute(cql)) out.add(row.getString("type") + " " + row.getString("name") + ": " + row.getString("create_statement"));
        return out;
    }

    @Test
    void indexesAreCreatedNamedStoredDescribedAndDropped() {
        session.execute("CREATE TABLE d.t (k int, c text, v int, s text static, m map<text, int>, l list<int>, f frozen<set<int>>, "
                + "PRIMARY KEY (k, c))");
        session.execute("CREATE INDEX ON d.t (v)");
        session.execute("CREATE INDEX IF NOT EXISTS named_c ON d.t (c)");
        session.execute("CREATE CUSTOM INDEX ON d.t (s) USING 'StorageAttachedIndex' WITH OPTIONS = {'case_sensitive': 'false'}");
        session.execute("CREATE INDEX ON d.t (keys(m)) USING 'sai'");
        session.execute("CREATE CUSTOM INDEX m_entries ON d.t (entries(m)) USING 'org.apache.cassandra.index.sai.StorageAttachedIndex'");
        session.execute("CREATE INDEX ON d.t (m)");
        session.execute("CREATE INDEX ON d.t (l)");
        session.execute("CREATE INDEX ON d.t (full(f))");

        assertThat(options("t_v_idx")).isEqualTo(Map.of("class_name", "sai", "target", "v"));
        assertThat(options("named_c")).isEqualTo(Map.of("class_name", "sai", "target", "c"));
        assertThat(options("t_s_idx")).isEqualTo(Map.of("class_name", "StorageAttachedIndex", "target", "s", "case_sensitive", "false"));
        assertThat(options("t_m_idx")).isEqualTo(Map.of("class_name", "sai", "target", "keys(m)"));
        assertThat(options("m_entries")).containsEntry("target", "entries(m)")
                .containsEntry("class_name", "org.apache.cassandra.index.sai.StorageAttachedIndex");
        assertThat(options("t_m_idx_1")).containsEntry("target", "values(m)");
        assertThat(options("t_l_idx")).containsEntry("target", "values(l)");
        assertThat(options("t_f_idx")).containsEntry("target", "full(f)");

        // IF NOT EXISTS on a taken name, or on an identical definition, changes nothing.
        session.execute("CREATE INDEX IF NOT EXISTS named_c ON d.t (v)");
        session.execute("CREATE INDEX IF NOT EXISTS other ON d.t (c)");
        assertThat(session.execute("SELECT index_name FROM system_schema.indexes WHERE keyspace_name = 'd' AND table_name = 't'").all()).hasSize(8);

        TableMetadata table = session.getMetadata().getKeyspace("d").orElseThrow().getTable("t").orElseThrow();
        assertThat(table.getIndexes()).containsKeys(
                com.datastax.oss.driver.api.core.CqlIdentifier.fromInternal("t_v_idx"),
                com.datastax.oss.driver.api.core.CqlIdentifier.fromInternal("t_s_idx"));
        IndexMetadata v = table.getIndexes().get(com.datastax.oss.driver.api.core.CqlIdentifier.fromInternal("t_v_idx"));
        assertThat(v.getClassName()).contains("sai");
        assertThat(v.getTarget()).isEqualTo("v");

        assertThat(describe("DESCRIBE INDEX d.t_s_idx")).containsExactly(
                "index t_s_idx: CREATE CUSTOM INDEX t_s_idx ON d.t (s) USING 'StorageAttachedIndex' WITH OPTIONS = {'case_sensitive': 'false'};");
        List<String> described = describe("DESCRIBE TABLE d.t");
        assertThat(described.get(0)).startsWith("table t: CREATE TABLE d.t (");
        assertThat(described.subList(1, described.size())).containsExactly(
                "index m_entries: CREATE CUSTOM INDEX m_entries ON d.t (entries(m)) USING 'org.apache.cassandra.index.sai.StorageAttachedIndex';",
                "index named_c: CREATE CUSTOM INDEX named_c ON d.t (c) USING 'sai';",
                "index t_f_idx: CREATE CUSTOM INDEX t_f_idx ON d.t (full(f)) USING 'sai';",
                "index t_l_idx: CREATE CUSTOM INDEX t_l_idx ON d.t (values(l)) USING 'sai';",
                "index t_m_idx: CREATE CUSTOM INDEX t_m_idx ON d.t (keys(m)) USING 'sai';",
                "index t_m_idx_1: CREATE CUSTOM INDEX t_m_idx_1 ON d.t (values(m)) USING 'sai';",
                "index t_s_idx: CREATE CUSTOM INDEX t_s_idx ON d.t (s) USING 'StorageAttachedIndex' WITH OPTIONS = {'case_sensitive': 'false'};",
                "index t_v_idx: CREATE CUSTOM INDEX t_v_idx ON d.t (v) USING 'sai';");
        assertThat(describe("DESCRIBE d.named_c")).containsExactly("index named_c: CREATE CUSTOM INDEX named_c ON d.t (c) USING 'sai';");

        assertThatThrownBy(() -> session.execute("ALTER TABLE d.t DROP v")).isInstanceOf(InvalidQueryException.class)
                .hasMessage("Cannot drop column v because it has dependent secondary indexes (t_v_idx)");
        ResultSet dropped = session.execute("DROP INDEX d.t_v_idx");
        assertThat(dropped.wasApplied()).isTrue();
        session.execute("DROP INDEX IF EXISTS d.t_v_idx");
        assertThatThrownBy(() -> session.execute("DROP INDEX d.t_v_idx")).isInstanceOf(InvalidQueryException.class)
                .hasMessage("Index 'd.t_v_idx' doesn't exist'");
        assertThat(session.execute("SELECT index_name FROM system_schema.indexes WHERE keyspace_name = 'd' AND table_name = 't' AND index_name = 't_v_idx'")
                .one()).isNull();
        session.execute("ALTER TABLE d.t DROP v");
    }

    @Test
    void invalidIndexesGetCassandrasErrors() {
        session.execute("CREATE TABLE d.e (k int PRIMARY KEY, v int, b blob, t text, d duration, fl frozen<list<int>>, s set<int>, "
                + "m map<int, int>, u frozen<tuple<int, text>>)");
        session.execute("CREATE TABLE d.e2 (a int, b int, c int, PRIMARY KEY ((a, b)))");
        session.execute("CREATE TABLE d.counts (k int PRIMARY KEY, n counter)");
        session.execute("CREATE INDEX ev ON d.e (v)");
        invalid("CREATE INDEX ev ON d.e (t)", "Index 'ev' already exists");
        invalid("CREATE INDEX other ON d.e (v)", "Index other is a duplicate of existing index ev");
        invalid("CREATE INDEX ON d.e (v) USING 'StorageAttachedIndex'", "Cannot create more than one storage-attached index on the same column: v");
        invalid("CREATE INDEX ON d.e (k)", "Cannot create secondary index on the only partition key column k");
        invalid("CREATE INDEX ON d.e (nope)", "Undefined column name nope in table d.e");
        invalid("CREATE INDEX ON d.counts (n)", "Secondary indexes on counter tables aren't supported");
        invalid("CREATE INDEX ON d.e (d)", "Secondary indexes are not supported on duration columns");
        invalid("CREATE INDEX ON d.e (b)", "Unsupported type: blob");
        invalid("CREATE INDEX ON d.e (fl)", "Cannot create values() index on frozen column fl. Frozen collections are immutable and must be "
                + "fully indexed by using the 'full(fl)' modifier");
        invalid("CREATE INDEX ON d.e (full(s))", "full() indexes can only be created on frozen collections");
        invalid("CREATE INDEX ON d.e (keys(v))", "Cannot create keys() index on v. Non-collection columns only support simple indexes");
        invalid("CREATE INDEX ON d.e (keys(s))", "Cannot create index on keys of column s with non-map type");
        invalid("CREATE INDEX ON d.missing (v)", "Table 'missing' doesn't exist");
        invalid("CREATE INDEX ON d.e (t) USING 'sai' WITH OPTIONS = {'case_sensitive': 'maybe'}", "Illegal value for boolean option 'case_sensitive': maybe");
        invalid("CREATE INDEX ON d.e (m) USING 'sai' WITH OPTIONS = {'case_sensitive': 'false'}", "CQL type int cannot be analyzed.");
        invalid("CREATE INDEX ON d.e2 (a) USING 'sai' WITH OPTIONS = {'normalize': 'true'}",
                "Analysis options are not supported on primary key columns, but found {'normalize': 'true'}");
        invalid("CREATE INDEX ON d.e (t) USING 'sai' WITH OPTIONS = {'target': 'v'}", "Cannot specify target as a CUSTOM option");
        assertThatThrownBy(() -> session.execute("CREATE INDEX ON d.e (t) USING 'sai' WITH OPTIONS = {'similarity': 'x'}"))
                .isInstanceOf(InvalidConfigurationInQueryException.class)
                .hasMessage("Properties specified [similarity] are not understood by StorageAttachedIndex");
        assertThatThrownBy(() -> session.execute("CREATE CUSTOM INDEX ON d.e (t) USING 'com.example.Nope'"))
                .isInstanceOf(InvalidConfigurationInQueryException.class).hasMessage("Unable to find custom indexer class 'com.example.Nope'");
        assertThatThrownBy(() -> session.execute("CREATE INDEX ON d.e (t) WITH foo = 1")).isInstanceOf(SyntaxError.class)
                .hasMessage("Unknown property 'foo'");
        session.execute("CREATE INDEX ON d.e2 (a)");
        session.execute("CREATE INDEX ON d.e (u)");
        assertThat(options2("d", "e2", "e2_a_idx")).containsEntry("target", "a");
    }

    private static Map<String, String> options2(String ks, String table, String index) {
        return session.execute("SELECT options FROM system_schema.indexes WHERE keyspace_name = ? AND table_name = ? AND index_name = ?",
                ks, table, index).one().getMap("options", String.class, String.class);
    }

    private static void invalid(String cql, String message) {
        assertThatThrownBy(() -> session.execute(cql)).as(cql).isInstanceOf(InvalidQueryException.class).hasMessage(message);
    }
}
