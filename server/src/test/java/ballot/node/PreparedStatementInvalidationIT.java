package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultProtocolVersion;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Prepared statements whose schema changes under them, on a real node through the Java driver and hand-written v4
 * frames. As in Cassandra 5.0, a change that affects a table's statements (its columns, a user type they use, its
 * default TTL or gc_grace_seconds, its drop) drops the prepared statements of that table: EXECUTE of their ids is
 * answered UNPREPARED and the driver prepares them again, under the same id. Over protocol v5 the driver is then told
 * that the result metadata changed (Metadata_changed with the new result_metadata_id); over v4 there is no way to tell
 * it, so a driver that skips metadata keeps the columns it prepared, as it does with Cassandra.
 */
class PreparedStatementInvalidationIT {
    private static TestNode node;
    private static CqlSession admin;

    @BeforeAll
    static void start() {
        node = TestNode.start("prepared");
        admin = node.session();
        admin.execute("CREATE KEYSPACE ps WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    }

    @AfterAll
    static void stop() {
        if (admin != null) admin.close();
        if (node != null) node.close();
    }

    private static CqlSession session(String protocolVersion) {
        return node.session(null, options -> options.withString(DefaultDriverOption.PROTOCOL_VERSION, protocolVersion));
    }

    @Test
    void aColumnAddedAfterPrepareReachesTheDriverOverProtocolV5() {
        admin.execute("CREATE TABLE ps.v5 (id int PRIMARY KEY, name text)");
        admin.execute("INSERT INTO ps.v5 (id, name) VALUES (1, 'one')");
        try (CqlSession session = session("V5")) {
            assertThat(session.getContext().getProtocolVersion()).isEqualTo(DefaultProtocolVersion.V5);
            PreparedStatement select = session.prepare("SELECT * FROM ps.v5 WHERE id = ?");
            ByteBuffer statementId = select.getId();
            ByteBuffer metadataBefore = select.getResultMetadataId();
            assertThat(session.execute(select.bind(1)).one().getColumnDefinitions().size()).isEqualTo(2);

            session.execute("ALTER TABLE ps.v5 ADD val text");
            session.execute("UPDATE ps.v5 SET val = 'new' WHERE id = 1");
            Row row = session.execute(select.bind(1)).one();

            assertThat(row.getString("name")).isEqualTo("one");
            assertThat(row.getString("val")).isEqualTo("new");
            assertThat(select.getResultSetDefinitions().contains("val")).isTrue();
            assertThat(select.getResultMetadataId()).isNotEqualTo(metadataBefore);
            assertThat(select.getId()).isEqualTo(statementId);
        }
    }

    @Test
    void overProtocolV4TheRowsCarryTheAddedColumnBeyondTheColumnsTheDriverPrepared() {
        admin.execute("CREATE TABLE ps.v4 (id int PRIMARY KEY, name text)");
        admin.execute("INSERT INTO ps.v4 (id, name) VALUES (1, 'one')");
        try (CqlSession session = session("V4")) {
            assertThat(session.getContext().getProtocolVersion()).isEqualTo(DefaultProtocolVersion.V4);
            PreparedStatement select = session.prepare("SELECT * FROM ps.v4 WHERE id = ?");
            assertThat(session.execute(select.bind(1)).one().getString("name")).isEqualTo("one");

            session.execute("ALTER TABLE ps.v4 ADD val text");
            session.execute("UPDATE ps.v4 SET val = 'new' WHERE id = 1");
            Row row = session.execute(select.bind(1)).one();

            // The statement was prepared again from its text, so the row has the new column; the driver asked to skip
            // metadata and v4 has no Metadata_changed, so it still describes the row with the two columns it prepared.
            assertThat(row.getColumnDefinitions().contains("val")).isFalse();
            assertThat(row.getString("name")).isEqualTo("one");
            assertThat(TypeCodecs.TEXT.decode(row.getBytesUnsafe(2), DefaultProtocolVersion.V4)).isEqualTo("new");
        }
    }

    @Test
    void executeOfAStatementWhoseTableChangedIsUnpreparedUntilPreparedAgain() throws IOException {
        admin.execute("CREATE TABLE ps.raw (id int PRIMARY KEY, name text)");
        admin.execute("INSERT INTO ps.raw (id, name) VALUES (1, 'one')");
        String select = "SELECT * FROM ps.raw WHERE id = ?";
        try (RawCqlConnection connection = RawCqlConnection.open(node.address()).startup(Map.of("CQL_VERSION", "3.0.0"))) {
            byte[] id = connection.prepare(select).id();
            assertThat(RawCqlConnection.rowsHead(connection.execute(id, 1)).columnCount()).isEqualTo(2);

            // Table options other than default_time_to_live and gc_grace_seconds do not touch statements.
            admin.execute("ALTER TABLE ps.raw WITH comment = 'kept'");
            assertThat(RawCqlConnection.rowsHead(connection.execute(id, 1)).columnCount()).isEqualTo(2);

            admin.execute("ALTER TABLE ps.raw ADD val text");
            RawCqlConnection.Error unprepared = RawCqlConnection.error(connection.executeAnswer(id, false, 1));
            assertThat(unprepared.code()).isEqualTo(0x2500);
            assertThat(unprepared.unpreparedId()).isEqualTo(id);

            assertThat(connection.prepare(select).id()).as("the id is the query's, not the schema's").isEqualTo(id);
            // Just prepared with the new columns: over v4 the metadata is skipped as asked, and the rows have 3 columns.
            RawCqlConnection.RowsHead rows = RawCqlConnection.rowsHead(connection.executeAnswer(id, true, 1));
            assertThat(rows.noMetadata()).isTrue();
            assertThat(rows.columnCount()).isEqualTo(3);

            admin.execute("ALTER TABLE ps.raw WITH default_time_to_live = 60");
            assertThat(RawCqlConnection.error(connection.executeAnswer(id, false, 1)).code()).isEqualTo(0x2500);
        }
    }

    @Test
    void alteringAUserTypeReachesPreparedStatementsOfTheTablesUsingIt() throws IOException {
        admin.execute("CREATE TYPE ps.address (street text)");
        admin.execute("CREATE TABLE ps.homes (id int PRIMARY KEY, home frozen<address>)");
        admin.execute("CREATE TABLE ps.plain (id int PRIMARY KEY, name text)");
        admin.execute("INSERT INTO ps.homes (id, home) VALUES (1, {street: 'main'})");
        try (CqlSession session = session("V5");
                RawCqlConnection connection = RawCqlConnection.open(node.address()).startup(Map.of("CQL_VERSION", "3.0.0"))) {
            PreparedStatement select = session.prepare("SELECT * FROM ps.homes WHERE id = ?");
            ByteBuffer metadataBefore = select.getResultMetadataId();
            session.execute(select.bind(1));
            byte[] unrelated = connection.prepare("SELECT * FROM ps.plain WHERE id = ?").id();

            session.execute("ALTER TYPE ps.address ADD zip text");
            session.execute("UPDATE ps.homes SET home = {street: 'main', zip: '12345'} WHERE id = 1");
            Row row = session.execute(select.bind(1)).one();

            UserDefinedType type = (UserDefinedType) select.getResultSetDefinitions().get("home").getType();
            assertThat(type.getFieldNames()).extracting(f -> f.asInternal()).containsExactly("street", "zip");
            assertThat(select.getResultMetadataId()).isNotEqualTo(metadataBefore);
            assertThat(row.getUdtValue("home").getString("zip")).isEqualTo("12345");
            assertThat(RawCqlConnection.rowsHead(connection.execute(unrelated, 1)).columnCount())
                    .as("a statement on a table without the type is kept").isEqualTo(2);
        }
    }

    @Test
    void aPreparedInsertWritesToTheTableRecreatedUnderItsName() {
        admin.execute("CREATE TABLE ps.again (id int PRIMARY KEY, name text)");
        try (CqlSession session = session("V5")) {
            PreparedStatement insert = session.prepare("INSERT INTO ps.again (id, name) VALUES (?, ?)");
            session.execute(insert.bind(1, "before"));

            session.execute("DROP TABLE ps.again");
            session.execute("CREATE TABLE ps.again (id int PRIMARY KEY, extra int, name text)");
            session.execute(insert.bind(2, "after"));

            List<String> rows = new ArrayList<>();
            for (Row r : session.execute("SELECT * FROM ps.again")) rows.add(r.getInt("id") + "," + r.getObject("extra") + "," + r.getString("name"));
            assertThat(rows).containsExactly("2,null,after");
        }
    }

    @Test
    void aStatementWhoseTableOrKeyspaceIsGoneFailsAsPreparingItWould() {
        admin.execute("CREATE KEYSPACE gone WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        admin.execute("CREATE TABLE gone.t (id int PRIMARY KEY, name text)");
        admin.execute("CREATE TABLE ps.dropped (id int PRIMARY KEY, name text)");
        try (CqlSession session = session("V5")) {
            PreparedStatement inDroppedKeyspace = session.prepare("SELECT * FROM gone.t WHERE id = ?");
            PreparedStatement onDroppedTable = session.prepare("UPDATE ps.dropped SET name = ? WHERE id = ?");
            session.execute(inDroppedKeyspace.bind(1));
            session.execute(onDroppedTable.bind("x", 1));

            session.execute("DROP KEYSPACE gone");
            session.execute("DROP TABLE ps.dropped");

            assertFailsAsPreparing(session, inDroppedKeyspace, inDroppedKeyspace.getQuery(), 1);
            assertFailsAsPreparing(session, onDroppedTable, onDroppedTable.getQuery(), "x", 1);
        }
    }

    /** Statements that look their schema up when they run are kept, and act on the schema of that moment. */
    @Test
    void preparedUseTruncateAndCreateTableActOnTheSchemaWhenTheyRun() throws IOException {
        admin.execute("CREATE KEYSPACE brief WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        admin.execute("CREATE TABLE ps.emptied (id int PRIMARY KEY)");
        try (CqlSession session = session("V5");
                RawCqlConnection connection = RawCqlConnection.open(node.address()).startup(Map.of("CQL_VERSION", "3.0.0"))) {
            byte[] use = connection.prepare("USE brief").id();
            PreparedStatement truncate = session.prepare("TRUNCATE ps.emptied");
            PreparedStatement create = session.prepare("CREATE TABLE ps.created (id int PRIMARY KEY)");
            String tableId = "SELECT id FROM system_schema.tables WHERE keyspace_name = 'ps' AND table_name = 'created'";

            admin.execute("DROP KEYSPACE brief");
            RawCqlConnection.Error missing = RawCqlConnection.error(connection.executeAnswer(use, false));
            assertThat(missing.code()).isEqualTo(0x2200);
            assertThat(missing.message()).isEqualTo("Keyspace 'brief' does not exist");

            admin.execute("DROP TABLE ps.emptied");
            admin.execute("CREATE TABLE ps.emptied (id int PRIMARY KEY)");
            admin.execute("INSERT INTO ps.emptied (id) VALUES (1)");
            session.execute(truncate.bind());
            assertThat(admin.execute("SELECT * FROM ps.emptied").all()).isEmpty();

            session.execute(create.bind());
            Object firstId = admin.execute(tableId).one().getObject("id");
            admin.execute("DROP TABLE ps.created");
            session.execute(create.bind());
            assertThat(admin.execute(tableId).one().getObject("id")).as("a new table gets a new id").isNotEqualTo(firstId);
        }
    }

    /** Executing {@code statement} fails with the error that running its text {@code query} gives. */
    private static void assertFailsAsPreparing(CqlSession session, PreparedStatement statement, String query, Object... values) {
        Throwable executing = catchThrowable(() -> session.execute(statement.bind(values)));
        Throwable preparing = catchThrowable(() -> session.execute(SimpleStatement.newInstance(query, values)));
        assertThat(executing).isInstanceOf(InvalidQueryException.class);
        assertThat(preparing).isInstanceOf(InvalidQueryException.class);
        assertThat(executing.getMessage()).isEqualTo(preparing.getMessage());
    }

    @Test
    void aFullyQualifiedStatementKeepsItsIdWhateverTheSessionKeyspace() {
        admin.execute("CREATE TABLE ps.qualified (id int PRIMARY KEY, name text)");
        admin.execute("INSERT INTO ps.qualified (id, name) VALUES (1, 'one')");
        admin.execute("CREATE KEYSPACE other WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        admin.execute("CREATE TABLE other.qualified (id int PRIMARY KEY, name text)");
        String qualified = "SELECT * FROM ps.qualified WHERE id = ?";
        String unqualified = "SELECT * FROM qualified WHERE id = ?";
        try (CqlSession none = session("V5"); CqlSession inPs = node.session("ps"); CqlSession inOther = node.session("other")) {
            assertThat(inPs.prepare(qualified).getId()).isEqualTo(none.prepare(qualified).getId());
            assertThat(inPs.prepare(unqualified).getId()).isNotEqualTo(inOther.prepare(unqualified).getId());

            // CASSANDRA-15252: prepared without a keyspace, prepared again (after the change) on connections that USE one.
            PreparedStatement select = none.prepare(qualified);
            none.execute("USE ps");
            none.execute("ALTER TABLE ps.qualified ADD val text");
            none.execute("UPDATE ps.qualified SET val = 'new' WHERE id = 1");
            assertThat(none.execute(select.bind(1)).one().getString("val")).isEqualTo("new");
        }
    }

    @Test
    void conditionalStatementsAlwaysSendTheirMetadataAndNeverReportItChanged() {
        admin.execute("CREATE TABLE ps.lwt (a int PRIMARY KEY, b int, c int)");
        try (CqlSession session = session("V5")) {
            PreparedStatement insert = session.prepare("INSERT INTO ps.lwt (a, b, c) VALUES (?, ?, ?) IF NOT EXISTS");
            ByteBuffer metadataId = insert.getResultMetadataId();
            assertThat(insert.getResultSetDefinitions()).isEmpty();
            assertThat(session.execute(insert.bind(5, 5, 5)).wasApplied()).isTrue();

            session.execute("ALTER TABLE ps.lwt ADD d int");
            ResultSet rs = session.execute(insert.bind(5, 5, 5));

            assertThat(rs.wasApplied()).isFalse();
            assertThat(rs.getColumnDefinitions().size()).isEqualTo(5);
            assertThat(rs.getColumnDefinitions().get("d").getType()).isEqualTo(DataTypes.INT);
            assertThat(insert.getResultSetDefinitions()).isEmpty();
            assertThat(insert.getResultMetadataId()).isEqualTo(metadataId);
        }
    }

    @Test
    void aColumnAddedBetweenPagesReachesTheNextPageOverProtocolV5() throws ExecutionException, InterruptedException {
        admin.execute("CREATE TABLE ps.paged (id int PRIMARY KEY, name text)");
        for (int i = 0; i < 4; i++) admin.execute("INSERT INTO ps.paged (id, name) VALUES (" + i + ", 'n')");
        try (CqlSession session = session("V5")) {
            PreparedStatement select = session.prepare("SELECT * FROM ps.paged");
            AsyncResultSet first = session.executeAsync(select.bind().setPageSize(2)).toCompletableFuture().get();
            assertThat(first.getColumnDefinitions().contains("val")).isFalse();
            assertThat(first.hasMorePages()).isTrue();

            session.execute("ALTER TABLE ps.paged ADD val int");
            AsyncResultSet second = first.fetchNextPage().toCompletableFuture().get();

            assertThat(second.getColumnDefinitions().get("val").getType()).isEqualTo(DataTypes.INT);
            int rows = 0;
            for (Row row : second.currentPage()) {
                assertThat(row.isNull("val")).isTrue();
                rows++;
            }
            assertThat(rows).isEqualTo(2);
            assertThat(select.getResultSetDefinitions().contains("val")).isTrue();
        }
    }
}
