package ballot.node;

import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import ballot.metrics.AdminChanges;
import ballot.metrics.LatencyPercentiles;
import ballot.storage.Snapshots;
import ballot.storage.StorageEngine;
import ballot.system.LocalNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin CLI's calls on {@code metrics_port} (docs/admin.md), answered in JSON: {@code GET} of {@code info},
 * {@code version}, {@code tablestats}, {@code tablehistograms}, {@code proxyhistograms} and {@code listsnapshots};
 * {@code POST} of {@code flush}, {@code compact}, {@code drain}, {@code snapshot} and {@code clearsnapshot}, which
 * change the node and are taken only where {@link AdminChanges} permits. Tables are named by repeated {@code table=ks} or {@code table=ks.t} parameters; none means every table that
 * has storage. An unknown keyspace or table is 400 naming it.
 */
final class AdminEndpoint implements HttpHandler {
    static final String PATH = "/admin/";
    private static final Logger log = LoggerFactory.getLogger(AdminEndpoint.class);
    private static final ObjectMapper JSON = new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

    /** The calls, at {@code PATH + path()}. Those that change the node are POSTs, the others GETs. */
    enum Call {
        INFO(false), VERSION(false), TABLESTATS(false), TABLEHISTOGRAMS(false), PROXYHISTOGRAMS(false), LISTSNAPSHOTS(false),
        FLUSH(true), COMPACT(true), DRAIN(true), SNAPSHOT(true), CLEARSNAPSHOT(true);

        final boolean changes;

        Call(boolean changes) {
            this.changes = changes;
        }

        String path() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        String method() {
            return changes ? "POST" : "GET";
        }

        static Call named(String path) {
            for (Call c : values()) if (c.path().equals(path)) return c;
            return null;
        }
    }

    /** What the node is doing now, for {@code info}. */
    interface NodeState {
        boolean nativeTransportActive();

        boolean gossipActive();

        /** Stops taking clients and messages after flushing (nodetool drain); the process stays up. Idempotent. */
        void drain();
    }

    record Info(UUID hostId, String ballotVersion, String releaseVersion, boolean gossipActive, boolean nativeTransportActive,
            long loadBytes, int generation, long uptimeSeconds, long heapUsedBytes, long heapMaxBytes, String dataCenter, String rack,
            int tokens, long storageBackgroundErrors) {}

    record Version(String ballotVersion, String releaseVersion) {}

    record TableStats(String keyspace, String table, int sstableCount, long spaceUsedLiveBytes, long spaceUsedTotalBytes,
            long memtableBytes, long estimatedKeys, long localReadCount, double localReadLatencyMillis, long localWriteCount,
            double localWriteLatencyMillis) {}

    record TableHistograms(String keyspace, String table, int sstableCount, LatencyPercentiles read, LatencyPercentiles write) {}

    record ProxyHistograms(LatencyPercentiles read, LatencyPercentiles write, LatencyPercentiles range, LatencyPercentiles casRead,
            LatencyPercentiles casWrite) {}

    /** Bad input from the caller: answered 400 with the message. */
    private static final class BadRequest extends Exception {
        BadRequest(String message) {
            super(message);
        }
    }

    private final LocalNode identity;
    private final Supplier<Schema> schema;
    private final StorageEngine storage;
    private final Snapshots snapshots;
    private final MeterRegistry registry;
    private final NodeState node;
    private final AdminChanges changes;

    AdminEndpoint(LocalNode identity, Supplier<Schema> schema, StorageEngine storage, Snapshots snapshots, MeterRegistry registry,
            NodeState node, AdminChanges changes) {
        this.identity = identity;
        this.schema = schema;
        this.storage = storage;
        this.snapshots = snapshots;
        this.registry = registry;
        this.node = node;
        this.changes = changes;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Call call = Call.named(exchange.getRequestURI().getPath().substring(PATH.length()));
            if (call == null) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            if (!exchange.getRequestMethod().equals(call.method())) {
                exchange.getResponseHeaders().set("Allow", call.method());
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            if (call.changes && changes.refused(exchange, call.path())) return;
            try {
                AdminChanges.answerJson(exchange, JSON.writeValueAsBytes(answer(call, exchange.getRequestURI().getRawQuery())));
            } catch (BadRequest e) {
                AdminChanges.answer(exchange, 400, e.getMessage());
            } catch (RuntimeException e) {
                log.error("admin call failed call={}", call.path(), e);
                AdminChanges.answer(exchange, 500, call.path() + " failed: " + e.getMessage());
            }
        }
    }

