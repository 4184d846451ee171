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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
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
    /** Whether a transaction state holds an intent; null until transactions are hosted (then reads answer stamps). */
    private volatile Predicate<byte[]> holdsIntent;

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

    /** A partition read, and the stamp of its transaction state, if any. */
    record Read(PartitionData data, TxnStamp txn) {}

    /**
     * Reads a partition and, once transactions are hosted ({@link #honourLocks}), the stamp of its transaction state,
     * so that the coordinator can tell an intent from the replicas' answers (docs/txn.md §10).
     */
    Read readWithStamp(UUID table, PartitionKey key, ReadSpec spec) {
        TableMetadata metadata = table(table);
        Trace trace = Tracing.current();
        if (trace != null) trace.event("Executing single-partition query on " + metadata.name());
        Predicate<byte[]> locks = holdsIntent;
        Read read;
        if (locks == null) {
            read = new Read(storage.read(metadata, key, spec), null);
        } else {
            StorageEngine.ReadWithTxnState r = storage.readWithTxnState(metadata, key, spec);
            read = new Read(r.data(), TxnStamp.of(r.txnState(), locks));
        }
        if (trace != null) StorageTraces.read(trace, List.of(read.data()), spec.nowInSec());
        return read;
    }

    /**
     * {@code deadMax}: how many partitions without live data the answer may carry ({@link StorageEngine#scan}); with
     * the stamps of the answered partitions' transaction states once transactions are hosted.
     */
    ReplicationVerbs.ScanResponse scan(UUID table, TokenRange range, ReadSpec spec, int partitionLimit, int deadMax) {
        TableMetadata metadata = table(table);
        Trace trace = Tracing.current();
        if (trace != null) trace.event("Executing seq scan across " + metadata.name() + " for range " + range);
        Predicate<byte[]> locks = holdsIntent;
        ReplicationVerbs.ScanResponse response;
        if (locks == null) {
            response = new ReplicationVerbs.ScanResponse(storage.scan(metadata, range, spec, partitionLimit, deadMax), Map.of());
        } else {
            Map<PartitionKey, byte[]> states = new HashMap<>();
            List<PartitionData> data = storage.scanWithTxnStates(metadata, range, spec, partitionLimit, deadMax, states);
            Map<PartitionKey, TxnStamp> stamps = states.isEmpty() ? Map.of() : new HashMap<>(states.size() * 2);
            states.forEach((key, state) -> stamps.put(key, TxnStamp.of(state, locks)));
            response = new ReplicationVerbs.ScanResponse(data, stamps);
        }
        if (trace != null) StorageTraces.read(trace, response.partitions(), spec.nowInSec());
        return response;
    }

    /**
     * From now on, reads and scans answer the stamps of transaction states; {@code holdsIntent} reads a stored state.
     * The storage must track them already ({@link StorageEngine#trackTxnStates}): scans report the partitions it
     * knows held.
     */
    void honourLocks(Predicate<byte[]> holdsIntent) {
        this.holdsIntent = holdsIntent;
    }

    /**
     * The partitions of {@code range} a transaction's intent holds (none before {@link #honourLocks}): an index query's
     * answer may lack their writes (docs/txn.md §11.1).
     */
    List<PartitionKey> heldByIntents(UUID table, TokenRange range) {
        return storage.heldByIntents(table(table), range);
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
