package ballot.cql.execute;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.ConsistencyLevel;
import ballot.cql.protocol.message.Batch;
import ballot.cql.protocol.message.BatchType;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.Execute;
import ballot.cql.protocol.message.Query;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.RowsMetadata;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.spi.SchemaStore;
import ballot.cql.statement.CqlStatement;
import ballot.cql.statement.Preparer;
import ballot.cql.statement.QueryContext;
import ballot.cql.statement.QueryEnvironment;
import ballot.cql.type.CqlTypes;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Which schema changes drop which prepared statements, the ids statements and result metadata get, and what admission
 * reckons a request writes (its write tokens).
 */
class PreparedStatementsTest {
    /** The schema, changed by DDL run for real; each change bumps the version. */
    private static final class Schemas implements SchemaStore {
        Schema schema = new Schema(new TreeMap<>(), UUID.randomUUID());

        public Schema schema() {
            return schema;
        }

        public Schema update(UnaryOperator<Map<String, KeyspaceMetadata>> change) {
            schema = new Schema(change.apply(schema.keyspaces()), UUID.randomUUID());
            return schema;
        }
    }

    private final Schemas schemas = new Schemas();
    private final QueryEnvironment environment = new QueryEnvironment(null, null, null, schemas, () -> 1L, () -> 1_700_000_000_000L,
            new QueryEnvironment.NodeInfo("Test Cluster", "org.apache.cassandra.dht.Murmur3Partitioner", "datacenter1"));
    private final Preparer preparer = new Preparer(environment, (d, k) -> { throw new UnsupportedOperationException(); });
    private final PreparedStatements prepared = new PreparedStatements(100, schemas::schema);