    private Object answer(Call call, String query) throws BadRequest {
        return switch (call) {
            case INFO -> info();
            case VERSION -> new Version(BallotVersion.get(), LocalNode.RELEASE_VERSION);
            case TABLESTATS -> tables(query).stream().map(this::stats).toList();
            case TABLEHISTOGRAMS -> {
                List<TableMetadata> tables = tables(query);
                if (tables.size() != 1) throw new BadRequest("tablehistograms needs one table, as table=<keyspace>.<table>");
                yield histograms(tables.get(0));
            }
            case PROXYHISTOGRAMS -> new ProxyHistograms(latency("ballot.coordinator.read.latency"), latency("ballot.coordinator.write.latency"),
                    latency("ballot.coordinator.range.latency"), latency("ballot.paxos.cas.read.latency"), latency("ballot.paxos.cas.write.latency"));
            case FLUSH -> {
                List<TableMetadata> tables = tables(query);
                for (TableMetadata t : tables) storage.flush(t.id());
                log.info("flushed tables={}", names(tables));
                yield names(tables);
            }
            case COMPACT -> {
                List<TableMetadata> tables = tables(query);
                for (TableMetadata t : tables) storage.compact(t.id());
                log.info("compacted tables={}", names(tables));
                yield names(tables);
            }
            case DRAIN -> {
                node.drain();
                yield Map.of("drained", true);
            }
            case LISTSNAPSHOTS -> snapshots.list();
            case SNAPSHOT -> {
                String tag = parameter(query, "tag");
                if (tag == null) throw new BadRequest("snapshot needs a name, as tag=<name>");
                Snapshots.Snapshot taken;
                try {
                    taken = snapshots.take(tag);
                } catch (IllegalArgumentException e) {
                    throw new BadRequest(e.getMessage());
                }
                log.info("snapshot taken tag={} bytes={}", taken.tag(), taken.sizeBytes());
                yield taken;
            }
            case CLEARSNAPSHOT -> {
                String tag = parameter(query, "tag");
                if (tag == null && !"true".equals(parameter(query, "all")))
                    throw new BadRequest("clearsnapshot needs a snapshot name (tag=<name>) or all=true");
                List<String> cleared;
                try {
                    cleared = snapshots.clear(tag);
                } catch (IllegalArgumentException e) {
                    throw new BadRequest(e.getMessage());
                }
                log.info("snapshots cleared tags={}", cleared);
                yield cleared;
            }
        };
    }

    private Info info() {
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return new Info(identity.hostId(), BallotVersion.get(), LocalNode.RELEASE_VERSION, node.gossipActive(), node.nativeTransportActive(),
                storage.sstBytes(), identity.generation(), TimeUnit.MILLISECONDS.toSeconds(ManagementFactory.getRuntimeMXBean().getUptime()),
                heap.getUsed(), heap.getMax(), identity.dataCenter(), identity.rack(), identity.tokens().size(), storage.backgroundErrorCount());
    }

    private TableStats stats(TableMetadata table) {
        StorageEngine.TableStats s = storage.tableStats(table.id());
        return new TableStats(table.keyspace(), table.name(), s.sstFiles(), s.liveSstBytes(), s.sstBytes(), s.memtableBytes(), s.estimatedKeys(),
                s.reads().count(), s.reads().mean(TimeUnit.MILLISECONDS), s.writes().count(), s.writes().mean(TimeUnit.MILLISECONDS));
    }

    private TableHistograms histograms(TableMetadata table) {
        StorageEngine.TableStats s = storage.tableStats(table.id());
        return new TableHistograms(table.keyspace(), table.name(), s.sstFiles(), LatencyPercentiles.of(List.of(s.reads())),
                LatencyPercentiles.of(List.of(s.writes())));
    }

    /** Every timer of that name (one per consistency level), summed. */
    private LatencyPercentiles latency(String timer) {
        return LatencyPercentiles.of(List.<Timer>copyOf(registry.find(timer).timers()));
    }

    /**
     * The tables named by the query's {@code table} parameters ({@code ks} for all of a keyspace's, {@code ks.t} for
     * one), in the order named; all tables with storage when none is.
     */
    private List<TableMetadata> tables(String query) throws BadRequest {
        Schema current = schema.get();
        List<String> named = new ArrayList<>();
        if (query != null) {
            for (String pair : query.split("&")) {
                if (pair.startsWith("table=")) named.add(URLDecoder.decode(pair.substring("table=".length()), StandardCharsets.UTF_8));
            }
        }
        Map<UUID, TableMetadata> tables = new LinkedHashMap<>();
        if (named.isEmpty()) {
            for (KeyspaceMetadata ks : current.keyspaces().values()) for (TableMetadata t : ks.tables().values()) tables.put(t.id(), t);
        }
        for (String name : named) {
            int dot = name.indexOf('.');
            String keyspace = dot < 0 ? name : name.substring(0, dot);
            KeyspaceMetadata ks = current.keyspace(keyspace);
            if (ks == null) throw new BadRequest("unknown keyspace '" + keyspace + "'");
            if (dot < 0) {
                for (TableMetadata t : ks.tables().values()) tables.put(t.id(), t);
                continue;
            }
            TableMetadata t = ks.table(name.substring(dot + 1));
            if (t == null) throw new BadRequest("unknown table '" + name + "'");
            if (!storage.hasTable(t.id())) throw new BadRequest("table '" + name + "' is virtual: it has no storage");
            tables.put(t.id(), t);
        }
        tables.values().removeIf(t -> !storage.hasTable(t.id()));
        return List.copyOf(tables.values());
    }

    /** The first value of a query parameter, or null. */
    private static String parameter(String query, String name) {
        if (query == null) return null;
        for (String pair : query.split("&")) {
            if (pair.startsWith(name + "=")) return URLDecoder.decode(pair.substring(name.length() + 1), StandardCharsets.UTF_8);
        }
        return null;
    }

    private static List<String> names(List<TableMetadata> tables) {
        return tables.stream().map(t -> t.keyspace() + "." + t.name()).toList();
    }
}
