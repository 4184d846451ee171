package ballot.system;

import ballot.cql.execute.PreparedStatementInfo;
import ballot.cql.index.IndexTerms;
import ballot.cql.index.StorageAttachedIndex;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.DroppedColumn;
import ballot.cql.schema.IndexMetadata;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.schema.SystemKeyspaceNames;
import ballot.cql.schema.TableMetadata;
import ballot.cql.schema.TableParams;
import ballot.cql.schema.UserTypes;
import ballot.cql.statement.SchemaDefinitions;
import ballot.cql.trace.TraceKeyspace;
import ballot.cql.transport.ConnectedClient;
import ballot.storage.StorageTask;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The keyspaces the node defines itself, in Cassandra 5.0's shape, so that drivers and cqlsh find what they read at
 * connect: system (local, peers, peers_v2, and paxos for operators), system_schema (the schema as tables, with
 * ScyllaDB's scylla_tables for ScyllaDB's drivers), system_virtual_schema, system_traces, and the other distributed
 * system keyspaces (listed, without tables). The tables of system_traces and system_auth (roles, role_members) are stored and replicated like a user's
 * ({@link #storedTables()}); the others are {@link VirtualTable}s generated from the node's state, its Paxos
 * registers and the current schema.
 */
public final class SystemKeyspaces {
    private static final String LOCAL_STRATEGY = "org.apache.cassandra.locator.LocalStrategy";
    private static final String SIMPLE_STRATEGY = "org.apache.cassandra.locator.SimpleStrategy";

    /** The other nodes of the cluster and their liveness, as membership knows them. */
    public interface Peers {
        Peers NONE = new Peers() {
            public java.util.Collection<ballot.cluster.NodeInfo> others() {
                return List.of();
            }

            public boolean isAlive(UUID hostId) {
                return false;
            }
        };

        java.util.Collection<ballot.cluster.NodeInfo> others();

        boolean isAlive(UUID hostId);
    }

    /** Whether an index is built on this node: true, false while it is building, null if this node has no such index. */
    public interface IndexStatus {
        IndexStatus NONE = (table, index) -> null;

        Boolean built(UUID tableId, String index);
    }

    private final LocalNode node;
    private volatile IndexStatus indexStatus = IndexStatus.NONE;
    private volatile Supplier<List<ConnectedClient>> clients = List::of;
    private volatile Supplier<List<PreparedStatementInfo>> prepared = List::of;
    private volatile Supplier<Map<String, String>> settings = Map::of;
    private volatile Supplier<List<StorageTask>> storageTasks = List::of;
    private volatile java.util.function.Function<UUID, TableSize> tableSizes = id -> null;
    private final Supplier<Schema> schema;
    private final VirtualTable.Source paxos;
    private volatile Peers peers = Peers.NONE;
    private final Map<UUID, VirtualTable> tables = new LinkedHashMap<>();
    private final Map<String, KeyspaceMetadata> keyspaces = new TreeMap<>();

    /** @param paxos the rows of system.paxos: this node's acceptor registers (docs/paxos.md §12) */
    public SystemKeyspaces(LocalNode node, Supplier<Schema> schema, VirtualTable.Source paxos) {
        this.node = node;
        this.schema = schema;
        this.paxos = paxos;
        defineSystem();
        defineSchema();
        defineVirtualSchema();
        defineAuth();
        keyspaces.put("system_distributed", new KeyspaceMetadata("system_distributed", Map.of("class", SIMPLE_STRATEGY, "replication_factor", "3"), true, Map.of(), Map.of()));
        defineTraces();
        defineViews();
    }

    /** Starts reporting the other nodes of the cluster in system.peers, peers_v2 and system_views.nodes. */
    public void peers(Peers source) {
        this.peers = source;
    }

    /** Starts reporting this node's index builds in system_views.sai_column_indexes. */
    public void indexStatus(IndexStatus source) {
        this.indexStatus = source;
    }

    /** Starts reporting this node's client connections in system_views.clients. */
    public void clients(Supplier<List<ConnectedClient>> source) {
        this.clients = source;
    }

    /** Starts reporting the statements prepared on this node in system.prepared_statements. */
    public void preparedStatements(Supplier<List<PreparedStatementInfo>> source) {
        this.prepared = source;
    }

    /** Starts reporting the node's settings (by their YAML names) in system_views.settings. */
    public void settings(Supplier<Map<String, String>> source) {
        this.settings = source;
    }

    /**
     * What this node stores of a table, for system.size_estimates and table_estimates: RocksDB's estimate of its keys
     * (a key per written row fragment, so at least one per partition) and its bytes on disk and in memory.
     */
    public record TableSize(long estimatedKeys, long bytes) {}

    /** Starts reporting table sizes ({@code sizes} gives null for a table without storage) in system.size_estimates. */
    public void tableSizes(java.util.function.Function<UUID, TableSize> sizes) {
        this.tableSizes = sizes;
    }

    /** Starts reporting the storage engine's running flushes and compactions in system_views.sstable_tasks. */
    public void storageTasks(Supplier<List<StorageTask>> source) {
        this.storageTasks = source;
    }

    /** The system keyspaces, to merge into every schema snapshot. */
    public Map<String, KeyspaceMetadata> keyspaces() {
        return keyspaces;
    }

    /** The system tables kept in storage, as user tables are: system_traces.sessions and events, system_auth.roles, role_members and role_permissions. */
    public List<TableMetadata> storedTables() {
        List<TableMetadata> stored = new ArrayList<>(keyspaces.get(TraceKeyspace.NAME).tables().values());
        stored.addAll(keyspaces.get("system_auth").tables().values());
        return stored;
    }

    /** The generated table with this id, or null if the table is stored. */
    public VirtualTable table(UUID id) {
        return tables.get(id);
    }

    // ---------------------------------------------------------------- system

    private void defineSystem() {
        Map<String, TableMetadata> system = new TreeMap<>();
        add(system, "system", "local", "information about the local node", """
                CREATE TABLE local (key text PRIMARY KEY, bootstrapped text, broadcast_address inet, broadcast_port int,
                  cluster_name text, cql_version text, data_center text, gossip_generation int, host_id uuid,
                  listen_address inet, listen_port int, native_protocol_version text, partitioner text, rack text,
                  release_version text, rpc_address inet, rpc_port int, schema_version uuid, tokens set<text>,
                  truncated_at map<uuid, blob>)""", this::localRows);
        add(system, "system", "prepared_statements", "prepared statements", """
                CREATE TABLE prepared_statements (prepared_id blob PRIMARY KEY, logged_keyspace text, query_string text)""",
                this::preparedRows);
        add(system, "system", "peers", "information about known peers in the cluster", """
                CREATE TABLE peers (peer inet PRIMARY KEY, data_center text, host_id uuid, preferred_ip inet, rack text,
                  release_version text, rpc_address inet, schema_version uuid, tokens set<text>)""", () -> peerRows(false));
        add(system, "system", "peers_v2", "information about known peers in the cluster", """
                CREATE TABLE peers_v2 (peer inet, peer_port int, data_center text, host_id uuid, preferred_ip inet,
                  preferred_port int, rack text, release_version text, native_address inet, native_port int,
                  schema_version uuid, tokens set<text>, PRIMARY KEY ((peer), peer_port))""", () -> peerRows(true));
        add(system, "system", "size_estimates", "per-table primary range size estimates, table is deprecated in favor of table_estimates", """
                CREATE TABLE size_estimates (keyspace_name text, table_name text, range_start text, range_end text,
                  mean_partition_size bigint, partitions_count bigint,
                  PRIMARY KEY ((keyspace_name), table_name, range_start, range_end))""", () -> estimateRows(false));
        add(system, "system", "table_estimates", "per-table range size estimates", """
                CREATE TABLE table_estimates (keyspace_name text, table_name text, range_type text, range_start text,
                  range_end text, mean_partition_size bigint, partitions_count bigint,
                  PRIMARY KEY ((keyspace_name), table_name, range_type, range_start, range_end))""", () -> estimateRows(true));
        add(system, "system", "paxos", "in-progress paxos proposals", """
                CREATE TABLE paxos (row_key blob, cf_id uuid, in_progress_ballot timeuuid, in_progress_read_ballot timeuuid,
                  most_recent_commit blob, most_recent_commit_at timeuuid, most_recent_commit_version int, proposal blob,
                  proposal_ballot timeuuid, proposal_version int, PRIMARY KEY ((row_key), cf_id))""", paxos);
        keyspaces.put("system", new KeyspaceMetadata("system", Map.of("class", LOCAL_STRATEGY), true, system, Map.of()));
    }

    private List<Map<String, Object>> localRows() {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("key", "local");
        row.put("bootstrapped", "COMPLETED");
        row.put("broadcast_address", node.address());
        row.put("broadcast_port", node.storagePort());
        row.put("cluster_name", node.clusterName());
        row.put("cql_version", LocalNode.CQL_VERSION);
        row.put("data_center", node.dataCenter());
        row.put("gossip_generation", node.generation());
        row.put("host_id", node.hostId());
        row.put("listen_address", node.address());
        row.put("listen_port", node.storagePort());
        row.put("native_protocol_version", "5");
        row.put("partitioner", LocalNode.PARTITIONER);
        row.put("rack", node.rack());
        row.put("release_version", LocalNode.RELEASE_VERSION);
        row.put("rpc_address", node.nativeAddress());
        row.put("rpc_port", node.nativePort());
        row.put("schema_version", schema.get().version());
        Set<String> tokens = new LinkedHashSet<>();
        for (long t : node.tokens()) tokens.add(Long.toString(t));
        row.put("tokens", tokens);
        return List.of(row);
    }

    private List<Map<String, Object>> peerRows(boolean v2) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (ballot.cluster.NodeInfo n : peers.others()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("peer", n.internode().getAddress());
            if (v2) row.put("peer_port", n.internode().getPort());
            row.put("data_center", n.dataCenter());
            row.put("host_id", n.hostId());
            row.put("rack", n.rack());
            row.put("release_version", n.releaseVersion());
            if (v2) {
                row.put("native_address", n.nativeAddress());
                row.put("native_port", n.nativePort());
            } else {
                row.put("rpc_address", n.nativeAddress());
            }
            row.put("schema_version", n.schemaVersion());
            Set<String> tokens = new LinkedHashSet<>();
            for (long t : n.tokens()) tokens.add(Long.toString(t));
            row.put("tokens", tokens);
            rows.add(row);
        }
        return rows;
    }

    // ---------------------------------------------------------------- system_views

    private void defineViews() {
        Map<String, TableMetadata> t = new TreeMap<>();
        add(t, "system_views", "nodes", "every node of the cluster with its state, as nodetool status shows it", """
                CREATE TABLE nodes (host_id uuid PRIMARY KEY, address inet, native_address inet, native_port int,
                  data_center text, rack text, status text, state text, tokens int, schema_version uuid, release_version text)""",
                this::nodeRows);
        add(t, "system_views", "sai_column_indexes", "Storage-attached column index metadata", """
                CREATE TABLE sai_column_indexes (keyspace_name text, index_name text, analyzer text, column_name text,
                  is_building boolean, is_queryable boolean, is_string boolean, table_name text,
                  PRIMARY KEY ((keyspace_name), index_name))""", this::indexStatusRows);
        add(t, "system_views", "settings", "current settings", """
                CREATE TABLE settings (name text PRIMARY KEY, value text)""", this::settingRows);
        add(t, "system_views", "sstable_tasks", "current sstable tasks", """
                CREATE TABLE sstable_tasks (keyspace_name text, table_name text, task_id timeuuid, completion_ratio double,
                  kind text, progress bigint, sstables int, total bigint, unit text,
                  PRIMARY KEY ((keyspace_name), table_name, task_id))""", this::storageTaskRows);
        add(t, "system_views", "clients", "currently connected clients", """
                CREATE TABLE clients (address inet, port int, hostname text, username text, connection_stage text,
                  protocol_version int, client_options frozen<map<text, text>>, driver_name text, driver_version text,
                  request_count bigint, ssl_enabled boolean, ssl_protocol text, ssl_cipher_suite text, keyspace_name text,
                  PRIMARY KEY ((address), port))""", this::clientRows);
        keyspaces.put("system_views", new KeyspaceMetadata("system_views", Map.of(), true, t, Map.of()));
    }

    /**
     * The statements this node holds prepared. Cassandra persists them here to prepare them again after a restart;
     * Ballot's are in memory only (a restarted node answers their EXECUTE with UNPREPARED, and drivers prepare again),
     * so the table shows what the node holds now.
     */
    private List<Map<String, Object>> preparedRows() {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (PreparedStatementInfo p : prepared.get()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("prepared_id", p.id());
            row.put("logged_keyspace", p.keyspace());
            row.put("query_string", p.query());
            rows.add(row);
        }
        return rows;
    }

    /** Cassandra 4.0+'s view of the settings this node runs with. */
    private List<Map<String, Object>> settingRows() {
        List<Map<String, Object>> rows = new ArrayList<>();
        settings.get().forEach((name, value) -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", name);
            row.put("value", value);
            rows.add(row);
        });
        return rows;
    }

    /**
     * Cassandra 4.1+'s view of the compactions (and here flushes) running on this node, in bytes. A task of an index
     * is its table's; one of a table dropped meanwhile is left out. RocksDB does not say how many files a compaction
     * reads, so {@code sstables} is null.
     */
    private List<Map<String, Object>> storageTaskRows() {
        Schema now = schema.get();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (StorageTask task : storageTasks.get()) {
            TableMetadata table = task.table() == null ? null : now.table(task.table());
            if (task.table() != null && table == null) continue;
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("keyspace_name", table == null ? "system" : table.keyspace());
            row.put("table_name", table == null ? task.systemTable() : table.name());
            row.put("task_id", task.id());
            row.put("completion_ratio", task.total() == 0 ? 1.0 : (double) task.progress() / task.total());
            row.put("kind", task.kind());
            row.put("progress", task.progress());
            row.put("total", task.total());
            row.put("unit", "bytes");
            rows.add(row);
        }
        return rows;
    }

    /** Cassandra 4.0+'s view of the client connections open on this node. */
    private List<Map<String, Object>> clientRows() {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (ConnectedClient c : clients.get()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("address", c.remote().getAddress());
            row.put("port", c.remote().getPort());
            row.put("hostname", c.remote().getHostString());
            row.put("username", c.username());
            row.put("connection_stage", c.stage());
            row.put("protocol_version", c.protocolVersion());
            row.put("client_options", c.options());
            row.put("driver_name", c.driverName());
            row.put("driver_version", c.driverVersion());
            row.put("request_count", c.requestCount());
            row.put("ssl_enabled", c.sslProtocol() != null);
            row.put("ssl_protocol", c.sslProtocol());
            row.put("ssl_cipher_suite", c.sslCipherSuite());
            row.put("keyspace_name", c.keyspace());
            rows.add(row);
        }
        return rows;
    }

    /** Cassandra 5.0's view of this node's storage-attached indexes, whether each answers queries or is building. */
    private List<Map<String, Object>> indexStatusRows() {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (KeyspaceMetadata ks : described()) {
            for (TableMetadata table : ks.tables().values()) {
                for (IndexMetadata index : table.indexes()) {
                    IndexTerms terms = IndexTerms.of(table, index);
                    Boolean built = indexStatus.built(table.id(), index.name());
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("keyspace_name", ks.name());
                    row.put("index_name", index.name());
                    row.put("analyzer", terms.analyzer().toString());
                    row.put("column_name", terms.column().name());
                    row.put("is_building", Boolean.FALSE.equals(built));
                    row.put("is_queryable", Boolean.TRUE.equals(built));
                    row.put("is_string", StorageAttachedIndex.isLiteral(terms));
                    row.put("table_name", table.name());
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    private List<Map<String, Object>> nodeRows() {
        List<Map<String, Object>> rows = new ArrayList<>();
        Map<String, Object> self = new LinkedHashMap<>();
        self.put("host_id", node.hostId());
        self.put("address", node.address());
        self.put("native_address", node.nativeAddress());
        self.put("native_port", node.nativePort());
        self.put("data_center", node.dataCenter());
        self.put("rack", node.rack());
        self.put("status", "UP");
        self.put("state", "NORMAL");
        self.put("tokens", node.tokens().size());
        self.put("schema_version", schema.get().version());
        self.put("release_version", LocalNode.RELEASE_VERSION);
        rows.add(self);
        for (ballot.cluster.NodeInfo n : peers.others()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("host_id", n.hostId());
            row.put("address", n.internode().getAddress());
            row.put("native_address", n.nativeAddress());
            row.put("native_port", n.nativePort());
            row.put("data_center", n.dataCenter());
            row.put("rack", n.rack());
            row.put("status", peers.isAlive(n.hostId()) ? "UP" : "DOWN");
            row.put("state", n.status().name());
            row.put("tokens", n.tokens().size());
            row.put("schema_version", n.schemaVersion());
            row.put("release_version", n.releaseVersion());
            rows.add(row);
        }
        return rows;
    }

    // ---------------------------------------------------------------- system_schema

    private void defineSchema() {
        Map<String, TableMetadata> t = new TreeMap<>();
        add(t, "system_schema", "keyspaces", "keyspace definitions", """
                CREATE TABLE keyspaces (keyspace_name text PRIMARY KEY, durable_writes boolean, replication frozen<map<text, text>>)""",
                this::keyspaceRows);
        add(t, "system_schema", "tables", "table definitions", """
                CREATE TABLE tables (keyspace_name text, table_name text, additional_write_policy text, allow_auto_snapshot boolean,
                  bloom_filter_fp_chance double, caching frozen<map<text, text>>, cdc boolean, comment text,
                  compaction frozen<map<text, text>>, compression frozen<map<text, text>>, crc_check_chance double,
                  dclocal_read_repair_chance double, default_time_to_live int, extensions frozen<map<text, blob>>,
                  flags frozen<set<text>>, gc_grace_seconds int, id uuid, incremental_backups boolean, max_index_interval int,
                  memtable text, memtable_flush_period_in_ms int, min_index_interval int, read_repair text,
                  read_repair_chance double, speculative_retry text, PRIMARY KEY ((keyspace_name), table_name))""",
                this::tableRows);
        add(t, "system_schema", "columns", "column definitions", """
                CREATE TABLE columns (keyspace_name text, table_name text, column_name text, clustering_order text,
                  column_name_bytes blob, kind text, position int, type text,
                  PRIMARY KEY ((keyspace_name), table_name, column_name))""", () -> columnRows(false));
        add(t, "system_schema", "column_masks", "column dynamic data masks", """
                CREATE TABLE column_masks (keyspace_name text, table_name text, column_name text,
                  function_argument_nulls frozen<list<boolean>>, function_argument_types frozen<list<text>>,
                  function_argument_values frozen<list<text>>, function_keyspace text, function_name text,
                  PRIMARY KEY ((keyspace_name), table_name, column_name))""", List::of);
        add(t, "system_schema", "dropped_columns", "dropped column registry", """
                CREATE TABLE dropped_columns (keyspace_name text, table_name text, column_name text, dropped_time timestamp,
                  kind text, type text, PRIMARY KEY ((keyspace_name), table_name, column_name))""", this::droppedRows);
        add(t, "system_schema", "triggers", "trigger definitions", """
                CREATE TABLE triggers (keyspace_name text, table_name text, trigger_name text, options frozen<map<text, text>>,
                  PRIMARY KEY ((keyspace_name), table_name, trigger_name))""", List::of);
        add(t, "system_schema", "views", "view definitions", """
                CREATE TABLE views (keyspace_name text, view_name text, additional_write_policy text, allow_auto_snapshot boolean,
                  base_table_id uuid, base_table_name text, bloom_filter_fp_chance double, caching frozen<map<text, text>>,
                  cdc boolean, comment text, compaction frozen<map<text, text>>, compression frozen<map<text, text>>,
                  crc_check_chance double, dclocal_read_repair_chance double, default_time_to_live int,
                  extensions frozen<map<text, blob>>, gc_grace_seconds int, id uuid, include_all_columns boolean,
                  incremental_backups boolean, max_index_interval int, memtable text, memtable_flush_period_in_ms int,
                  min_index_interval int, read_repair text, read_repair_chance double, speculative_retry text,
                  where_clause text, PRIMARY KEY ((keyspace_name), view_name))""", List::of);
        add(t, "system_schema", "types", "user defined type definitions", """
                CREATE TABLE types (keyspace_name text, type_name text, field_names frozen<list<text>>,
                  field_types frozen<list<text>>, PRIMARY KEY ((keyspace_name), type_name))""", this::typeRows);
        add(t, "system_schema", "functions", "user defined function definitions", """
                CREATE TABLE functions (keyspace_name text, function_name text, argument_types frozen<list<text>>,
                  argument_names frozen<list<text>>, body text, called_on_null_input boolean, language text, return_type text,
                  PRIMARY KEY ((keyspace_name), function_name, argument_types))""", List::of);
        add(t, "system_schema", "aggregates", "user defined aggregate definitions", """
                CREATE TABLE aggregates (keyspace_name text, aggregate_name text, argument_types frozen<list<text>>,
                  final_func text, initcond text, return_type text, state_func text, state_type text,
                  PRIMARY KEY ((keyspace_name), aggregate_name, argument_types))""", List::of);
        add(t, "system_schema", "indexes", "secondary index definitions", """
                CREATE TABLE indexes (keyspace_name text, table_name text, index_name text, kind text,
                  options frozen<map<text, text>>, PRIMARY KEY ((keyspace_name), table_name, index_name))""", this::indexRows);
        add(t, "system_schema", "scylla_tables", "ScyllaDB's table properties", """
                CREATE TABLE scylla_tables (keyspace_name text, table_name text, cdc frozen<map<text, text>>,
                  committed_by_group0 boolean, in_memory boolean, partitioner text, tablets frozen<map<text, text>>, version uuid,
                  PRIMARY KEY ((keyspace_name), table_name))""", this::scyllaTableRows);
        keyspaces.put("system_schema", new KeyspaceMetadata("system_schema", Map.of("class", LOCAL_STRATEGY), true, t, Map.of()));
    }

    /**
     * A row per table, as ScyllaDB's drivers read it (gocql needs the table to load a keyspace's metadata, and with it
     * token-aware routing). Every property is null, as ScyllaDB leaves them for a table without CDC, with the default
     * partitioner, on vnodes, and with no schema version of its own (Ballot versions the schema as a whole).
     */
    private List<Map<String, Object>> scyllaTableRows() {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (KeyspaceMetadata ks : described()) {
            for (TableMetadata table : ks.tables().values()) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("keyspace_name", ks.name());
                row.put("table_name", table.name());
                rows.add(row);
            }
        }
        return rows;
    }

    /**
     * Cassandra's estimates of each user table's size per primary range of this node (what the Spark connector splits
     * scans by): the node's keys and bytes of the table, shared among its primary ranges by their share of the ring.
     * A partition is counted as one key, which over-counts partitions of several rows and under-counts their mean size
     * by as much; their product, the table's size, is what readers use. With {@code typed}, table_estimates' rows,
     * each range both as {@code primary} and {@code local_primary} (one data center's ring is the whole ring here).
     */
    private List<Map<String, Object>> estimateRows(boolean typed) {
        List<long[]> ranges = primaryRanges();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (KeyspaceMetadata ks : described()) {
            if (ks.name().startsWith("system")) continue;
            for (TableMetadata table : ks.tables().values()) {
                TableSize size = tableSizes.apply(table.id());
                if (size == null) continue;
                long keys = Math.max(size.estimatedKeys(), 0);
                long meanSize = keys == 0 ? 0 : size.bytes() / keys;
                for (long[] range : ranges) {
                    double share = ringShare(range[0], range[1]);
                    for (String type : typed ? List.of("local_primary", "primary") : java.util.Collections.<String>singletonList(null)) {
                        Map<String, Object> row = new LinkedHashMap<>();
                        row.put("keyspace_name", ks.name());
                        row.put("table_name", table.name());
                        if (type != null) row.put("range_type", type);
                        row.put("range_start", Long.toString(range[0]));
                        row.put("range_end", Long.toString(range[1]));
                        row.put("mean_partition_size", meanSize);
                        row.put("partitions_count", Math.round(keys * share));
                        rows.add(row);
                    }
                }
            }
        }
        return rows;
    }

    /** This node's primary ranges, (start, end] in token order: from the ring's previous token to each of its own. */
    private List<long[]> primaryRanges() {
        java.util.TreeSet<Long> ring = new java.util.TreeSet<>(node.tokens());
        for (ballot.cluster.NodeInfo n : peers.others()) ring.addAll(n.tokens());
        List<long[]> ranges = new ArrayList<>();
        for (long token : new java.util.TreeSet<>(node.tokens())) {
            Long previous = ring.lower(token);
            ranges.add(new long[] {previous != null ? previous : ring.last(), token});
        }
        return ranges;
    }

    /** The share of the Murmur3 ring in (start, end], wrapping past the largest token; the whole ring if start == end. */
    private static double ringShare(long start, long end) {
        double width = (double) end - (double) start;
        if (width <= 0) width += Math.pow(2, 64);
        return width / Math.pow(2, 64);
    }

    /** Keyspaces that system_schema describes: everything but the virtual keyspaces. */
    private List<KeyspaceMetadata> described() {
        List<KeyspaceMetadata> out = new ArrayList<>();
        for (KeyspaceMetadata ks : schema.get().keyspaces().values()) if (!SystemKeyspaceNames.VIRTUAL.contains(ks.name())) out.add(ks);
        return out;
    }

    private List<Map<String, Object>> keyspaceRows() {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (KeyspaceMetadata ks : described()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("keyspace_name", ks.name());
            row.put("durable_writes", ks.durableWrites());
            row.put("replication", new TreeMap<>(ks.replication()));
            rows.add(row);
        }
        return rows;
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> tableRows() {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (KeyspaceMetadata ks : described()) {
            for (TableMetadata table : ks.tables().values()) {
                TableParams p = table.params();
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("keyspace_name", ks.name());
                row.put("table_name", table.name());
                row.put("additional_write_policy", p.get("additional_write_policy"));
                row.put("allow_auto_snapshot", Boolean.TRUE.equals(p.get("allow_auto_snapshot")) ? null : Boolean.FALSE);
                row.put("bloom_filter_fp_chance", p.get("bloom_filter_fp_chance"));
                row.put("caching", new TreeMap<>((Map<String, String>) p.get("caching")));
                // Cassandra 5.0.9 with its default settings (CDC off) leaves cdc null here, even for a table WITH cdc = true
                row.put("cdc", null);
                row.put("comment", p.comment());
                row.put("compaction", new TreeMap<>((Map<String, String>) p.get("compaction")));
                row.put("compression", new TreeMap<>((Map<String, String>) p.get("compression")));
                row.put("crc_check_chance", p.get("crc_check_chance"));
                row.put("dclocal_read_repair_chance", 0.0);
                row.put("default_time_to_live", p.defaultTimeToLive());
                Map<String, byte[]> extensions = new TreeMap<>();
                ((Map<String, String>) p.get("extensions")).forEach((k, v) -> extensions.put(k, v.getBytes(StandardCharsets.UTF_8)));
                row.put("extensions", extensions);
                Set<String> flags = new LinkedHashSet<>();
                flags.add("compound");
                if (table.isCounter()) flags.add("counter");
                row.put("flags", flags);
                row.put("gc_grace_seconds", p.gcGraceSeconds());
                row.put("id", table.id());
                row.put("incremental_backups", Boolean.TRUE.equals(p.get("incremental_backups")) ? null : Boolean.FALSE);
                row.put("max_index_interval", p.get("max_index_interval"));
                row.put("memtable", "default".equals(p.get("memtable")) ? null : p.get("memtable"));
                row.put("memtable_flush_period_in_ms", p.get("memtable_flush_period_in_ms"));
                row.put("min_index_interval", p.get("min_index_interval"));
                row.put("read_repair", p.get("read_repair"));
                row.put("read_repair_chance", 0.0);
                row.put("speculative_retry", p.get("speculative_retry"));
                rows.add(row);
            }
        }
        return rows;
    }

    private List<Map<String, Object>> columnRows(boolean virtual) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (KeyspaceMetadata ks : schema.get().keyspaces().values()) {
            if (SystemKeyspaceNames.VIRTUAL.contains(ks.name()) != virtual) continue;
            for (TableMetadata table : ks.tables().values()) {
                for (ColumnMetadata c : table.columns()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("keyspace_name", ks.name());
                    row.put("table_name", table.name());
                    row.put("column_name", c.name());
                    row.put("clustering_order", c.clusteringOrder());
                    row.put("column_name_bytes", c.name().getBytes(StandardCharsets.UTF_8));
                    row.put("kind", c.kind().schemaName());
                    row.put("position", c.position());
                    row.put("type", c.type().cqlName());
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    private List<Map<String, Object>> droppedRows() {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (KeyspaceMetadata ks : described()) {
            for (TableMetadata table : ks.tables().values()) {
                for (DroppedColumn d : table.dropped().values()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("keyspace_name", ks.name());
                    row.put("table_name", table.name());
                    row.put("column_name", d.name());
                    row.put("dropped_time", d.droppedTime() / 1000);
                    row.put("kind", d.kind());
                    row.put("type", d.type());
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    private List<Map<String, Object>> indexRows() {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (KeyspaceMetadata ks : described()) {
            for (TableMetadata table : ks.tables().values()) {
                for (IndexMetadata index : table.indexes()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("keyspace_name", ks.name());
                    row.put("table_name", table.name());
                    row.put("index_name", index.name());
                    row.put("kind", IndexMetadata.KIND);
                    row.put("options", new TreeMap<>(index.options()));
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    private List<Map<String, Object>> typeRows() {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (KeyspaceMetadata ks : described()) {
            for (Map.Entry<String, UserTypes.Definition> e : UserTypes.definitions(ks).entrySet()) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("keyspace_name", ks.name());
                row.put("type_name", e.getKey());
                row.put("field_names", e.getValue().fieldNames());
                row.put("field_types", e.getValue().fieldTypes());
                rows.add(row);
            }
        }
        return rows;
    }

    // ---------------------------------------------------------------- system_auth

    /** The role and permission tables of Cassandra 5.0 (not its resource_role_permissons_index: DROP scans role_permissions). */
    private void defineAuth() {
        Map<String, TableMetadata> t = new TreeMap<>();
        t.put("roles", definition("system_auth", "roles", "role definitions", """
                CREATE TABLE roles (role text PRIMARY KEY, can_login boolean, is_superuser boolean, member_of set<text>,
                  salted_hash text)""", "7776000"));
        t.put("role_members", definition("system_auth", "role_members", "role memberships lookup table", """
                CREATE TABLE role_members (role text, member text, PRIMARY KEY (role, member))""", "7776000"));
        t.put("role_permissions", definition("system_auth", "role_permissions", "permissions granted to db roles", """
                CREATE TABLE role_permissions (role text, resource text, permissions set<text>, PRIMARY KEY (role, resource))""", "7776000"));
        keyspaces.put("system_auth", new KeyspaceMetadata("system_auth", Map.of("class", SIMPLE_STRATEGY, "replication_factor", "1"), true, t, Map.of()));
    }

    // ---------------------------------------------------------------- system_traces

    private void defineTraces() {
        Map<String, TableMetadata> t = new TreeMap<>();
        t.put(TraceKeyspace.SESSIONS, definition(TraceKeyspace.NAME, TraceKeyspace.SESSIONS, "tracing sessions", TraceKeyspace.CREATE_SESSIONS, "0"));
        t.put(TraceKeyspace.EVENTS, definition(TraceKeyspace.NAME, TraceKeyspace.EVENTS, "tracing events", TraceKeyspace.CREATE_EVENTS, "0"));
        keyspaces.put(TraceKeyspace.NAME, new KeyspaceMetadata(TraceKeyspace.NAME, TraceKeyspace.REPLICATION, true, t, Map.of()));
    }

    // ---------------------------------------------------------------- system_virtual_schema

    private void defineVirtualSchema() {
        Map<String, TableMetadata> t = new TreeMap<>();
        add(t, "system_virtual_schema", "keyspaces", "virtual keyspace definitions",
                "CREATE TABLE keyspaces (keyspace_name text PRIMARY KEY)", () -> {
                    List<Map<String, Object>> rows = new ArrayList<>();
                    for (String ks : new java.util.TreeSet<>(SystemKeyspaceNames.VIRTUAL)) rows.add(Map.of("keyspace_name", ks));
                    return rows;
                });
        add(t, "system_virtual_schema", "tables", "virtual table definitions",
                "CREATE TABLE tables (keyspace_name text, table_name text, comment text, PRIMARY KEY (keyspace_name, table_name))", () -> {
                    List<Map<String, Object>> rows = new ArrayList<>();
                    for (KeyspaceMetadata ks : schema.get().keyspaces().values()) {
                        if (!SystemKeyspaceNames.VIRTUAL.contains(ks.name())) continue;
                        for (TableMetadata table : ks.tables().values()) {
                            rows.add(Map.of("keyspace_name", ks.name(), "table_name", table.name(), "comment", table.params().comment()));
                        }
                    }
                    return rows;
                });
        add(t, "system_virtual_schema", "columns", "virtual column definitions", """
                CREATE TABLE columns (keyspace_name text, table_name text, column_name text, clustering_order text,
                  column_name_bytes blob, kind text, position int, type text,
                  PRIMARY KEY (keyspace_name, table_name, column_name))""", () -> columnRows(true));
        keyspaces.put("system_virtual_schema", new KeyspaceMetadata("system_virtual_schema", Map.of(), true, t, Map.of()));
    }

    private void add(Map<String, TableMetadata> into, String keyspace, String name, String comment, String cql,
            Supplier<List<Map<String, Object>>> rows) {
        add(into, keyspace, name, comment, cql, VirtualTable.Source.of(rows));
    }

    private void add(Map<String, TableMetadata> into, String keyspace, String name, String comment, String cql,
            VirtualTable.Source rows) {
        TableMetadata table = definition(keyspace, name, comment, cql, keyspace.equals("system") ? "0" : "604800");
        table = table.withParams(table.params().with(Map.of("memtable_flush_period_in_ms", "3600000")));
        into.put(name, table);
        tables.put(table.id(), new VirtualTable(table, rows));
    }

    /** A system table with Cassandra's id for it ({@code TableId.forSystemTable}: a name-based UUID of both names). */
    private static TableMetadata definition(String keyspace, String name, String comment, String cql, String gcGraceSeconds) {
        UUID id = UUID.nameUUIDFromBytes((keyspace + name).getBytes(StandardCharsets.UTF_8));
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("comment", comment);
        params.put("gc_grace_seconds", gcGraceSeconds);
        return SchemaDefinitions.table(keyspace, cql, id).withParams(TableParams.DEFAULT.with(params));
    }
}
