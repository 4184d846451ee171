package ballot.cql.describe;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.schema.DroppedColumn;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.UserType;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Create statements compared byte for byte with what Cassandra 5.0.9 printed for the same definitions (research raw
 * outputs, c509_describe_outputs.txt).
 */
class CreateStatementsTest {
    private static final String DEFAULT_OPTIONS_AFTER_CDC = """
                AND compaction = {'class': 'org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy', 'max_threshold': '32', 'min_threshold': '4'}
                AND compression = {'chunk_length_in_kb': '16', 'class': 'org.apache.cassandra.io.compress.LZ4Compressor'}
                AND memtable = 'default'
                AND crc_check_chance = 1.0
                AND default_time_to_live = 0
                AND extensions = {}
            """;

    /** {@code DESCRIBE TABLE ks.t2} on Cassandra 5.0.9. */
    static final String T2 = """
            CREATE TABLE ks.t2 (
                pk int,
                ck1 int,
                ck2 text,
                s int static,
                l frozen<list<int>>,
                m map<text, int>,
                PRIMARY KEY (pk, ck1, ck2)
            ) WITH CLUSTERING ORDER BY (ck1 DESC, ck2 ASC)
                AND additional_write_policy = '99p'
                AND allow_auto_snapshot = true
                AND bloom_filter_fp_chance = 0.01
                AND caching = {'keys': 'ALL', 'rows_per_partition': 'NONE'}
                AND cdc = false
                AND comment = ''
                AND compaction = {'class': 'org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy', 'max_threshold': '32', 'min_threshold': '4'}
                AND compression = {'chunk_length_in_kb': '16', 'class': 'org.apache.cassandra.io.compress.LZ4Compressor'}
                AND memtable = 'default'
                AND crc_check_chance = 1.0
                AND default_time_to_live = 0
                AND extensions = {}
                AND gc_grace_seconds = 864000
                AND incremental_backups = true
                AND max_index_interval = 2048
                AND memtable_flush_period_in_ms = 0
                AND min_index_interval = 128
                AND read_repair = 'BLOCKING'
                AND speculative_retry = '99p';""";

    /** {@code DESCRIBE TABLE ks.t WITH INTERNALS} on Cassandra 5.0.9, after {@code ALTER TABLE ks.t DROP w}. */
    static final String T_WITH_INTERNALS = """
            CREATE TABLE ks.t (
                id int PRIMARY KEY,
                v text,
                w int
            ) WITH ID = 97402900-e607-11f1-b5ec-a7f93f50e461
                AND additional_write_policy = '99p'
                AND allow_auto_snapshot = true
                AND bloom_filter_fp_chance = 0.01
                AND caching = {'keys': 'ALL', 'rows_per_partition': 'NONE'}
                AND cdc = false
                AND comment = 'hello'
            """ + DEFAULT_OPTIONS_AFTER_CDC + """
                AND gc_grace_seconds = 3600
                AND incremental_backups = true
                AND max_index_interval = 2048
                AND memtable_flush_period_in_ms = 0
                AND min_index_interval = 128
                AND read_repair = 'BLOCKING'
                AND speculative_retry = '99p';
            ALTER TABLE ks.t DROP w USING TIMESTAMP 1795305586179000;""";

    private final Schema schema = new DescribeFixture().schema();

    private TableMetadata table(String keyspace, String name) {
        return schema.table(keyspace, name);
    }

    /**
     * The option lines Cassandra prints for a table created with only {@code comment}, {@code gc_grace_seconds} and
     * {@code memtable_flush_period_in_ms} set, each starting "    AND " (the first follows "WITH " instead: drop 8).
     */
    private static String options(String comment, int gcGraceSeconds, int flushPeriodMillis) {
        return "    AND additional_write_policy = '99p'\n"
                + "    AND allow_auto_snapshot = true\n"
                + "    AND bloom_filter_fp_chance = 0.01\n"
                + "    AND caching = {'keys': 'ALL', 'rows_per_partition': 'NONE'}\n"
                + "    AND cdc = false\n"
                + "    AND comment = '" + comment + "'\n"
                + DEFAULT_OPTIONS_AFTER_CDC
                + "    AND gc_grace_seconds = " + gcGraceSeconds + "\n"
                + "    AND incremental_backups = true\n"
                + "    AND max_index_interval = 2048\n"
                + "    AND memtable_flush_period_in_ms = " + flushPeriodMillis + "\n"
                + "    AND min_index_interval = 128\n"
                + "    AND read_repair = 'BLOCKING'\n"
                + "    AND speculative_retry = '99p';";
    }

    @Test
    void optionsHelperReproducesCassandrasBlock() {
        assertThat(") WITH CLUSTERING ORDER BY (ck1 DESC, ck2 ASC)\n" + options("", 864000, 0)).isEqualTo(T2.substring(T2.indexOf(") WITH")));
    }

