package ballot.replication;

import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.TokenRange;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import ballot.cql.trace.Trace;
import ballot.cql.trace.Tracing;
import ballot.storage.Mutation;
import ballot.storage.StorageEngine;
import ballot.storage.WriteId;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.UUID;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * This node as a replica: applies mutations and answers reads on its own storage, for local requests and for the
 * replication verbs alike. Counter increments are turned into this node's shards under a partition lock.
 */
final class LocalReplica {
    private final StorageEngine storage;
    private final Supplier<Schema> schema;
    private final WriteId writeIds;
    private final LongSupplier nowMicros;
    private final UUID hostId;
    private final Object[] partitionLocks = new Object[1024];

    LocalReplica(StorageEngine storage, Supplier<Schema> schema, WriteId writeIds, LongSupplier nowMicros, UUID hostId) {
        this.storage = storage;
        this.schema = schema;
        this.writeIds = writeIds;
        this.nowMicros = nowMicros;
        this.hostId = hostId;
        for (int i = 0; i < partitionLocks.length; i++) partitionLocks[i] = new Object();
    }

    UUID hostId() {
        return hostId;
    }

    Mutation mutation(PartitionUpdate update) {
        return new Mutation(update, writeIds.next(nowMicros.getAsLong()));
    }

    void apply(List<Mutation> mutations) {
        for (Mutation m : mutations) table(m.update().tableId());
        Trace trace = Tracing.current();
        if (trace != null) StorageTraces.applying(trace, mutations, schema.get());
        storage.apply(mutations);
        if (trace != null) trace.event("Mutation applied");
    }

    void applyDurably(List<Mutation> mutations) {
        storage.applyDurably(mutations);
    }

    PartitionData read(UUID table, PartitionKey key, ReadSpec spec) {
        TableMetadata metadata = table(table);
        Trace trace = Tracing.current();
        if (trace != null) trace.event("Executing single-partition query on " + metadata.name());
        PartitionData data = storage.read(metadata, key, spec);
        if (trace != null) StorageTraces.read(trace, List.of(data), spec.nowInSec());
        return data;
    }

    /** {@code deadMax}: how many partitions without live data the answer may carry ({@link StorageEngine#scan}). */
    List<PartitionData> scan(UUID table, TokenRange range, ReadSpec spec, int partitionLimit, int deadMax) {
        TableMetadata metadata = table(table);
        Trace trace = Tracing.current();
        if (trace != null) trace.event("Executing seq scan across " + metadata.name() + " for range " + range);
        List<PartitionData> data = storage.scan(metadata, range, spec, partitionLimit, deadMax);
        if (trace != null) StorageTraces.read(trace, data, spec.nowInSec());
        return data;
    }

    List<PartitionData> indexScan(ReplicationVerbs.IndexScanCommand c) {
        return storage.indexScan(table(c.table()), c.expression(), c.used(), c.range(), c.spec(), c.partitionLimit());
    }

    void truncate(UUID table) {
        storage.truncate(table(table).id());
    }

    /** Applies increments as this node's new counter shards and returns the mutation to send to the other replicas. */
    Mutation applyIncrements(PartitionUpdate update) {
        TableMetadata table = table(update.tableId());
        synchronized (lock(update.key())) {
            ReadSpec spec = new ReadSpec(CounterUpdates.slices(update), false, Integer.MAX_VALUE, Integer.MAX_VALUE, 0);
            PartitionData current = storage.read(table, update.key(), spec);
            Mutation shards = mutation(CounterUpdates.apply(table, update, current, hostId));
            storage.apply(List.of(shards));
            return shards;
        }
    }

    Object lock(PartitionKey key) {
        return partitionLocks[Math.floorMod(key.hashCode(), partitionLocks.length)];
    }

    private TableMetadata table(UUID id) {
        TableMetadata table = schema.get().table(id);
        if (table == null) throw new IllegalStateException("unknown table id " + id + " (dropped, or schema not yet agreed)");
        return table;
    }

    /** The MD5 of a partition's canonical internode form: equal data, equal digest on every replica. */
    static byte[] digest(PartitionData data) {
        ByteBuf buf = Unpooled.buffer();
        try {
            WireFormat.writePartition(buf, data);
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            md5.update(buf.nioBuffer());
            return md5.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is required of every JVM", e);
        } finally {
            buf.release();
        }
    }
}
