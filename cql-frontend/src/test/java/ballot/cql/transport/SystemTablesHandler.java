package ballot.cql.transport;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.Execute;
import ballot.cql.protocol.message.Prepare;
import ballot.cql.protocol.message.Prepared;
import ballot.cql.protocol.message.PreparedMetadata;
import ballot.cql.protocol.message.Query;
import ballot.cql.protocol.message.Request;
import ballot.cql.protocol.message.Response;
import ballot.cql.protocol.message.Rows;
import ballot.cql.protocol.message.RowsMetadata;
import ballot.cql.protocol.message.SetKeyspace;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Just enough of a node for a real driver to connect: system.local (the columns the Java driver reads), empty
 * system.peers_v2 and system.peers, and a two-row table ks.kv (k int, v text) that can be queried or prepared.
 */
final class SystemTablesHandler implements RequestHandler {
    static final String CLUSTER_NAME = "Ballot Test Cluster";
    private static final ByteBuffer KV_STATEMENT_ID = ByteBuffer.wrap("kv-by-key".getBytes(StandardCharsets.UTF_8));
    private static final ByteBuffer KV_METADATA_ID = ByteBuffer.wrap("kv-rows".getBytes(StandardCharsets.UTF_8));
    private static final List<ColumnSpec> KV = List.of(
            new ColumnSpec("ks", "kv", "k", CqlTypes.INT), new ColumnSpec("ks", "kv", "v", CqlTypes.TEXT));

    private final Map<String, ColumnValue> local = new LinkedHashMap<>();
    /** Every statement the handler saw, with the connection it came on. */
    final List<ClientState> clients = new CopyOnWriteArrayList<>();
    final List<String> queries = new CopyOnWriteArrayList<>();

    private record ColumnValue(CqlType type, ByteBuffer value) {}

    SystemTablesHandler(int nativePort) {
        InetAddress localhost = InetAddress.getLoopbackAddress();
        put("key", CqlTypes.TEXT, "local");
        put("bootstrapped", CqlTypes.TEXT, "COMPLETED");
        put("broadcast_address", CqlTypes.INET, localhost);
        put("cluster_name", CqlTypes.TEXT, CLUSTER_NAME);
        put("cql_version", CqlTypes.TEXT, "3.4.7");
        put("data_center", CqlTypes.TEXT, "dc1");
        put("host_id", CqlTypes.UUID, UUID.fromString("6f4b1e4e-0a3b-4b7e-9d1a-2b3c4d5e6f70"));
        put("listen_address", CqlTypes.INET, localhost);
        put("native_protocol_version", CqlTypes.TEXT, "5");
        put("partitioner", CqlTypes.TEXT, "org.apache.cassandra.dht.Murmur3Partitioner");
        put("rack", CqlTypes.TEXT, "rack1");
        put("release_version", CqlTypes.TEXT, "5.0.0");
        put("rpc_address", CqlTypes.INET, localhost);
        put("rpc_port", CqlTypes.INT, nativePort);
        put("schema_version", CqlTypes.UUID, UUID.fromString("0b8f6a5e-3c1d-4e2f-8a9b-0c1d2e3f4a5b"));
        put("tokens", CqlTypes.set(CqlTypes.TEXT, false), Set.of("0"));
    }

    private void put(String column, CqlType type, Object value) {
        local.put(column, new ColumnValue(type, type.decompose(value)));
    }

    @Override
    public CompletionStage<Response> handle(Request request, ClientState client) {
        clients.add(client);
        try {
            return CompletableFuture.completedFuture(answer(request, client));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private Response answer(Request request, ClientState client) {
        if (request instanceof Prepare p) {
            if (!normalize(p.query()).equals("select k, v from ks.kv where k = ?"))
                throw new InvalidRequestException("cannot prepare " + p.query());
            return new Prepared(KV_STATEMENT_ID, KV_METADATA_ID, new PreparedMetadata(List.of(KV.get(0)), List.of(0)),
                    RowsMetadata.of(KV));
        }
        if (request instanceof Execute e) {
            if (!e.statementId().equals(KV_STATEMENT_ID)) throw new InvalidRequestException("unknown statement");
            ByteBuffer key = e.options().values().get(0);
            return new Rows(RowsMetadata.of(KV), kvRows().stream().filter(row -> row[0].equals(key)).toList());
        }
        String cql = normalize(((Query) request).query());
        queries.add(cql);
        if (cql.startsWith("use ")) {
            client.keyspace(cql.substring(4));
            return new SetKeyspace(cql.substring(4));
        }
        if (cql.matches("select .* from system\\.local.*")) return selectLocal(cql.substring(7, cql.indexOf(" from ")));
        if (cql.matches("select \\* from system\\.peers(_v2)?.*")) return peers();
        if (cql.equals("select k, v from ks.kv")) return new Rows(RowsMetadata.of(KV), kvRows());
        throw new InvalidRequestException("test node cannot run: " + cql);
    }

    private static String normalize(String cql) {
        return cql.trim().replaceAll("\\s+", " ").replace(";", "").toLowerCase(Locale.ROOT);
    }

    private Rows selectLocal(String selection) {
        List<String> columns = selection.equals("*") ? new ArrayList<>(local.keySet()) : List.of(selection.split(",\\s*"));
        List<ColumnSpec> specs = new ArrayList<>();
        ByteBuffer[] row = new ByteBuffer[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            ColumnValue column = local.get(columns.get(i));
            if (column == null) throw new InvalidRequestException("Undefined column name " + columns.get(i) + " in table system.local");
            specs.add(new ColumnSpec("system", "local", columns.get(i), column.type()));
            row[i] = column.value();
        }
        return new Rows(RowsMetadata.of(specs), List.<ByteBuffer[]>of(row));
    }

    private static Rows peers() {
        return new Rows(RowsMetadata.of(List.of(
                new ColumnSpec("system", "peers_v2", "peer", CqlTypes.INET),
                new ColumnSpec("system", "peers_v2", "host_id", CqlTypes.UUID),
                new ColumnSpec("system", "peers_v2", "data_center", CqlTypes.TEXT))), List.of());
    }

    private static List<ByteBuffer[]> kvRows() {
        return List.of(new ByteBuffer[] {CqlTypes.INT.decompose(1), CqlTypes.TEXT.decompose("one")},
                new ByteBuffer[] {CqlTypes.INT.decompose(2), null});
    }
}
