package ballot.storage;

import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Row;
import ballot.cql.index.IndexTerms;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the entries of the data a table held before its index existed (docs/indexes.md, "Building"): every
 * partition of one snapshot, read merged, its live values' terms put in batches. The snapshot is taken after the
 * index was installed for writes, so every write is either in the snapshot or indexed itself.
 */
final class IndexBuild {
    private static final Logger log = LoggerFactory.getLogger(IndexBuild.class);
    private static final int BATCH_ENTRIES = 1_000;
    private static final int PROGRESS_ROWS = 10_000;

    private final RocksDB db;
    private final TableStore table;
    private final IndexStore index;
    private final WriteId buildIds;
    private final WriteOptions writeOptions;

    IndexBuild(RocksDB db, TableStore table, IndexStore index, WriteId buildIds, WriteOptions writeOptions) {
        this.db = db;
        this.table = table;
        this.index = index;
        this.buildIds = buildIds;
        this.writeOptions = writeOptions;
    }

    /** Indexes the snapshot's rows; returns how many rows were read. {@code stillWanted} stops a build whose index was dropped. */
    long run(java.util.function.BooleanSupplier stillWanted) throws RocksDBException {
        String name = table.metadata() + "." + index.metadata().name();
        long estimate = Math.max(1, db.getLongProperty(table.family(), "rocksdb.estimate-num-keys"));
        log.info("index build started index={} estimated_keys={}", name, estimate);
        IndexTerms terms = index.terms();
        int now = (int) (System.currentTimeMillis() / 1000);
        byte[] id = buildIds.next(System.currentTimeMillis() * 1000);
        long rows = 0;
        long nextReport = PROGRESS_ROWS;
        Snapshot snapshot = db.getSnapshot();
        try (ReadOptions options = new ReadOptions().setSnapshot(snapshot).setTotalOrderSeek(true);
                RocksIterator it = db.newIterator(table.family(), options)) {
            WriteBatch batch = new WriteBatch();
            try {
                for (it.seekToFirst(); it.isValid(); ) {
                    if (!stillWanted.getAsBoolean()) {
                        log.info("index build stopped: index dropped index={}", name);
                        return rows;
                    }
                    byte[] prefix = Arrays.copyOf(it.key(), StorageKeys.partitionPrefixLength(it.key()));
                    PartitionKey key = StorageKeys.partitionKey(prefix);
                    PartitionData partition = table.readPartition(it, prefix, key, ReadSpec.all(now), Integer.MAX_VALUE);
                    ByteBuffer[] components = PartitionKey.split(key.key(), table.metadata().partitionKey().size());
                    Row staticRow = partition.staticRow();
                    if (terms.selectsPartitions()) {
                        if (partition.hasLiveData(now)) {
                            for (byte[] term : terms.ofLive(components, null, staticRow, now)) index.put(batch, term, prefix, new byte[0], id);
                        }
                    }
                    for (Row row : partition.rows()) {
                        rows++;
                        if (terms.selectsPartitions() || !row.hasLiveData(now)) continue;
                        byte[] clustering = table.clustering().encode(row.clustering().values());
                        for (byte[] term : terms.ofLive(components, row, staticRow, now)) index.put(batch, term, prefix, clustering, id);
                    }
                    if (batch.count() >= BATCH_ENTRIES) {
                        db.write(writeOptions, batch);
                        batch.close();
                        batch = new WriteBatch();
                    }
                    if (rows >= nextReport) {
                        log.info("index build progress index={} rows={} percent={}", name, rows, Math.min(99, rows * 100 / estimate));
                        nextReport = rows + PROGRESS_ROWS;
                    }
                    it.seek(StorageKeys.section(prefix, StorageKeys.END));
                }
                if (batch.count() > 0) db.write(writeOptions, batch);
            } finally {
                batch.close();
            }
        } finally {
            db.releaseSnapshot(snapshot);
        }
        log.info("index build finished index={} rows={} percent=100", name, rows);
        return rows;
    }
}
