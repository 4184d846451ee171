package ballot.replication;

import ballot.cql.ConsistencyLevel;
import ballot.cql.WriteType;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.TokenRange;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.error.UnavailableException;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import ballot.cql.spi.CasRequest;
import ballot.cql.spi.CasResult;
import ballot.cql.spi.DataCoordinator;
import ballot.storage.Mutation;
import ballot.storage.StorageEngine;
import ballot.storage.WriteId;
import ballot.system.SystemKeyspaces;
import ballot.system.VirtualTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The read and write paths of a single-node cluster: this node is the only replica of every token. Consistency levels
 * are checked as Cassandra does: a level that needs more replicas than the keyspace's replication can place on the
 * live nodes fails with UNAVAILABLE before anything is done.
 */
public final class LocalCoordinator implements DataCoordinator {
    private static final int LIVE_NODES = 1;

    private final StorageEngine storage;
    private final SystemKeyspaces system;
    private final Supplier<Schema> schema;
    private final WriteId writeIds;
    private final LongSupplier nowMicros;
    private final Object[] partitionLocks = new Object[1024];
    private final java.util.UUID hostId;

    public LocalCoordinator(StorageEngine storage, SystemKeyspaces system, Supplier<Schema> schema, WriteId writeIds,
            LongSupplier nowMicros, java.util.UUID hostId) {
        this.hostId = hostId;
        this.storage = storage;
        this.system = system;
        this.schema = schema;
        this.writeIds = writeIds;
        this.nowMicros = nowMicros;
        for (int i = 0; i < partitionLocks.length; i++) partitionLocks[i] = new Object();
    }

    @Override
    public CompletableFuture<Void> write(List<PartitionUpdate> updates, ConsistencyLevel consistency, WriteType writeType) {
        List<Mutation> mutations = new ArrayList<>(updates.size());
        List<PartitionUpdate> counters = new ArrayList<>();
        for (PartitionUpdate update : updates) {
            TableMetadata table = schema.get().table(update.tableId());
            if (table == null) throw new InvalidRequestException("table " + update.tableId() + " was dropped");
            checkAvailable(table, consistency);
            if (CounterUpdates.hasIncrements(update)) counters.add(update);
            else mutations.add(new Mutation(update, writeIds.next(nowMicros.getAsLong())));
        }
        if (!mutations.isEmpty()) storage.apply(mutations);
        for (PartitionUpdate update : counters) applyIncrements(update);
        return CompletableFuture.completedFuture(null);
    }

    /** Reads this node's counter shards and writes them incremented, under the partition's lock. */
    private void applyIncrements(PartitionUpdate update) {
        TableMetadata table = schema.get().table(update.tableId());
        synchronized (partitionLocks[Math.floorMod(update.key().hashCode(), partitionLocks.length)]) {
            ReadSpec spec = new ReadSpec(CounterUpdates.slices(update), false, Integer.MAX_VALUE, Integer.MAX_VALUE, 0);
            PartitionData current = storage.read(table, update.key(), spec);
            PartitionUpdate applied = CounterUpdates.apply(update, current, hostId);
            storage.apply(List.of(new Mutation(applied, writeIds.next(nowMicros.getAsLong()))));
        }
    }

    @Override
    public CompletableFuture<PartitionData> read(TableMetadata table, PartitionKey key, ReadSpec spec, ConsistencyLevel consistency) {
        VirtualTable virtual = system.table(table.id());
        if (virtual != null) return CompletableFuture.completedFuture(virtual.read(key, spec));
        checkAvailable(table, consistency);
        return CompletableFuture.completedFuture(storage.read(table, key, spec));
    }

    @Override
    public CompletableFuture<List<PartitionData>> scan(TableMetadata table, TokenRange range, ReadSpec spec, int partitionLimit,
            ConsistencyLevel consistency) {
        VirtualTable virtual = system.table(table.id());
        if (virtual != null) return CompletableFuture.completedFuture(virtual.scan(range, spec, partitionLimit));
        checkAvailable(table, consistency);
        return CompletableFuture.completedFuture(storage.scan(table, range, spec, partitionLimit));
    }

    /**
     * Single replica: compare-and-set runs under the partition's lock, so it is linearizable with every other one on
     * the partition; the update is synced to disk before the client hears it applied.
     */
    @Override
    public CompletableFuture<CasResult> cas(CasRequest request, ConsistencyLevel serial, ConsistencyLevel commit) {
        TableMetadata table = request.table();
        checkAvailable(table, serial);
        Object lock = partitionLocks[Math.floorMod(request.key().hashCode(), partitionLocks.length)];
        synchronized (lock) {
            PartitionData current = storage.read(table, request.key(), request.read());
            long timestamp = nowMicros.getAsLong();
            PartitionUpdate update = request.apply(current, timestamp);
            if (update == null) return CompletableFuture.completedFuture(new CasResult(false, current));
            if (!update.isEmpty()) storage.applyDurably(List.of(new Mutation(update, writeIds.next(timestamp))));
            return CompletableFuture.completedFuture(new CasResult(true, current));
        }
    }

    @Override
    public CompletableFuture<Void> truncate(TableMetadata table) {
        storage.truncate(table.id());
        return CompletableFuture.completedFuture(null);
    }

    private void checkAvailable(TableMetadata table, ConsistencyLevel consistency) {
        KeyspaceMetadata ks = schema.get().keyspace(table.keyspace());
        if (ks == null) return;
        int required = ConsistencyLevels.blockFor(consistency, ks.replication());
        if (required > LIVE_NODES) throw new UnavailableException(consistency, required, LIVE_NODES);
    }

    /** How many replica acknowledgements each consistency level needs under a keyspace's replication. */
    static final class ConsistencyLevels {
        private ConsistencyLevels() {}

        static int blockFor(ConsistencyLevel consistency, Map<String, String> replication) {
            int rf = replicationFactor(replication);
            return switch (consistency) {
                case ANY, ONE, LOCAL_ONE -> 1;
                case TWO -> 2;
                case THREE -> 3;
                case QUORUM, LOCAL_QUORUM, EACH_QUORUM, SERIAL, LOCAL_SERIAL -> rf / 2 + 1;
                case ALL -> rf;
            };
        }

        static int replicationFactor(Map<String, String> replication) {
            String cls = replication.getOrDefault("class", "");
            if (cls.endsWith("LocalStrategy") || cls.isEmpty()) return 1;
            if (cls.endsWith("SimpleStrategy")) return Integer.parseInt(replication.getOrDefault("replication_factor", "1"));
            int total = 0;
            for (Map.Entry<String, String> e : replication.entrySet()) {
                if (!e.getKey().equals("class")) total += Integer.parseInt(e.getValue());
            }
            return total;
        }
    }
}
