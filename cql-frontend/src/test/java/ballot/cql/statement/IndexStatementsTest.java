package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.InvalidRequestException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** CREATE and DROP INDEX refusals, and those of columns indexes depend on, as a Cassandra 5.0.9 node gave them. */
class IndexStatementsTest {
    private final SchemaFixture schema = new SchemaFixture();

    @BeforeEach
    void table() {
        schema.run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        schema.run("CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c))");
    }

    private void refused(String cql, String message) {
        assertThatThrownBy(() -> schema.run(cql)).isExactlyInstanceOf(InvalidRequestException.class).hasMessage(message);
    }

    @Test
    void onlyCustomIndexesTakeSeveralColumns() {
        refused("CREATE INDEX two ON ks.t (c, v)", "Only CUSTOM indexes support multiple columns");
        // USING makes it custom without the keyword: the index class's own refusal (Cassandra 5.0.9)
        refused("CREATE INDEX two ON ks.t (c, v) USING 'sai'", "A storage-attached index cannot be created over multiple columns: c, v");
    }

    @Test
    void sasiIsDisabledAsInCassandrasDefaults() {
        refused("CREATE CUSTOM INDEX ON ks.t (v) USING 'org.apache.cassandra.index.sasi.SASIIndex'", "SASI indexes are disabled. Enable in cassandra.yaml to use.");
        refused("CREATE INDEX ON ks.t (v) USING 'org.apache.cassandra.index.sasi.SASIIndex'", "SASI indexes are disabled. Enable in cassandra.yaml to use.");
    }

    @Test
    void noIndexOfASystemKeyspaceIsDropped() {
        refused("DROP INDEX IF EXISTS system.i", "System keyspace 'system' is not user-modifiable");
    }

    @Test
    void aColumnAnIndexDependsOnIsNeitherDroppedNorRenamed() {
        schema.run("CREATE INDEX cidx ON ks.t (c)");
        schema.run("CREATE INDEX vidx ON ks.t (v)");
        refused("ALTER TABLE ks.t RENAME c TO c2", "Can't rename column c because it has dependent secondary indexes (cidx)");
        refused("ALTER TABLE ks.t DROP v", "Cannot drop column v because it has dependent secondary indexes (vidx)");
    }
}
