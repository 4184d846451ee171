package ballot.lwt;

import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.ReadSpec;
import ballot.cql.schema.TableMetadata;
import ballot.paxos.Ballot;
import ballot.paxos.Bytes;
import ballot.paxos.Decree;
import ballot.paxos.PaxosKey;
import ballot.paxos.acceptor.AcceptorState;
import ballot.paxos.spi.LocalRead;
import ballot.paxos.spi.PaxosStore;
import ballot.storage.Mutation;
import ballot.storage.StorageEngine;
import ballot.storage.WriteId;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntSupplier;

/**
 * The acceptor's durable state on RocksDB (docs/paxos.md §9): registers in the paxos column family keyed by table and
 * partition key; decree entries written to the table in the same synced batch, through the {@link GroupCommit}; reads
 * and the plain-write version from one snapshot. Thread-safe; the acceptor shell runs one partition's steps one at
 * a time (§4.12), which is what makes load, transition and persist one atomic step.
 *
 * <p>A decree entry is stored under the write id {@code timestamp(8) · 0xFFFFFFFF · ballot node(4)}: a plain write's
 * id carries its coordinator's generation (seconds since the epoch) where this carries -1, and decided decrees occupy
 * disjoint timestamps (§5.6), so applying a decree again (§4.6 allows it) rewrites the same keys with the same
 * fragments, and never a merged fragment a sweep made of them (those carry ids of their own, {@link WriteId}).
 */
final class RocksPaxosStore implements PaxosStore {
    private final StorageEngine storage;
    private final Function<UUID, TableMetadata> tables;
    private final IntSupplier nowInSec;
    private static final String FLOOR = "paxos/floor_micros";
    private final GroupCommit groupCommit;
    /** The ballot floor (docs/paxos.md §4.13): durable in the node's metadata before any register is purged below it. */
    private volatile long floorMicros;

    RocksPaxosStore(StorageEngine storage, Function<UUID, TableMetadata> tables, IntSupplier nowInSec, GroupCommit groupCommit) {
        this.storage = storage;
        this.tables = tables;
        this.nowInSec = nowInSec;
        this.groupCommit = groupCommit;
        byte[] floor = storage.getMeta(FLOOR);
        this.floorMicros = floor == null ? 0 : java.nio.ByteBuffer.wrap(floor).getLong();
    }

    @Override
    public AcceptorState load(PaxosKey key) {
        byte[] state = storage.paxosState(CqlValues.tableId(key), CqlValues.partitionKey(key));
        return state == null ? AcceptorState.floor(floorMicros) : PaxosCodec.decodeState(state);
    }

    long floorMicros() {
        return floorMicros;
    }

    /** Raises the ballot floor to {@code micros} (never lowers it), durably, before returning. */
    void raiseFloor(long micros) {
        if (micros <= floorMicros) return;
        storage.putMeta(FLOOR, java.nio.ByteBuffer.allocate(8).putLong(0, micros).array());
        floorMicros = micros;
    }

    /** Encodes the step on the caller's thread (the lane), then hands it to the group commit's writer. */
    @Override
    public void persist(PaxosKey key, AcceptorState state, List<Decree> apply, boolean sync, Consumer<RuntimeException> done) {
        StorageEngine.PaxosWrite write;
        try {
            write = write(key, state, apply);
        } catch (RuntimeException e) {
            done.accept(e); // nothing written
            return;
        }
        groupCommit.persist(write, sync, done);
    }

    /**
     * What {@link #persist} writes for one step: the encoded registers, the decrees' entries as mutations, and the
     * newest transaction state they write if it is newer than the stored one (docs/txn.md §11.1). Reading the stored
     * state here is safe: the shell never has two persists of one partition in flight (§4.12).
     */
    private StorageEngine.PaxosWrite write(PaxosKey key, AcceptorState state, List<Decree> apply) {
        UUID table = CqlValues.tableId(key);
        PartitionKey partition = CqlValues.partitionKey(key);
        List<Mutation> entries = new ArrayList<>();
        TxnCell txn = null;
        for (Decree decree : apply) {
            if (decree.isPruned()) throw new IllegalStateException("asked to apply pruned decree " + decree + " on " + key);
            for (int i = 0; i < decree.entries().size(); i++) {
                long timestamp = decree.timestampMicros(i);
                CqlValues.Entry entry = CqlValues.decodeEntryWithTxn(decree.entries().get(i), table, partition, timestamp);
                entries.add(new Mutation(entry.update(), writeId(timestamp, decree.ballot())));
                txn = TxnCell.newer(txn, entry.txn());
            }
        }
        if (txn != null) {
            TxnCell stored = TxnCell.ofStored(storage.txnState(table, partition));
            if (stored != null && TxnCell.newer(stored, txn) == stored) txn = null;
        }
        // The floor state is what a partition without registers reads as: persisting it deletes them (§4.13).
        return new StorageEngine.PaxosWrite(table, partition, state.isFloor() ? null : PaxosCodec.encodeState(state), entries,
                txn == null ? null : txn.stored());
    }

    @Override
    public LocalRead read(PaxosKey key, List<Bytes> queries) {
        TableMetadata table = tables.apply(CqlValues.tableId(key));
        int now = nowInSec.getAsInt();
        List<ReadSpec> specs = new ArrayList<>(queries.size());
        List<Boolean> readsTxn = new ArrayList<>(queries.size());
        boolean anyTxn = false;
        for (Bytes q : queries) {
            CqlValues.Query query = CqlValues.Query.decode(q);
            if (!query.tableId().equals(table.id())) throw new IllegalArgumentException("query of table " + query.tableId() + " on " + key);
            specs.add(query.spec(now));
            readsTxn.add(query.txnState());
            anyTxn |= query.txnState();
        }
        StorageEngine.VersionedRead read = storage.readVersioned(table, CqlValues.partitionKey(key), specs, anyTxn);
        TxnCell txn = TxnCell.ofStored(read.txnState());
        List<Bytes> results = new ArrayList<>(read.partitions().size());
        for (int i = 0; i < read.partitions().size(); i++) results.add(CqlValues.encodeResult(read.partitions().get(i), readsTxn.get(i), txn));
        return new LocalRead(results, read.plainVersion());
    }

    @Override
    public long plainVersion(PaxosKey key) {
        return storage.plainVersion(CqlValues.tableId(key), CqlValues.partitionKey(key));
    }

    static byte[] writeId(long timestampMicros, Ballot ballot) {
        byte[] id = new byte[WriteId.BYTES];
        for (int i = 0; i < 8; i++) id[i] = (byte) (timestampMicros >>> (56 - 8 * i));
        for (int i = 8; i < 12; i++) id[i] = (byte) 0xFF;
        for (int i = 0; i < 4; i++) id[12 + i] = (byte) (ballot.node() >>> (24 - 8 * i));
        return id;
    }
}
