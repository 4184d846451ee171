package ballot.metrics;

import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import ballot.storage.StorageEngine.TableStats;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Each table's size on this node, labelled {@code keyspace} and {@code table}: one series per table and meter, so the
 * number of series follows the schema, never the data (docs/metrics.md, Tables). Kept in step with the schema: a new
 * table gets its meters when its schema is installed, a dropped one loses them.
 */
public final class TableMeters {
    private final MeterRegistry registry;
    /** A table's storage on this node, or null when it has none here (a virtual table). */
    private final Function<UUID, TableStats> stats;
    /** The meters of each table that has them; only {@link #schemaInstalled} changes it, one schema at a time. */
    private final Map<UUID, List<Meter>> meters = new HashMap<>();

    public TableMeters(MeterRegistry registry, Function<UUID, TableStats> stats) {
        this.registry = registry;
        this.stats = stats;
    }

    /** Adds the meters of the schema's new tables and removes those of tables it no longer has. */
    public synchronized void schemaInstalled(Schema schema) {
        Set<UUID> live = new HashSet<>();
        for (KeyspaceMetadata keyspace : schema.keyspaces().values()) {
            for (TableMetadata table : keyspace.tables().values()) {
                live.add(table.id());
                meters.computeIfAbsent(table.id(), id -> register(table));
            }
        }
        meters.entrySet().removeIf(e -> {
            if (live.contains(e.getKey())) return false;
            e.getValue().forEach(registry::remove);
            return true;
        });
    }

    private List<Meter> register(TableMetadata table) {
        Tags tags = Tags.of("keyspace", table.keyspace(), "table", table.name());
        UUID id = table.id();
        return List.of(gauge("ballot.table.sst", tags, id, TableStats::sstBytes, "bytes", "Bytes of the table's SST files on this node"),
                gauge("ballot.table.memtable", tags, id, TableStats::memtableBytes, "bytes", "Bytes of the table's memtables on this node"),
                gauge("ballot.table.estimated.keys", tags, id, TableStats::estimatedKeys, null,
                        "RocksDB's estimate of the table's keys on this node (one per row, cell or tombstone stored)"));
    }

    private Meter gauge(String name, Tags tags, UUID id, ToDoubleFunction<TableStats> value, String unit, String description) {
        return Gauge.builder(name, () -> {
            TableStats table = stats.apply(id);
            return table == null ? 0 : value.applyAsDouble(table);
        }).tags(tags).baseUnit(unit).description(description).register(registry);
    }
}
