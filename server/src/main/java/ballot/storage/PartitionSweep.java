package ballot.storage;

import ballot.cql.data.Cell;
import ballot.cql.data.Clustering;
import ballot.cql.data.ComplexDeletion;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.LivenessInfo;
import ballot.cql.data.Row;
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
 * Rewrites one partition as a sweep (docs/storage.md, "Sweeping"): every row's fragments become one fragment, data
 * shadowed by a deletion is dropped, and deletions, tombstones and expired cells older than gc_grace are dropped.
 * Only keys read here are deleted, so writes that land meanwhile survive. The caller holds the partition's sweep lock.
 */
final class PartitionSweep {
    /** What a sweep did, for logs and tests. */
    record Result(int keysRead, int keysWritten) {}

    private final TableStore table;
    private final byte[] prefix;
    private final int nowInSec;
    private final int gcGraceSeconds;
    private final SweepQueue.Scope scope;
    private final byte[] onlyRow;
    private final WriteId mergeIds;

    /** Sweeps the whole partition: rows, static row, and deletions past gc_grace. */
    PartitionSweep(TableStore table, byte[] prefix, int nowInSec, WriteId mergeIds) {
        this(table, prefix, nowInSec, SweepQueue.Scope.PARTITION, null, mergeIds);
    }

    /**
     * Sweeps part of the partition: with {@code STATIC} its static row, with {@code ROW} the row whose encoded clustering
     * is {@code onlyRow}. Partition deletions and range tombstones are then read (they shadow the row) but kept.
     * Merged fragments are written under ids from {@code mergeIds}.
     */
    PartitionSweep(TableStore table, byte[] prefix, int nowInSec, SweepQueue.Scope scope, byte[] onlyRow, WriteId mergeIds) {
        this.table = table;
        this.prefix = prefix;
        this.nowInSec = nowInSec;
        this.gcGraceSeconds = table.metadata().params().gcGraceSeconds();
        this.scope = scope;
        this.onlyRow = onlyRow;
        this.mergeIds = mergeIds;
    }

    /** Adds the rewrite of the partition to {@code batch}; {@code it} may be anywhere. */
    Result sweep(RocksIterator it, WriteBatch batch) throws RocksDBException {
        ColumnFamilyHandle family = table.family();
        DeletionTime partitionDeletion = DeletionTime.LIVE;
        List<byte[]> partitionDeletionKeys = new ArrayList<>();
        List<byte[]> rangeTombstoneKeys = new ArrayList<>();
        List<byte[]> rangeTombstoneValues = new ArrayList<>();
        List<DeletionTime> rangeTombstoneDeletions = new ArrayList<>();
        Group statics = new Group(null);
        Map<ByteKey, Group> rows = new LinkedHashMap<>();
        int keysRead = 0;
        for (it.seek(StorageKeys.section(prefix, StorageKeys.PARTITION_DELETION)); it.isValid(); it.next()) {
            byte[] k = it.key();
            if (k.length <= prefix.length || !StorageKeys.hasPrefix(k, prefix)) break;
            keysRead++;
            byte section = k[prefix.length];
            ByteReader value = new ByteReader(it.value());
            switch (section) {
                case StorageKeys.PARTITION_DELETION -> {
                    partitionDeletion = partitionDeletion.max(new DeletionTime(value.readLong(), value.readInt()));
                    partitionDeletionKeys.add(k);
                }
                case StorageKeys.RANGE_TOMBSTONE -> {
                    byte[] raw = it.value();
                    ByteReader r = new ByteReader(raw);
                    r.readByte();
                    r.readSized();
                    r.readByte();
                    r.readSized();
                    rangeTombstoneKeys.add(k);
                    rangeTombstoneValues.add(raw);
                    rangeTombstoneDeletions.add(new DeletionTime(r.readLong(), r.readInt()));
                }
                case StorageKeys.STATIC_ROW -> {
                    if (scope != SweepQueue.Scope.ROW) statics.add(k, FragmentCodec.decode(Clustering.STATIC, it.value()));
                }
                case StorageKeys.ROW -> {
                    if (scope == SweepQueue.Scope.STATIC) break;
                    if (scope == SweepQueue.Scope.ROW) {
                        // The header (deletions, tombstones) is read; now only the one row's fragments.
                        byte[] rowPrefix = StorageKeys.concat(prefix, StorageKeys.ROW, onlyRow, new byte[0]);
                        for (it.seek(rowPrefix); it.isValid() && StorageKeys.hasPrefix(it.key(), rowPrefix)
                                && it.key().length == rowPrefix.length + WriteId.BYTES; it.next()) {
                            keysRead++;
                            rows.computeIfAbsent(new ByteKey(onlyRow), c -> new Group(onlyRow))
                                    .add(it.key(), FragmentCodec.decode(Clustering.EMPTY, it.value()));
                        }
                        break;
                    }
                    byte[] clustering = Arrays.copyOfRange(k, prefix.length + 1, k.length - WriteId.BYTES);
                    rows.computeIfAbsent(new ByteKey(clustering), c -> new Group(clustering))
                            .add(k, FragmentCodec.decode(Clustering.EMPTY, it.value()));
                }
                default -> throw new IllegalStateException("corrupt key: unknown section " + section + " in table " + table.metadata());
            }
            if (section == StorageKeys.ROW && scope != SweepQueue.Scope.PARTITION) break;
        }
        if (scope == SweepQueue.Scope.ROW && rows.isEmpty()) {
            // No key of the row section was met while reading the header (the row sorts after others): seek it directly.
            byte[] rowPrefix = StorageKeys.concat(prefix, StorageKeys.ROW, onlyRow, new byte[0]);
            for (it.seek(rowPrefix); it.isValid() && StorageKeys.hasPrefix(it.key(), rowPrefix)
                    && it.key().length == rowPrefix.length + WriteId.BYTES; it.next()) {
                keysRead++;
                rows.computeIfAbsent(new ByteKey(onlyRow), c -> new Group(onlyRow)).add(it.key(), FragmentCodec.decode(Clustering.EMPTY, it.value()));
            }
        }
        int written = 0;
        // Partition deletion: the strongest one is kept under one key until gc_grace has passed.
        boolean purgePartitionDeletion = scope == SweepQueue.Scope.PARTITION && partitionDeletion.purgeable(nowInSec, gcGraceSeconds);
        if (scope != SweepQueue.Scope.PARTITION) partitionDeletionKeys.clear();
        if (partitionDeletionKeys.size() > 1 || purgePartitionDeletion) {
            for (byte[] key : partitionDeletionKeys) batch.delete(family, key);
            if (!partitionDeletionKeys.isEmpty() && !purgePartitionDeletion) {
                batch.put(family, StorageKeys.mergedKey(partitionDeletionKeys, mergeIds), new ByteWriter(12)
                        .writeLong(partitionDeletion.markedAt()).writeInt(partitionDeletion.localDeletionTime()).toByteArray());
                written++;
            }
        }
        written += statics.rewrite(batch, StorageKeys.STATIC_ROW, partitionDeletion);
        for (Group row : rows.values()) {
            DeletionTime covering = partitionDeletion;
            for (int i = 0; i < rangeTombstoneKeys.size(); i++) {
                if (table.covers(rangeTombstoneValues.get(i), row.clustering)) covering = covering.max(rangeTombstoneDeletions.get(i));
            }
            written += row.rewrite(batch, StorageKeys.ROW, covering);
        }
        for (int i = 0; i < rangeTombstoneKeys.size() && scope == SweepQueue.Scope.PARTITION; i++) {
            if (rangeTombstoneDeletions.get(i).purgeable(nowInSec, gcGraceSeconds)) batch.delete(family, rangeTombstoneKeys.get(i));
        }
        return new Result(keysRead, written);
    }