    @Test
    void tableWithClusteringStaticAndCollections() {
        assertThat(CreateStatements.table(table("ks", "t2"), false, false)).isEqualTo(T2);
    }

    @Test
    void singleColumnKeyIsInlineAndCounterColumnsAreShown() {
        assertThat(CreateStatements.table(table("ks", "cnt"), false, false)).isEqualTo(
                "CREATE TABLE ks.cnt (\n    id int PRIMARY KEY,\n    c counter\n) WITH " + options("", 864000, 0).substring(8));
    }

    @Test
    void compositePartitionKeyIsParenthesized() {
        assertThat(CreateStatements.table(table("ks", "cpk"), false, false)).isEqualTo(
                "CREATE TABLE ks.cpk (\n    a int,\n    b text,\n    c int,\n    d set<text>,\n    PRIMARY KEY ((a, b), c)\n"
                        + ") WITH CLUSTERING ORDER BY (c ASC)\n" + options("", 864000, 0));
    }

    @Test
    void frozenUdtTupleVectorAndDurationTypes() {
        assertThat(CreateStatements.table(table("ks", "u"), false, false)).isEqualTo(
                "CREATE TABLE ks.u (\n    id uuid PRIMARY KEY,\n    a frozen<addr>,\n    d duration,\n    ts timestamp,\n"
                        + "    tu frozen<tuple<int, text>>,\n    vec vector<float, 3>\n) WITH " + options("", 864000, 0).substring(8));
    }

    @Test
    void droppedColumnsAppearOnlyWithInternals() {
        assertThat(CreateStatements.table(table("ks", "t"), false, false)).isEqualTo(
                "CREATE TABLE ks.t (\n    id int PRIMARY KEY,\n    v text\n) WITH " + options("hello", 3600, 0).substring(8));
        assertThat(CreateStatements.table(table("ks", "t"), false, true)).isEqualTo(T_WITH_INTERNALS);
    }

    @Test
    void droppedColumnOfAClusteredTableIsFollowedByAComma() {
        TableMetadata t2 = table("ks", "t2");
        TableMetadata dropped = t2.withColumns(t2.columns().stream().filter(c -> !c.name().equals("s")).toList(),
                Map.of("s", new DroppedColumn("s", "int", "static", 42L)), t2.nextColumnId());
        String cql = CreateStatements.table(dropped, false, true);
        assertThat(cql).contains("    m map<text, int>,\n    s int static,\n    PRIMARY KEY (pk, ck1, ck2)\n) WITH ID = " + t2.id()
                + "\n    AND CLUSTERING ORDER BY (ck1 DESC, ck2 ASC)\n    AND additional_write_policy");
        assertThat(cql).endsWith("AND speculative_retry = '99p';\nALTER TABLE ks.t2 DROP s USING TIMESTAMP 42;");
    }

    @Test
    void columnReAddedAfterADropIsReplayedAsDropThenAdd() {
        TableMetadata t = table("ks", "t");
        TableMetadata readded = t.withColumns(List.of(t.columns().get(0), t.columns().get(1),
                new ballot.cql.schema.ColumnMetadata("w", 7, ballot.cql.schema.ColumnMetadata.Kind.REGULAR, -1, CqlTypes.TEXT, false)),
                t.dropped(), 8);
        String cql = CreateStatements.table(readded, false, true);
        assertThat(cql).startsWith("CREATE TABLE ks.t (\n    id int PRIMARY KEY,\n    v text,\n    w int\n) WITH ID");
        assertThat(cql).endsWith("\nALTER TABLE ks.t DROP w USING TIMESTAMP 1795305586179000;\nALTER TABLE ks.t ADD w text;");
    }

    @Test
    void systemTableUsesItsOwnOptions() {
        assertThat(CreateStatements.table(table("system", "local"), false, false)).isEqualTo("""
                CREATE TABLE system.local (
                    key text PRIMARY KEY,
                    bootstrapped text,
                    broadcast_address inet,
                    broadcast_port int,
                    cluster_name text,
                    cql_version text,
                    data_center text,
                    gossip_generation int,
                    host_id uuid,
                    listen_address inet,
                    listen_port int,
                    native_protocol_version text,
                    partitioner text,
                    rack text,
                    release_version text,
                    rpc_address inet,
                    rpc_port int,
                    schema_version uuid,
                    tokens set<text>,
                    truncated_at map<uuid, blob>
                ) WITH\s""" + options("information about the local node", 0, 3600000).substring(8));
    }

