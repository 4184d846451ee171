package ballot.lwt;

import ballot.cql.data.ClusteringBound;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.RangeTombstone;
import ballot.cql.data.Row;
import ballot.cql.data.Slice;
import ballot.cql.schema.TableMetadata;
import ballot.paxos.Bytes;
import ballot.paxos.spi.ReadModel;
import ballot.storage.RowMerger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;

/**
 * The Paxos core's view of CQL data (docs/paxos.md §9): {@link #merge} reconciles replicas' reads of a query with
 * Cassandra's rules (last write wins per cell, deletions shadow what they cover, the same rules as fragments on one
 * node), and {@link #apply} advances a query's result by a decree entry written at a timestamp.
 *
 * <p>Merge is a join (commutative, associative, idempotent up to encoding: §5.3): per cell the winner does not depend
 * on the order, deletions take the maximum, and range tombstones are a set kept in a canonical order.
 */
final class CqlReadModel implements ReadModel {
    private final Function<UUID, TableMetadata> tables;

    /** {@code tables} finds a table by id (the current schema); it throws for a table that does not exist. */
    CqlReadModel(Function<UUID, TableMetadata> tables) {
        this.tables = tables;
    }

    @Override
    public Bytes merge(Bytes query, List<Bytes> results) {
        if (results.size() == 1) return results.get(0);
        CqlValues.Query q = CqlValues.Query.decode(query);
        List<PartitionData> partitions = new ArrayList<>(results.size());
        TxnCell txn = null;
        for (Bytes r : results) {
            CqlValues.Result result = CqlValues.decodeResultWithTxn(r);
            partitions.add(result.data());
            txn = TxnCell.newer(txn, result.txn());
        }
        return CqlValues.encodeResult(merge(tables.apply(q.tableId()), partitions, q.reversed()), q.txnState(), txn);
    }

    @Override
    public Bytes apply(Bytes query, Bytes result, Bytes update, long timestampMicros) {
        CqlValues.Query q = CqlValues.Query.decode(query);
        TableMetadata table = tables.apply(q.tableId());
        CqlValues.Result current = CqlValues.decodeResultWithTxn(result);
        CqlValues.Entry entry = CqlValues.decodeEntryWithTxn(update, table.id(), current.data().key(), timestampMicros);
        PartitionData data = merge(table, List.of(current.data(), within(table, q, entry.update())), q.reversed());
        return CqlValues.encodeResult(data, q.txnState(), TxnCell.newer(current.txn(), entry.txn()));
    }

    /**
     * A query of the static row alone (no slices) is contained in any query of the same table that reads the
     * transaction state if it does: every read carries the partition's deletion, all its range tombstones and its
     * static row (TableStore), so the wider result without its rows is exactly such a read. A query is also contained
     * in one of the same rows that reads the transaction state besides. This lets a transaction's finish, which reads
     * only the state, go on the promise its placement left (docs/paxos.md §4.8).
     */
    @Override
    public Bytes narrow(Bytes query, Bytes wider, Bytes result) {
        CqlValues.Query q = CqlValues.Query.decode(query);
        CqlValues.Query w = CqlValues.Query.decode(wider);
        if (!q.tableId().equals(w.tableId()) || (q.txnState() && !w.txnState())) return null;
        boolean noRows = q.slices().isEmpty();
        if (!noRows && !(q.slices().equals(w.slices()) && q.reversed() == w.reversed())) return null;
        CqlValues.Result r = CqlValues.decodeResultWithTxn(result);
        PartitionData d = r.data();
        PartitionData data = noRows ? new PartitionData(d.key(), d.partitionDeletion(), d.rangeTombstones(), d.staticRow(), List.of()) : d;
        return CqlValues.encodeResult(data, q.txnState(), q.txnState() ? r.txn() : null);
    }

    /** What a read of {@code query} would return of the update alone: its rows in the query's slices, all deletions. */
    static PartitionData within(TableMetadata table, CqlValues.Query query, PartitionUpdate update) {
        List<Row> rows = new ArrayList<>();
        for (Row r : update.rows()) {
            for (Slice s : query.slices()) {
                if (s.contains(r.clustering().values(), table::compareClusteringPrefix)) {
                    rows.add(r);
                    break;
                }
            }
        }
        return new PartitionData(update.key(), update.partitionDeletion(), update.rangeTombstones(), update.staticRow(), rows);
    }

    /** Reconciles several reads of one partition (rows in clustering order, reversed if asked). */
    static PartitionData merge(TableMetadata table, List<PartitionData> reads, boolean reversed) {
        PartitionKey key = reads.get(0).key();
        DeletionTime partitionDeletion = DeletionTime.LIVE;
        Map<Bytes, RangeTombstone> rangeTombstones = new TreeMap<>();
        List<Row> statics = new ArrayList<>();
        Comparator<ByteBuffer[]> order = table.clusteringOrder();
        TreeMap<ByteBuffer[], List<Row>> rows = new TreeMap<>(reversed ? order.reversed() : order);
        for (PartitionData p : reads) {
            if (!p.key().equals(key)) throw new IllegalArgumentException("merging reads of different partitions");
            partitionDeletion = partitionDeletion.max(p.partitionDeletion());
            for (RangeTombstone rt : p.rangeTombstones()) rangeTombstones.put(canonical(rt), rt);
            if (p.staticRow() != null) statics.add(p.staticRow());
            for (Row r : p.rows()) rows.computeIfAbsent(r.clustering().values(), c -> new ArrayList<>()).add(r);
        }
        Row staticRow = null;
        if (!statics.isEmpty()) {
            Row merged = RowMerger.merge(statics, partitionDeletion);
            if (!merged.isEmpty()) staticRow = merged;
        }
        List<Row> merged = new ArrayList<>(rows.size());
        for (Map.Entry<ByteBuffer[], List<Row>> e : rows.entrySet()) {
            DeletionTime covering = partitionDeletion;
            for (RangeTombstone rt : rangeTombstones.values()) {
                if (rt.slice().contains(e.getKey(), table::compareClusteringPrefix)) covering = covering.max(rt.deletion());
            }
            Row row = RowMerger.merge(e.getValue(), covering);
            if (!row.isEmpty()) merged.add(row);
        }
        return new PartitionData(key, partitionDeletion, List.copyOf(rangeTombstones.values()), staticRow, merged);
    }

    /** A range tombstone's identity: equal tombstones from different replicas collapse into one. */
    private static Bytes canonical(RangeTombstone rt) {
        ByteBuffer out = ByteBuffer.allocate(size(rt.slice().start()) + size(rt.slice().end()) + 12);
        put(out, rt.slice().start());
        put(out, rt.slice().end());
        out.putLong(rt.deletion().markedAt()).putInt(rt.deletion().localDeletionTime());
        return Bytes.wrap(out.array());
    }

    private static int size(ClusteringBound b) {
        int n = 5;
        for (ByteBuffer v : b.prefix()) n += 4 + v.remaining();
        return n;
    }

    private static void put(ByteBuffer out, ClusteringBound b) {
        out.put((byte) (b.inclusive() ? 1 : 0)).putInt(b.prefix().length);
        for (ByteBuffer v : b.prefix()) out.putInt(v.remaining()).put(v.duplicate());
    }
}
