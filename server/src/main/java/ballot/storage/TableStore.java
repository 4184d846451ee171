package ballot.storage;

import ballot.cql.data.Clustering;
import ballot.cql.data.ClusteringBound;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.RangeTombstone;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Row;
import ballot.cql.data.Slice;
import ballot.cql.schema.TableMetadata;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * One table's column family with the codecs its definition implies, and its indexes, whose entries every write puts
 * in the same batch as its data (docs/indexes.md). Immutable; replaced when the table or its indexes change.
 */
record TableStore(TableMetadata metadata, SharedFamily shared, ClusteringCodec clustering, SweepQueue sweeps,
        List<IndexStore> indexes) {
    /** A read that meets a row with this many fragments asks for its partition to be swept. */
    static final int FRAGMENTS_BEFORE_SWEEP = 4;

    TableStore(TableMetadata metadata, SharedFamily shared, SweepQueue sweeps, List<IndexStore> indexes) {
        this(metadata, shared, new ClusteringCodec(metadata), sweeps, List.copyOf(indexes));
    }

    /** The table's handle: only while it is held ({@link #hold}) or under the engine's install lock. */
    ColumnFamilyHandle family() {
        return shared.handle();
    }

    /** Holds the table's family open (SharedFamily), or fails if the table was dropped. */
    SharedFamily.Held hold() {
        return shared.hold("table " + metadata);
    }

    /** A range tombstone as stored: bounds as encoded clustering prefixes (empty = unbounded). */
    private record StoredRangeTombstone(byte[] start, boolean startInclusive, byte[] end, boolean endInclusive,
            DeletionTime deletion) {
        boolean covers(byte[] clustering) {
            if (start.length > 0) {
                byte[] from = startInclusive ? start : StorageKeys.prefixEnd(start);
                if (from == null || Arrays.compareUnsigned(clustering, from) < 0) return false;
            }
            if (end.length > 0) {
                byte[] to = endInclusive ? StorageKeys.prefixEnd(end) : end;
                return to == null || Arrays.compareUnsigned(clustering, to) < 0;
            }
            return true;
        }
    }

    /** A row's stored fragment: with its clustering where the key would not give that back as written. */
    byte[] fragment(Row row) {
        return FragmentCodec.encode(row, !row.isStatic() && !clustering.decodesAsWritten(row.clustering().values()));
    }

    void addTo(WriteBatch batch, PartitionUpdate update, byte[] writeId) throws RocksDBException {
        byte[] prefix = StorageKeys.partitionPrefix(update.key());
        if (!update.partitionDeletion().isLive()) {
            DeletionTime d = update.partitionDeletion();
            batch.put(family(), StorageKeys.concat(prefix, StorageKeys.PARTITION_DELETION, writeId, new byte[0]),
                    new ByteWriter(12).writeLong(d.markedAt()).writeInt(d.localDeletionTime()).toByteArray());
        }
        List<RangeTombstone> rangeTombstones = update.rangeTombstones();
        for (int i = 0; i < rangeTombstones.size(); i++) {
            RangeTombstone rt = rangeTombstones.get(i);
            ByteWriter value = new ByteWriter(64)
                    .writeByte(rt.slice().start().inclusive() ? 1 : 0).writeSized(clustering.encode(rt.slice().start().prefix()))
                    .writeByte(rt.slice().end().inclusive() ? 1 : 0).writeSized(clustering.encode(rt.slice().end().prefix()))
                    .writeLong(rt.deletion().markedAt()).writeInt(rt.deletion().localDeletionTime());
            byte[] sequence = {(byte) (i >>> 8), (byte) i};
            batch.put(family(), StorageKeys.concat(prefix, StorageKeys.RANGE_TOMBSTONE, writeId, sequence), value.toByteArray());
        }
        ByteBuffer[] keyComponents = indexes.isEmpty() ? null : PartitionKey.split(update.key().key(), metadata.partitionKey().size());
        if (update.staticRow() != null && !update.staticRow().isEmpty()) {
            batch.put(family(), StorageKeys.concat(prefix, StorageKeys.STATIC_ROW, writeId, new byte[0]),
                    FragmentCodec.encode(update.staticRow()));
            sweeps.written(metadata.id(), prefix, SweepQueue.Scope.STATIC, null);
            for (IndexStore index : indexes) index.addTo(batch, keyComponents, prefix, update.staticRow(), new byte[0], writeId);
        }
        // Two rows of one update with the same clustering would share a key: merge them first.
        Map<ByteKey, List<Row>> rows = new LinkedHashMap<>();
        for (Row row : update.rows()) {
            rows.computeIfAbsent(new ByteKey(clustering.encode(row.clustering().values())), k -> new ArrayList<>()).add(row);
        }
        for (Map.Entry<ByteKey, List<Row>> e : rows.entrySet()) {
            List<Row> fragments = e.getValue();
            Row row = fragments.size() == 1 ? fragments.get(0) : RowMerger.merge(fragments, DeletionTime.LIVE);
            batch.put(family(), StorageKeys.concat(prefix, StorageKeys.ROW, e.getKey().bytes(), writeId), fragment(row));
            sweeps.written(metadata.id(), prefix, SweepQueue.Scope.ROW, e.getKey().bytes());
            for (IndexStore index : indexes) index.addTo(batch, keyComponents, prefix, row, e.getKey().bytes(), writeId);
        }
    }

    /**
     * Reads one partition with {@code it} (any position), returning at most {@code rowLimit} live rows.
     * Leaves the iterator somewhere inside or after the partition.
     */
    PartitionData readPartition(RocksIterator it, byte[] prefix, PartitionKey key, ReadSpec spec, int rowLimit) {
        it.seek(StorageKeys.section(prefix, StorageKeys.PARTITION_DELETION));
        return readPartitionAtItsStart(it, prefix, key, spec, rowLimit);
    }

    /** {@link #readPartition} with {@code it} already at the partition's first key (a scan moving forward). */
    PartitionData readPartitionAtItsStart(RocksIterator it, byte[] prefix, PartitionKey key, ReadSpec spec, int rowLimit) {
        DeletionTime partitionDeletion = DeletionTime.LIVE;
        List<StoredRangeTombstone> rangeTombstones = new ArrayList<>();
        List<Row> staticFragments = new ArrayList<>();
        for (; it.isValid(); it.next()) {
            byte[] k = it.key();
            if (!inPartition(k, prefix)) break;
            byte section = k[prefix.length];
            if (section >= StorageKeys.ROW) break;
            ByteReader value = new ByteReader(it.value());
            switch (section) {
                case StorageKeys.PARTITION_DELETION ->
                        partitionDeletion = partitionDeletion.max(new DeletionTime(value.readLong(), value.readInt()));
                case StorageKeys.RANGE_TOMBSTONE -> rangeTombstones.add(readRangeTombstone(value));
                case StorageKeys.STATIC_ROW -> staticFragments.add(FragmentCodec.decode(Clustering.STATIC, it.value()));
                default -> throw new IllegalStateException("corrupt key: unknown section " + section + " in table " + metadata);
            }
        }
        Row staticRow = staticFragments.isEmpty() ? null : RowMerger.merge(staticFragments, partitionDeletion);
        if (staticFragments.size() >= FRAGMENTS_BEFORE_SWEEP) sweeps.request(metadata.id(), prefix, SweepQueue.Scope.STATIC, null);

        List<Row> rows = new ArrayList<>();
        int live = 0;
        List<Slice> slices = spec.slices();
        for (int s = 0; s < slices.size() && live < rowLimit; s++) {
            Slice slice = slices.get(spec.reversed() ? slices.size() - 1 - s : s);
            byte[] lower = lowerKey(prefix, slice.start());
            byte[] upper = upperKey(prefix, slice.end());
            if (spec.reversed()) {
                it.seekForPrev(upper);
                while (it.isValid() && Arrays.compareUnsigned(it.key(), upper) >= 0) it.prev();
            } else if (s > 0 || !slice.start().isUnbounded()) {
                it.seek(lower);
            } // else the header loop above stopped at the first key at or after the rows' section: where the seek would go

            List<Row> fragments = new ArrayList<>();
            List<byte[]> fragmentKeys = new ArrayList<>();
            byte[] current = null;
            Clustering decoded = null;
            while (it.isValid() && live < rowLimit) {
                byte[] k = it.key();
                if (spec.reversed() ? Arrays.compareUnsigned(k, lower) < 0 : Arrays.compareUnsigned(k, upper) >= 0) break;
                byte[] clusteringBytes = Arrays.copyOfRange(k, prefix.length + 1, k.length - WriteId.BYTES);
                if (current != null && !Arrays.equals(current, clusteringBytes)) {
                    live += emit(prefix, fragments, fragmentKeys, current, partitionDeletion, rangeTombstones, rows, spec.nowInSec());
                    fragments.clear();
                    fragmentKeys.clear();
                    if (live >= rowLimit) break;
                }
                if (fragments.isEmpty()) decoded = Clustering.of(clustering.decode(clusteringBytes, 0, clusteringBytes.length));
                current = clusteringBytes;
                fragments.add(FragmentCodec.decode(decoded, it.value()));
                fragmentKeys.add(k);
                if (spec.reversed()) it.prev();
                else it.next();
            }
            if (!fragments.isEmpty() && live < rowLimit) {
                live += emit(prefix, fragments, fragmentKeys, current, partitionDeletion, rangeTombstones, rows, spec.nowInSec());
            }
        }
        List<RangeTombstone> tombstones = new ArrayList<>(rangeTombstones.size());
        for (StoredRangeTombstone rt : rangeTombstones) tombstones.add(decode(rt));
        return new PartitionData(key, partitionDeletion, tombstones, staticRow, rows);
    }

    /**
     * Merges one row's fragments under the deletions covering it and adds it if anything is left; returns 1 if live.
     * A row of many fragments is handed to the sweeper to be written back merged, so the next read finds one.
     */
    private int emit(byte[] prefix, List<Row> fragments, List<byte[]> keys, byte[] clusteringBytes, DeletionTime partitionDeletion,
            List<StoredRangeTombstone> rangeTombstones, List<Row> out, int nowInSec) {
        DeletionTime covering = partitionDeletion;
        for (StoredRangeTombstone rt : rangeTombstones) {
            if (rt.covers(clusteringBytes)) covering = covering.max(rt.deletion());
        }
        Row row = RowMerger.merge(fragments, covering);
        if (fragments.size() >= FRAGMENTS_BEFORE_SWEEP) sweeps.writeBack(metadata.id(), prefix, List.copyOf(keys), row);
        if (row.isEmpty()) return 0;
        out.add(row);
        return row.hasLiveData(nowInSec) ? 1 : 0;
    }

    private static boolean inPartition(byte[] key, byte[] prefix) {
        return key.length > prefix.length && StorageKeys.hasPrefix(key, prefix);
    }

    private byte[] lowerKey(byte[] prefix, ClusteringBound start) {
        if (start.isUnbounded()) return StorageKeys.section(prefix, StorageKeys.ROW);
        byte[] key = StorageKeys.concat(prefix, StorageKeys.ROW, clustering.encode(start.prefix()), new byte[0]);
        return start.inclusive() ? key : StorageKeys.prefixEnd(key);
    }

    private byte[] upperKey(byte[] prefix, ClusteringBound end) {
        if (end.isUnbounded()) return StorageKeys.section(prefix, StorageKeys.END);
        byte[] key = StorageKeys.concat(prefix, StorageKeys.ROW, clustering.encode(end.prefix()), new byte[0]);
        return end.inclusive() ? StorageKeys.prefixEnd(key) : key;
    }

    /** True if the range tombstone stored as {@code storedValue} covers the row with encoded clustering {@code clustering}. */
    boolean covers(byte[] storedValue, byte[] clustering) {
        return readRangeTombstone(new ByteReader(storedValue)).covers(clustering);
    }

    private static StoredRangeTombstone readRangeTombstone(ByteReader value) {
        boolean startInclusive = value.readByte() == 1;
        byte[] start = bytes(value.readSized());
        boolean endInclusive = value.readByte() == 1;
        byte[] end = bytes(value.readSized());
        return new StoredRangeTombstone(start, startInclusive, end, endInclusive, new DeletionTime(value.readLong(), value.readInt()));
    }

    private RangeTombstone decode(StoredRangeTombstone rt) {
        ClusteringBound start = new ClusteringBound(clustering.decode(rt.start(), 0, rt.start().length), rt.startInclusive());
        ClusteringBound end = new ClusteringBound(clustering.decode(rt.end(), 0, rt.end().length), rt.endInclusive());
        return new RangeTombstone(new Slice(start, end), rt.deletion());
    }

    private static byte[] bytes(java.nio.ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }
}
