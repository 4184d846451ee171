package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import ballot.cql.error.ConfigurationException;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.schema.DroppedColumn;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.TableMetadata;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** CREATE, ALTER, DROP and TRUNCATE TABLE refusals as a Cassandra 5.0.9 node gave them. */
class TableStatementsTest {
    private final SchemaFixture schema = new SchemaFixture();

    @BeforeEach
    void keyspace() {
        schema.run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    }

    private void refused(String cql, Class<? extends Throwable> type, String message) {
        assertThatThrownBy(() -> schema.run(cql)).isExactlyInstanceOf(type).hasMessage(message);
    }

    @Test
    void columnsAndPrimaryKeysAreCheckedWithTheTableNamed() {
        refused("CREATE TABLE ks.a (k int PRIMARY KEY, v int, v text)", InvalidRequestException.class,
                "Duplicate column 'v' declaration for table 'ks.a'");
        refused("CREATE TABLE ks.a (k int, v int)", InvalidRequestException.class, "No PRIMARY KEY specifed for table 'ks.a' (exactly one required)");
        refused("CREATE TABLE ks.a (k int PRIMARY KEY, v int, PRIMARY KEY (k))", InvalidRequestException.class,
                "Multiple PRIMARY KEY specified for table 'ks.a' (exactly one required)");
        refused("CREATE TABLE ks.a (k int, v int, PRIMARY KEY (x))", InvalidRequestException.class,
                "Unknown column 'x' referenced in PRIMARY KEY for table 'a'");
        refused("CREATE TABLE ks.a (k int, v int, PRIMARY KEY (k, k))", InvalidRequestException.class,
                "Duplicate column 'k' in PRIMARY KEY clause for table 'a'");
        refused("CREATE TABLE ks.a (k map<text, int> PRIMARY KEY)", InvalidRequestException.class,
                "Invalid non-frozen collection type map<text, int> for PRIMARY KEY column 'k'");
    }

    @Test
    void clusteringOrderNamesNoColumnTwiceOnlyClusteringColumnsAndAllOfThem() {
        refused("CREATE TABLE ks.a (k int, c int, PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c DESC, c ASC)", InvalidRequestException.class,
                "Duplicate column 'c' in CLUSTERING ORDER BY clause for table 'ks.a'");
        refused("CREATE TABLE ks.a (k int, c int, d int, v int, PRIMARY KEY (k, c, d)) WITH CLUSTERING ORDER BY (v DESC, k ASC, c ASC)",
                InvalidRequestException.class, "Only clustering key columns can be defined in CLUSTERING ORDER directive: [v, k] are not clustering columns");
        refused("CREATE TABLE ks.a (k int, c int, d int, PRIMARY KEY (k, c, d)) WITH CLUSTERING ORDER BY (d DESC)", InvalidRequestException.class,
                "Missing CLUSTERING ORDER for column c");
        refused("CREATE TABLE ks.a (k int, c int, d int, PRIMARY KEY (k, c, d)) WITH CLUSTERING ORDER BY (d DESC, c ASC)",
                InvalidRequestException.class,
                "The order of columns in the CLUSTERING ORDER directive must match that of the clustering columns (c must appear before d)");
    }

    @Test
    void tableNamesAreCheckedForCharactersThenLength() {
        refused("CREATE TABLE ks.\"A-b\" (k int PRIMARY KEY)", ConfigurationException.class,
                "ks.A-b: Table name must not be empty or not contain non-alphanumeric-underscore characters (got \"A-b\")");
        String longName = "a".repeat(223);
        refused("CREATE TABLE ks." + longName + " (k int PRIMARY KEY)", ConfigurationException.class,
                "ks." + longName + ": Table name must not be more than 222 characters long (got 223 characters for \"" + longName + "\")");
        refused("CREATE TABLE ks.a (k int PRIMARY KEY) WITH ID = 'abc'", ConfigurationException.class, "Invalid table id");
    }

