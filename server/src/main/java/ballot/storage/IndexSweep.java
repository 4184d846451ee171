package ballot.storage;

import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Row;
import ballot.cql.data.Slice;
import ballot.cql.index.IndexTerms;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Deletes an index's stale entries (docs/indexes.md, "Invariant"): an entry whose row, read merged from the same
 * snapshot, no longer has the entry's term at {@code now}. It is deleted by its exact key; a later write of the same
 * term has another write id, so the deletion never removes an entry that is still needed.
 */
final class IndexSweep {
    private static final int BATCH_DELETES = 1_000;

    private IndexSweep() {}

    /** Returns how many entries were deleted. */
    static long run(RocksDB db, TableStore table, IndexStore index, int nowInSec, WriteOptions writeOptions) throws RocksDBException {
        IndexTerms terms = index.terms();
        long deleted = 0;
        Snapshot snapshot = db.getSnapshot();
        try (ReadOptions options = new ReadOptions().setSnapshot(snapshot).setTotalOrderSeek(true);
                RocksIterator entries = db.newIterator(index.family(), options);
                RocksIterator data = db.newIterator(table.family(), options);
                WriteBatch batch = new WriteBatch()) {
            for (entries.seekToFirst(); entries.isValid(); entries.next()) {
                IndexStore.Entry e = IndexStore.Entry.of(entries.key(), entries.value());
                if (holds(table, terms, data, e, nowInSec)) continue;
                batch.delete(index.family(), entries.key());
                deleted++;
                if (batch.count() >= BATCH_DELETES) {
                    db.write(writeOptions, batch);
                    batch.clear();
                }
            }
            if (batch.count() > 0) db.write(writeOptions, batch);
        } finally {
            db.releaseSnapshot(snapshot);
        }
        return deleted;
    }

    /** Whether the entry's row still has the entry's term. */
    private static boolean holds(TableStore table, IndexTerms terms, RocksIterator data, IndexStore.Entry e, int now) {
        byte[] prefix = e.partitionPrefix();
        PartitionKey key = e.partitionKey();
        ByteBuffer[] components = PartitionKey.split(key.key(), table.metadata().partitionKey().size());
        if (terms.selectsPartitions()) {
            PartitionData partition = table.readPartition(data, prefix, key, ReadSpec.all(now), Integer.MAX_VALUE);
            if (!partition.hasLiveData(now)) return false;
            Row staticRow = partition.staticRow() != null && partition.staticRow().hasLiveData(now) ? partition.staticRow() : null;
            return contains(terms.ofLive(components, null, staticRow, now), e.term());
        }
        byte[] clustering = e.clustering();
        ReadSpec row = new ReadSpec(List.of(Slice.of(table.clustering().decode(clustering, 0, clustering.length))), false, 1, 1, now);
        PartitionData partition = table.readPartition(data, prefix, key, row, 1);
        for (Row r : partition.rows()) {
            if (r.hasLiveData(now) && contains(terms.ofLive(components, r, partition.staticRow(), now), e.term())) return true;
        }
        return false;
    }

    private static boolean contains(List<byte[]> terms, byte[] term) {
        for (byte[] t : terms) if (Arrays.equals(t, term)) return true;
        return false;
    }
}