    @Test
    void virtualTablesAreCommentedStructures() {
        assertThat(CreateStatements.table(table("system_views", "clients"), true, false)).isEqualTo("""
                /*
                Warning: Table system_views.clients is a virtual table and cannot be recreated with CQL.
                Structure, for reference:
                VIRTUAL TABLE system_views.clients (
                    address inet,
                    port int,
                    client_options frozen<map<text, text>>,
                    connection_stage text,
                    driver_name text,
                    driver_version text,
                    hostname text,
                    keyspace_name text,
                    protocol_version int,
                    request_count bigint,
                    ssl_cipher_suite text,
                    ssl_enabled boolean,
                    ssl_protocol text,
                    username text,
                    PRIMARY KEY (address, port)
                ) WITH CLUSTERING ORDER BY (port ASC)
                    AND comment = 'currently connected clients';
                */""");
        assertThat(CreateStatements.table(table("system_views", "batch_metrics"), true, false)).isEqualTo("""
                /*
                Warning: Table system_views.batch_metrics is a virtual table and cannot be recreated with CQL.
                Structure, for reference:
                VIRTUAL TABLE system_views.batch_metrics (
                    name text PRIMARY KEY,
                    max bigint,
                    p50th double,
                    p999th double,
                    p99th double
                ) WITH comment = 'Metrics specific to batch statements';
                */""");
        assertThat(CreateStatements.table(table("system_views", "rows_per_read"), true, false)).isEqualTo("""
                /*
                Warning: Table system_views.rows_per_read is a virtual table and cannot be recreated with CQL.
                Structure, for reference:
                VIRTUAL TABLE system_views.rows_per_read (
                    keyspace_name text,
                    table_name text,
                    count bigint,
                    max double,
                    p50th double,
                    p99th double,
                    PRIMARY KEY ((keyspace_name, table_name))
                ) WITH comment = '';
                */""");
    }

    @Test
    void keyspaceUsesShortStrategyNamesAndTwoSpacesBeforeAnd() {
        assertThat(CreateStatements.keyspace(schema.keyspace("ks"), false)).isEqualTo(
                "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': '1'}  AND durable_writes = true;");
        assertThat(CreateStatements.keyspace(schema.keyspace("system_auth"), false)).isEqualTo(
                "CREATE KEYSPACE system_auth WITH replication = {'class': 'SimpleStrategy', 'replication_factor': '1'}  AND durable_writes = true;");
        KeyspaceMetadata custom = new KeyspaceMetadata("My KS", Map.of("class", "com.example.Custom", "b", "2", "a", "it's"), false, Map.of(), Map.of());
        assertThat(CreateStatements.keyspace(custom, false)).isEqualTo(
                "CREATE KEYSPACE \"My KS\" WITH replication = {'class': 'com.example.Custom', 'a': 'it''s', 'b': '2'}  AND durable_writes = false;");
    }

    @Test
    void typeFieldsKeepDeclarationOrderAndQuoteNames() {
        UserType type = CqlTypes.userType("ks", "Point", List.of("x", "Y", "from"),
                List.of(CqlTypes.INT, CqlTypes.list(CqlTypes.INT, true), CqlTypes.TEXT), false);
        assertThat(CreateStatements.type(type)).isEqualTo(
                "CREATE TYPE ks.\"Point\" (\n    x int,\n    \"Y\" frozen<list<int>>,\n    \"from\" text\n);");
    }

    @Test
    void namesAreQuotedOnlyWhenNeeded() {
        TableMetadata odd = new DescribeFixture.Table("ks", "Odd Table").id(UUID.randomUUID())
                .pk("Key", CqlTypes.INT).ck("select", CqlTypes.INT, true).regular("plain_1", CqlTypes.TEXT).build();
        assertThat(CreateStatements.table(odd, false, false)).startsWith("""
                CREATE TABLE ks."Odd Table" (
                    "Key" int,
                    "select" int,
                    plain_1 text,
                    PRIMARY KEY ("Key", "select")
                ) WITH CLUSTERING ORDER BY ("select" DESC)
                    AND additional_write_policy = '99p'""");
    }

    @Test
    void changedOptionsArePrintedWithTheirValues() {
        TableMetadata t = new DescribeFixture.Table("ks", "opts").pk("k", CqlTypes.INT).params(Map.of(
                "bloom_filter_fp_chance", "0.1", "comment", "it's", "compaction", Map.of("class", "LeveledCompactionStrategy"),
                "compression", Map.of("enabled", "false"), "extensions", Map.of("ext", "AB"), "cdc", "true",
                "default_time_to_live", "60", "read_repair", "none")).build();
        String cql = CreateStatements.table(t, false, false);
        assertThat(cql).contains("\n    AND bloom_filter_fp_chance = 0.1\n")
                .contains("\n    AND cdc = true\n")
                .contains("\n    AND comment = 'it''s'\n")
                .contains("\n    AND compaction = {'class': 'org.apache.cassandra.db.compaction.LeveledCompactionStrategy', 'max_threshold': '32', 'min_threshold': '4'}\n")
                .contains("\n    AND compression = {'enabled': 'false'}\n")
                .contains("\n    AND default_time_to_live = 60\n")
                .contains("\n    AND extensions = {}\n")
                .contains("\n    AND read_repair = 'NONE'\n");
    }
}