    @Test
    void addingAColumnTwiceInOneStatementIsRefused() {
        schema.run("CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
        refused("ALTER TABLE ks.t ADD (z int, z text)", InvalidRequestException.class, "Column with name 'z' already exists");
        assertThat(schema.table("ks", "t").column("z")).isNull();
    }

    @Test
    void counterAndNonCounterColumnsDoNotMix() {
        schema.run("CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
        schema.run("CREATE TABLE ks.c (k int PRIMARY KEY, n counter)");
        refused("ALTER TABLE ks.t ADD q counter", ConfigurationException.class, "ks.t: Cannot have a counter column (\"q\") in a non counter table");
        refused("ALTER TABLE ks.c ADD x int", ConfigurationException.class, "ks.c: Cannot have a non counter column (\"x\") in a counter table");
    }

    @Test
    void aDroppedColumnComesBackOnlyAsTheSameKindAndStaysRecorded() {
        schema.run("CREATE TABLE ks.t (k int, c int, s int static, v int, PRIMARY KEY (k, c))");
        schema.run("ALTER TABLE ks.t DROP s");
        refused("ALTER TABLE ks.t ADD s int", InvalidRequestException.class,
                "Cannot re-add previously dropped column 's' of kind REGULAR, incompatible with previous kind STATIC");
        schema.run("ALTER TABLE ks.t DROP v");
        schema.run("ALTER TABLE ks.t ADD v int");
        assertThat(schema.table("ks", "t").dropped()).containsOnlyKeys("s", "v");
        assertThat(schema.table("ks", "t").dropped().get("v")).extracting(DroppedColumn::type, DroppedColumn::kind).containsExactly("int", "regular");
    }

    @Test
    void dropAndRenameRefusalsNameTheTableWithItsKeyspace() {
        schema.run("CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c))");
        refused("ALTER TABLE ks.t DROP x", InvalidRequestException.class, "Column x was not found in table 'ks.t'");
        refused("ALTER TABLE ks.t RENAME c TO k", InvalidRequestException.class,
                "Cannot rename column c to k in table 'ks.t'; another column with that name already exists");
        refused("ALTER TABLE ks.t RENAME IF EXISTS x TO y", InvalidRequestException.class, "Undefined column name x in table ks.t");
        refused("ALTER TABLE nope.t ADD x int", InvalidRequestException.class, "Table 'nope.t' doesn't exist");
        refused("DROP TABLE nope.t", InvalidRequestException.class, "Table 'nope.t' doesn't exist");
    }

    @Test
    void aDroppedColumnIsRecordedWithItsUserTypesAsTuplesAndItsCollectionsAsTheyWere() {
        schema.run("CREATE TYPE ks.a (x int, y text)");
        schema.run("CREATE TABLE ks.t (k int PRIMARY KEY, f frozen<a>, lu list<frozen<a>>, m map<text, frozen<list<int>>>, fl frozen<list<int>>, "
                + "s set<int>, tu tuple<int, frozen<a>>, v vector<int, 2>)");
        schema.run("ALTER TABLE ks.t DROP (f, lu, m, fl, s, tu, v)");
        assertThat(schema.table("ks", "t").dropped().values()).extracting(DroppedColumn::name, DroppedColumn::type).containsExactlyInAnyOrder(
                tuple("f", "frozen<tuple<int, text>>"), tuple("lu", "list<frozen<tuple<int, text>>>"), tuple("m", "map<text, frozen<list<int>>>"),
                tuple("fl", "frozen<list<int>>"), tuple("s", "set<int>"), tuple("tu", "frozen<tuple<int, frozen<tuple<int, text>>>>"),
                tuple("v", "vector<int, 2>"));
    }

    @Test
    void aNonFrozenUserTypeColumnIsNeitherDroppedNorMadeOfNonFrozenCollections() {
        schema.run("CREATE TYPE ks.a (x int)");
        schema.run("CREATE TYPE ks.b (l list<int>)");
        schema.run("CREATE TABLE ks.t (k int PRIMARY KEY, n a)");
        refused("ALTER TABLE ks.t DROP n", InvalidRequestException.class, "Cannot drop non-frozen column n of user type a");
        refused("CREATE TABLE ks.t2 (k int PRIMARY KEY, b b)", InvalidRequestException.class,
                "Non-frozen UDTs with nested non-frozen collections are not supported");
        refused("ALTER TABLE ks.t ADD b b", InvalidRequestException.class, "Non-frozen UDTs with nested non-frozen collections are not supported for column b");
        schema.run("CREATE TABLE ks.t3 (k int PRIMARY KEY, b frozen<b>, lb list<frozen<b>>)");
    }

    @Test
    void dropUsingTimestampRecordsThatTime() {
        schema.run("CREATE TABLE ks.t (k int PRIMARY KEY, v int, w int)");
        schema.run("ALTER TABLE ks.t DROP v USING TIMESTAMP 100");
        schema.run("ALTER TABLE ks.t DROP w");
        assertThat(schema.table("ks", "t").dropped().get("v").droppedTime()).isEqualTo(100L);
        assertThat(schema.table("ks", "t").dropped().get("w").droppedTime()).isEqualTo(SchemaFixture.NOW_MILLIS * 1000); // the clock, in microseconds
    }

    @Test
    void noTwoTablesShareAnId() {
        schema.run("CREATE TABLE ks.a (k int PRIMARY KEY) WITH ID = 5a1c395e-b41f-11e5-9f22-ba0be0483c19");
        schema.run("CREATE KEYSPACE other WITH replication = {'class': 'SimpleStrategy'}");
        refused("CREATE TABLE other.b (k int PRIMARY KEY) WITH ID = 5a1c395e-b41f-11e5-9f22-ba0be0483c19", InvalidRequestException.class,
                "Table id 5a1c395e-b41f-11e5-9f22-ba0be0483c19 is already used by table ks.a");
    }

    @Test
    void aDroppedColumnComesBackOnlyWithATypeThatReadsWhatItWrote() {
        schema.run("CREATE TYPE ks.a (x int, y text)");
        schema.run("CREATE TABLE ks.t (k int PRIMARY KEY, i int, l list<text>, m map<int, text>, tx text, tu frozen<tuple<int, text>>, "
                + "f frozen<a>, b bigint, fl frozen<list<int>>)");
        schema.run("ALTER TABLE ks.t DROP (i, l, m, tx, tu, f, b, fl)");
        refused("ALTER TABLE ks.t ADD f frozen<a>", InvalidRequestException.class,
                "Cannot add a column 'f' of type frozen<a>, incompatible with previously dropped column 'f' of type frozen<tuple<int, text>>");
        refused("ALTER TABLE ks.t ADD fl frozen<list<varint>>", InvalidRequestException.class,
                "Cannot add a column 'fl' of type frozen<list<varint>>, incompatible with previously dropped column 'fl' of type frozen<list<int>>");
        refused("ALTER TABLE ks.t ADD i varint", InvalidRequestException.class,
                "Cannot add a column 'i' of type varint, incompatible with previously dropped column 'i' of type int");
        refused("ALTER TABLE ks.t ADD i blob", InvalidRequestException.class,
                "Cannot add a column 'i' of type blob, incompatible with previously dropped column 'i' of type int");
        refused("ALTER TABLE ks.t ADD l frozen<list<text>>", InvalidRequestException.class,
                "Cannot add a column 'l' of type frozen<list<text>>, incompatible with previously dropped column 'l' of type list<text>");
        refused("ALTER TABLE ks.t ADD l set<text>", InvalidRequestException.class,
                "Cannot add a column 'l' of type set<text>, incompatible with previously dropped column 'l' of type list<text>");
        refused("ALTER TABLE ks.t ADD m map<int, int>", InvalidRequestException.class,
                "Cannot add a column 'm' of type map<int, int>, incompatible with previously dropped column 'm' of type map<int, text>");
        schema.run("ALTER TABLE ks.t ADD l list<blob>");
        schema.run("ALTER TABLE ks.t ADD i int");
        schema.run("ALTER TABLE ks.t ADD tx blob");
        schema.run("ALTER TABLE ks.t ADD tu frozen<tuple<int, text, int>>");
        schema.run("ALTER TABLE ks.t ADD b timestamp");
        schema.run("ALTER TABLE ks.t ADD m map<int, blob>");
        assertThat(schema.table("ks", "t").column("tu")).isNotNull();
        // a non-frozen collection's elements need only read what was written: a uuid reads a timeuuid, a varint no
        // smallint (both as a Cassandra 5.0.9 node answers)
        schema.run("CREATE TABLE ks.u (k int PRIMARY KEY, l list<timeuuid>, m map<int, timeuuid>, s smallint)");
        schema.run("ALTER TABLE ks.u DROP (l, m, s)");
        schema.run("ALTER TABLE ks.u ADD l list<uuid>");
        schema.run("ALTER TABLE ks.u ADD m map<int, uuid>");
        refused("ALTER TABLE ks.u ADD s varint", InvalidRequestException.class,
                "Cannot add a column 's' of type varint, incompatible with previously dropped column 's' of type smallint");
    }

    @Test
    void aVirtualTableIsNotTruncated() {
        TableMetadata clients = SchemaDefinitions.table("system_views", "CREATE TABLE clients (address inet PRIMARY KEY)", UUID.randomUUID());
        schema.put(new KeyspaceMetadata("system_views", Map.of(), true, Map.of("clients", clients), Map.of()));
        refused("TRUNCATE system_views.clients", InvalidRequestException.class, "Truncation is not supported by table system_views.clients");
    }
}