    /** The fragments of one row (or of the static row) and the keys they were read from. */
    private final class Group {
        final byte[] clustering;
        final List<byte[]> keys = new ArrayList<>();
        final List<Row> fragments = new ArrayList<>();

        Group(byte[] clustering) {
            this.clustering = clustering;
        }

        void add(byte[] key, Row fragment) {
            keys.add(key);
            fragments.add(fragment);
        }

        /** Replaces the fragments by their purged merge, under a merged-fragment key; returns keys written. */
        int rewrite(WriteBatch batch, byte section, DeletionTime covering) throws RocksDBException {
            if (fragments.isEmpty()) return 0;
            Row merged = purge(RowMerger.merge(fragments, covering));
            if (fragments.size() == 1 && merged.equals(fragments.get(0))) return 0;
            for (byte[] key : keys) batch.delete(table.family(), key);
            if (merged.isEmpty()) return 0;
            batch.put(table.family(), StorageKeys.mergedKey(keys, mergeIds), table.fragment(merged));
            return 1;
        }
    }

    /** Drops what gc_grace allows: deletions, tombstones and expired data whose grace has passed. */
    private Row purge(Row row) {
        LivenessInfo liveness = row.liveness();
        if (liveness.isExpiring() && !liveness.isLive(nowInSec) && (long) liveness.localExpirationTime() + gcGraceSeconds < nowInSec) {
            liveness = LivenessInfo.EMPTY;
        }
        DeletionTime deletion = row.deletion().purgeable(nowInSec, gcGraceSeconds) ? DeletionTime.LIVE : row.deletion();
        List<Cell> cells = new ArrayList<>(row.cells().size());
        for (Cell cell : row.cells()) if (!cell.purgeable(nowInSec, gcGraceSeconds)) cells.add(cell);
        List<ComplexDeletion> complex = new ArrayList<>();
        for (ComplexDeletion d : row.complexDeletions()) if (!d.deletion().purgeable(nowInSec, gcGraceSeconds)) complex.add(d);
        return new Row(row.clustering(), liveness, deletion, cells, complex);
    }
}
