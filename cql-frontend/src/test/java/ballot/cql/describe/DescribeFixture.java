package ballot.cql.describe;

import ballot.cql.ConsistencyLevel;
import ballot.cql.parse.Parser;
import ballot.cql.parse.Statement;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Rows;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.DroppedColumn;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import ballot.cql.schema.TableParams;
import ballot.cql.spi.SchemaStore;
import ballot.cql.statement.CqlStatement;
import ballot.cql.statement.QueryContext;
import ballot.cql.statement.QueryEnvironment;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.UserType;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * A schema built by hand after the one the research notes recorded DESCRIBE output for on Cassandra 5.0.9 (keyspace
 * ks with tables cnt, cpk, t, t2, u and type addr), plus system keyspaces, and a way to run DESCRIBE against it.
 */
final class DescribeFixture implements SchemaStore {
    static final String NTS = "org.apache.cassandra.locator.NetworkTopologyStrategy";
    static final String LOCAL = "org.apache.cassandra.locator.LocalStrategy";
    static final String SIMPLE = "org.apache.cassandra.locator.SimpleStrategy";
    static final UUID T_ID = UUID.fromString("97402900-e607-11f1-b5ec-a7f93f50e461");

    private Schema schema;

    DescribeFixture() {
        Map<String, KeyspaceMetadata> keyspaces = new TreeMap<>();
        keyspaces.put("ks", ks());
        keyspaces.put("system", system());
        keyspaces.put("system_auth", empty("system_auth", Map.of("class", SIMPLE, "replication_factor", "1")));
        keyspaces.put("system_distributed", empty("system_distributed", Map.of("class", SIMPLE, "replication_factor", "3")));
        keyspaces.put("system_schema", empty("system_schema", Map.of("class", LOCAL)));
        keyspaces.put("system_traces", empty("system_traces", Map.of("class", SIMPLE, "replication_factor", "2")));
        keyspaces.put("system_views", systemViews());
        keyspaces.put("system_virtual_schema", empty("system_virtual_schema", Map.of()));
        schema = new Schema(keyspaces, UUID.nameUUIDFromBytes(new byte[] {1}));
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public Schema update(UnaryOperator<Map<String, KeyspaceMetadata>> change) {
        Map<String, KeyspaceMetadata> next = change.apply(new TreeMap<>(schema.keyspaces()));
        schema = new Schema(next, UUID.randomUUID());
        return schema;
    }

    // ---------------------------------------------------------------- running statements

    QueryEnvironment environment() {
        return new QueryEnvironment(null, null, null, this, () -> 1L, () -> 1L,
                new QueryEnvironment.NodeInfo("Test Cluster", "org.apache.cassandra.dht.Murmur3Partitioner", "datacenter1"));
    }

    static TokenRing ring() throws java.net.UnknownHostException {
        return TokenRing.singleNode(List.of(-1133213390089914886L, 9002574205265492483L), InetAddress.getByName("127.0.0.1"), 17000);
    }

    CqlStatement prepare(String cql, String keyspace) {
        try {
            return new DescribeStatements(ring()).prepare((Statement.Describe) Parser.parse(cql).statement(), keyspace);
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    Rows run(String cql, String keyspace) {
        return run(cql, keyspace, QueryOptions.DEFAULT);
    }

    Rows run(String cql, String keyspace, QueryOptions options) {
        return run(prepare(cql, keyspace), keyspace, options);
    }

    Rows run(CqlStatement statement, String keyspace, QueryOptions options) {
        return (Rows) statement.execute(QueryContext.of(environment(), keyspace, options, statement)).join();
    }

    static QueryOptions paged(int pageSize, ByteBuffer state) {
        return QueryOptions.of(ConsistencyLevel.ONE, List.of()).withPaging(pageSize, state);
    }

    /** The text columns of each row. */
    static List<List<String>> text(Rows rows) {
        List<List<String>> out = new ArrayList<>();
        for (ByteBuffer[] row : rows.rows()) {
            List<String> values = new ArrayList<>();
            for (ByteBuffer v : row) values.add((String) CqlTypes.TEXT.compose(v));
            out.add(values);
        }
        return out;
    }

    // ---------------------------------------------------------------- the schema

    private static KeyspaceMetadata ks() {
        UserType addr = CqlTypes.userType("ks", "addr", List.of("street", "zip", "city"), List.of(CqlTypes.TEXT, CqlTypes.INT, CqlTypes.TEXT), false);
        Map<String, TableMetadata> tables = new TreeMap<>();
        tables.put("cnt", new Table("ks", "cnt").pk("id", CqlTypes.INT).regular("c", CqlTypes.COUNTER).build());
        tables.put("cpk", new Table("ks", "cpk").pk("a", CqlTypes.INT).pk("b", CqlTypes.TEXT).ck("c", CqlTypes.INT, false)
                .regular("d", CqlTypes.set(CqlTypes.TEXT, false)).build());
        tables.put("t", new Table("ks", "t").id(T_ID).pk("id", CqlTypes.INT).regular("v", CqlTypes.TEXT)
                .params(Map.of("comment", "hello", "gc_grace_seconds", "3600"))
                .dropped(new DroppedColumn("w", "int", "regular", 1795305586179000L)).build());
        tables.put("t2", new Table("ks", "t2").pk("pk", CqlTypes.INT).ck("ck1", CqlTypes.INT, true).ck("ck2", CqlTypes.TEXT, false)
                .statik("s", CqlTypes.INT).regular("m", CqlTypes.map(CqlTypes.TEXT, CqlTypes.INT, false))
                .regular("l", CqlTypes.list(CqlTypes.INT, true)).build());
        tables.put("u", new Table("ks", "u").pk("id", CqlTypes.UUID).regular("vec", CqlTypes.vector(CqlTypes.FLOAT, 3))
                .regular("tu", CqlTypes.tuple(List.of(CqlTypes.INT, CqlTypes.TEXT))).regular("ts", CqlTypes.TIMESTAMP)
                .regular("d", CqlTypes.DURATION).regular("a", addr.freeze()).build());
        return new KeyspaceMetadata("ks", Map.of("class", NTS, "datacenter1", "1"), true, tables, Map.of("addr", addr));
    }

    private static KeyspaceMetadata system() {
        Map<String, TableMetadata> tables = new TreeMap<>();
        Table local = new Table("system", "local").pk("key", CqlTypes.TEXT);
        for (String name : List.of("bootstrapped", "cluster_name", "cql_version", "data_center", "native_protocol_version",
                "partitioner", "rack", "release_version")) local.regular(name, CqlTypes.TEXT);
        for (String name : List.of("broadcast_address", "listen_address", "rpc_address")) local.regular(name, CqlTypes.INET);
        for (String name : List.of("broadcast_port", "gossip_generation", "listen_port", "rpc_port")) local.regular(name, CqlTypes.INT);
        local.regular("host_id", CqlTypes.UUID).regular("schema_version", CqlTypes.UUID)
                .regular("tokens", CqlTypes.set(CqlTypes.TEXT, false))
                .regular("truncated_at", CqlTypes.map(CqlTypes.UUID, CqlTypes.BLOB, false))
                .params(Map.of("comment", "information about the local node", "gc_grace_seconds", "0",
                        "memtable_flush_period_in_ms", "3600000"));
        tables.put("local", local.build());
        tables.put("IndexInfo", new Table("system", "IndexInfo").pk("table_name", CqlTypes.TEXT).ck("index_name", CqlTypes.TEXT, false).build());
        tables.put("peers", new Table("system", "peers").pk("peer", CqlTypes.INET).build());
        tables.put("batches", new Table("system", "batches").pk("id", CqlTypes.TIMEUUID).build());
        return new KeyspaceMetadata("system", Map.of("class", LOCAL), true, tables, Map.of());
    }

    private static KeyspaceMetadata systemViews() {
        Map<String, TableMetadata> tables = new TreeMap<>();
        Table clients = new Table("system_views", "clients").pk("address", CqlTypes.INET).ck("port", CqlTypes.INT, false)
                .regular("client_options", CqlTypes.map(CqlTypes.TEXT, CqlTypes.TEXT, true))
                .regular("request_count", CqlTypes.BIGINT).regular("ssl_enabled", CqlTypes.BOOLEAN)
                .regular("protocol_version", CqlTypes.INT);
        for (String name : List.of("connection_stage", "driver_name", "driver_version", "hostname", "keyspace_name",
                "ssl_cipher_suite", "ssl_protocol", "username")) clients.regular(name, CqlTypes.TEXT);
        tables.put("clients", clients.params(Map.of("comment", "currently connected clients")).build());
        tables.put("batch_metrics", new Table("system_views", "batch_metrics").pk("name", CqlTypes.TEXT)
                .regular("max", CqlTypes.BIGINT).regular("p50th", CqlTypes.DOUBLE).regular("p999th", CqlTypes.DOUBLE)
                .regular("p99th", CqlTypes.DOUBLE).params(Map.of("comment", "Metrics specific to batch statements")).build());
        tables.put("rows_per_read", new Table("system_views", "rows_per_read").pk("keyspace_name", CqlTypes.TEXT)
                .pk("table_name", CqlTypes.TEXT).regular("count", CqlTypes.BIGINT).regular("max", CqlTypes.DOUBLE)
                .regular("p50th", CqlTypes.DOUBLE).regular("p99th", CqlTypes.DOUBLE).build());
        return new KeyspaceMetadata("system_views", Map.of(), true, tables, Map.of());
    }

    private static KeyspaceMetadata empty(String name, Map<String, String> replication) {
        return new KeyspaceMetadata(name, replication, true, Map.of(), Map.of());
    }

    /** Builds a table column by column, giving key columns their positions and every column an id. */
    static final class Table {
        private final String keyspace;
        private final String name;
        private final List<ColumnMetadata> columns = new ArrayList<>();
        private final Map<String, DroppedColumn> dropped = new LinkedHashMap<>();
        private UUID id = UUID.randomUUID();
        private TableParams params = TableParams.DEFAULT;
        private int partitionKeys;
        private int clusterings;

        Table(String keyspace, String name) {
            this.keyspace = keyspace;
            this.name = name;
        }

        Table id(UUID tableId) {
            id = tableId;
            return this;
        }

        Table pk(String column, CqlType type) {
            return add(column, ColumnMetadata.Kind.PARTITION_KEY, partitionKeys++, type, false);
        }

        Table ck(String column, CqlType type, boolean descending) {
            return add(column, ColumnMetadata.Kind.CLUSTERING, clusterings++, type, descending);
        }

        Table statik(String column, CqlType type) {
            return add(column, ColumnMetadata.Kind.STATIC, -1, type, false);
        }

        Table regular(String column, CqlType type) {
            return add(column, ColumnMetadata.Kind.REGULAR, -1, type, false);
        }

        Table params(Map<String, Object> values) {
            params = TableParams.DEFAULT.with(values);
            return this;
        }

        Table dropped(DroppedColumn column) {
            dropped.put(column.name(), column);
            return this;
        }

        private Table add(String column, ColumnMetadata.Kind kind, int position, CqlType type, boolean descending) {
            columns.add(new ColumnMetadata(column, columns.size(), kind, position, type, descending));
            return this;
        }

        TableMetadata build() {
            return new TableMetadata(keyspace, name, id, columns, params, dropped, columns.size());
        }
    }
}