    PreparedStatementsTest() {
        ddl("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        ddl("CREATE TYPE ks.address (street text)");
        ddl("CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
        ddl("CREATE TABLE ks.other (k int PRIMARY KEY, home frozen<address>)");
    }

    private void ddl(String cql) {
        CqlStatement statement = preparer.prepare(cql, null);
        statement.execute(QueryContext.of(environment, null, QueryOptions.DEFAULT, statement)).join();
    }

    private ByteBuffer prepare(String cql) {
        ByteBuffer id = PreparedStatements.statementId(cql, null, true);
        prepared.put(id, new PreparedStatements.Entry(cql, null, preparer.prepare(cql, null), List.of()));
        return id;
    }

    /** Runs {@code cql} and drops what it affects, as the node does for every schema it installs. */
    private void change(String cql) {
        ddl(cql);
        prepared.dropAffectedBy(schemas.schema());
    }

    @Test
    void aColumnChangeDropsEveryStatementOfTheTableAndNoOther() {
        ByteBuffer select = prepare("SELECT * FROM ks.t WHERE k = ?");
        ByteBuffer insert = prepare("INSERT INTO ks.t (k, v) VALUES (?, ?) IF NOT EXISTS");
        ByteBuffer batch = prepare("BEGIN BATCH INSERT INTO ks.other (k) VALUES (1); UPDATE ks.t SET v = 'x' WHERE k = 1 APPLY BATCH");
        ByteBuffer other = prepare("SELECT * FROM ks.other WHERE k = ?");

        change("ALTER TABLE ks.t ADD w int");

        assertThat(prepared.get(select)).isNull();
        assertThat(prepared.get(insert)).isNull();
        assertThat(prepared.get(batch)).isNull();
        assertThat(prepared.get(other)).isNotNull();
    }

    @Test
    void ofTheTableOptionsOnlyTheDefaultTtlAndGcGraceSecondsDropStatements() {
        ByteBuffer select = prepare("SELECT * FROM ks.t WHERE k = ?");
        change("ALTER TABLE ks.t WITH comment = 'c' AND compaction = {'class': 'LeveledCompactionStrategy'}");
        assertThat(prepared.get(select)).isNotNull();

        change("ALTER TABLE ks.t WITH gc_grace_seconds = 60");
        assertThat(prepared.get(select)).isNull();

        select = prepare("SELECT * FROM ks.t WHERE k = ?");
        change("ALTER TABLE ks.t WITH default_time_to_live = 60");
        assertThat(prepared.get(select)).isNull();
    }

    @Test
    void aTableDroppedAndCreatedAgainWithTheSameColumnsDropsItsStatements() {
        ByteBuffer select = prepare("SELECT * FROM ks.t WHERE k = ?");
        change("DROP TABLE ks.t");
        ddl("CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
        prepared.dropAffectedBy(schemas.schema());
        assertThat(prepared.get(select)).isNull();
    }

    @Test
    void droppingTheKeyspaceDropsItsStatements() {
        ByteBuffer select = prepare("SELECT * FROM ks.other WHERE k = ?");
        change("DROP KEYSPACE ks");
        assertThat(prepared.get(select)).isNull();
    }

    @Test
    void alteringAUserTypeDropsTheStatementsOfTheTablesUsingIt() {
        ByteBuffer usesType = prepare("SELECT * FROM ks.other WHERE k = ?");
        ByteBuffer doesNot = prepare("SELECT * FROM ks.t WHERE k = ?");
        change("ALTER TYPE ks.address ADD zip text");
        assertThat(prepared.get(usesType)).isNull();
        assertThat(prepared.get(doesNot)).isNotNull();
    }

    @Test
    void creatingThingsDropsNothing() {
        ByteBuffer select = prepare("SELECT * FROM ks.t WHERE k = ?");
        change("CREATE TABLE ks.third (k int PRIMARY KEY)");
        change("CREATE TYPE ks.phone (number text)");
        change("CREATE KEYSPACE ks2 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        assertThat(prepared.get(select)).isNotNull();
    }

    @Test
    void aStatementPreparedAgainstASchemaThatChangedSinceIsNotKept() {
        String cql = "SELECT * FROM ks.t WHERE k = ?";
        CqlStatement before = preparer.prepare(cql, null);
        ddl("ALTER TABLE ks.t ADD w int");
        ByteBuffer id = PreparedStatements.statementId(cql, null, true);
        prepared.put(id, new PreparedStatements.Entry(cql, null, before, List.of()));
        assertThat(prepared.get(id)).isNull();
    }

    @Test
    void theClientsKeyspaceIsPartOfTheIdOfUnqualifiedStatementsOnly() {
        String query = "SELECT * FROM t";
        assertThat(PreparedStatements.statementId(query, "ks", true)).isEqualTo(PreparedStatements.statementId(query, null, false));
        assertThat(PreparedStatements.statementId(query, "ks", false)).isEqualTo(md5("ks" + query));
        assertThat(PreparedStatements.statementId(query, "ks", false)).isNotEqualTo(PreparedStatements.statementId(query, "ks2", false));
    }

    @Test
    void theResultMetadataIdIsCassandrasDigestOfNamesAndMarshalTypes() {
        RowsMetadata columns = RowsMetadata.of(List.of(new ColumnSpec("ks", "t", "k", CqlTypes.INT), new ColumnSpec("ks", "t", "v", CqlTypes.TEXT)));
        // MD5 of "k\0org.apache.cassandra.db.marshal.Int32Type\0\0v\0org.apache.cassandra.db.marshal.UTF8Type\0\0"
        assertThat(hex(PreparedStatements.metadataId(columns))).isEqualTo("20b7fe8510d99228eec24d9ecd5a2ff1");
        assertThat(hex(PreparedStatements.metadataId(RowsMetadata.EMPTY))).isEqualTo("d41d8cd98f00b204e9800998ecf8427e");
    }

    @Test
    void theResultMetadataIdChangesWithTheFieldsOfAUserType() {
        ColumnSpec before = new ColumnSpec("ks", "t", "home", CqlTypes.userType("ks", "address", List.of("street"), List.of(CqlTypes.TEXT), true));
        ColumnSpec after = new ColumnSpec("ks", "t", "home",
                CqlTypes.userType("ks", "address", List.of("street", "zip"), List.of(CqlTypes.TEXT, CqlTypes.TEXT), true));
        assertThat(PreparedStatements.metadataId(RowsMetadata.of(List.of(before))))
                .isNotEqualTo(PreparedStatements.metadataId(RowsMetadata.of(List.of(after))));
    }

    private static ByteBuffer md5(String text) {
        try {
            return ByteBuffer.wrap(java.security.MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    private static String hex(ByteBuffer bytes) {
        byte[] b = new byte[bytes.remaining()];
        bytes.duplicate().get(b);
        return HexFormat.of().formatHex(b);
    }

    @Test
    void aRequestWritesItsValuesIfItsStatementWritesAndNothingOtherwise() {
        ByteBuffer insert = prepare("INSERT INTO ks.t (k, v) VALUES (?, ?)");
        ByteBuffer conditional = prepare("UPDATE ks.t SET v = ? WHERE k = ? IF v = 'a'");
        ByteBuffer select = prepare("SELECT * FROM ks.t WHERE k = ?");
        List<ByteBuffer> values = List.of(ByteBuffer.allocate(4), ByteBuffer.allocate(100));
        QueryOptions options = QueryOptions.of(ConsistencyLevel.ONE, values);

        assertThat(QueryProcessor.writeBytes(new Execute(insert, null, options), prepared.get(insert))).isEqualTo(64 + 104);
        assertThat(QueryProcessor.writeBytes(new Execute(conditional, null, options), prepared.get(conditional))).isEqualTo(64 + 104);
        assertThat(QueryProcessor.writeBytes(new Execute(select, null, options), prepared.get(select))).isZero();
        assertThat(QueryProcessor.writeBytes(new Execute(select, null, options), null)).as("an unknown statement").isZero();

        assertThat(QueryProcessor.writeBytes(new Query("  insert INTO ks.t (k) VALUES (1)", QueryOptions.DEFAULT), null)).isEqualTo(64 + 2 * 33);
        assertThat(QueryProcessor.writeBytes(new Query("BEGIN BATCH APPLY BATCH", QueryOptions.DEFAULT), null)).isPositive();
        assertThat(QueryProcessor.writeBytes(new Query("SELECT * FROM ks.t", QueryOptions.DEFAULT), null)).isZero();
        assertThat(QueryProcessor.writeBytes(new Query("USE ks", QueryOptions.DEFAULT), null)).isZero();

        Batch batch = new Batch(BatchType.LOGGED, List.of(new Batch.PreparedChild(insert, values), new Batch.QueryChild("DELETE FROM ks.t WHERE k = 1", List.of())),
                ConsistencyLevel.ONE, null, null, null, null);
        assertThat(QueryProcessor.writeBytes(batch, null)).isEqualTo(64 + 104 + 64 + 2 * 28);
    }
}
