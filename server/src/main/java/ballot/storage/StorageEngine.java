package ballot.storage;

import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.TokenRange;
import ballot.cql.schema.TableMetadata;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's local data: one RocksDB database with a column family per table and one for node-local metadata (schema,
 * host id, generation). Writes are blind {@link WriteBatch}es of row fragments; reads merge fragments
 * (docs/storage.md). Thread-safe.
 */
public final class StorageEngine implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StorageEngine.class);
    private static final String META_FAMILY = "local";
    private static final String TABLE_FAMILY_PREFIX = "t_";

    static {
        RocksDB.loadLibrary();
    }

    private final RocksDB db;
    private final DBOptions dbOptions;
    private final ColumnFamilyOptions tableOptions;
    private final ColumnFamilyOptions metaOptions;
    private final LRUCache blockCache;
    private final WriteOptions writeOptions;
    private final WriteOptions syncWriteOptions;
    private final ColumnFamilyHandle defaultFamily;
    private final ColumnFamilyHandle metaFamily;
    private final Map<UUID, ColumnFamilyHandle> families = new ConcurrentHashMap<>();
    private final Map<UUID, TableStore> tables = new ConcurrentHashMap<>();
    private final ScheduledExecutorService walSyncer;
    private final SweepQueue sweepQueue = new SweepQueue();
    /** Shared by every single-partition read: never changed after construction, so safe across threads. */
    private final ReadOptions partitionReadOptions = new ReadOptions().setPrefixSameAsStart(true);
    /** Sweeps of one partition are serialised: stripe = hash of the partition prefix. */
    private final Object[] sweepLocks = new Object[256];
    private final ScheduledExecutorService sweeper;

    private StorageEngine(StorageOptions options) throws RocksDBException {
        try {
            Files.createDirectories(options.directory());
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot create data directory " + options.directory() + ": " + e.getMessage(), e);
        }
        blockCache = new LRUCache(options.blockCacheBytes());
        dbOptions = new DBOptions()
                .setCreateIfMissing(true)
                .setCreateMissingColumnFamilies(true)
                .setMaxBackgroundJobs(2)
                .setBytesPerSync(1 << 20)
                .setMaxTotalWalSize(256L << 20)
                .setKeepLogFileNum(3)
                .setInfoLogLevel(InfoLogLevel.WARN_LEVEL);
        tableOptions = new ColumnFamilyOptions()
                .useFixedLengthPrefixExtractor(8)
                .setMemtablePrefixBloomSizeRatio(0.1)
                .setWriteBufferSize(32L << 20)
                .setCompressionType(CompressionType.LZ4_COMPRESSION)
                .setLevelCompactionDynamicLevelBytes(true)
                .setTableFormatConfig(new BlockBasedTableConfig()
                        .setBlockCache(blockCache)
                        .setFilterPolicy(new BloomFilter(10, false))
                        .setWholeKeyFiltering(false)
                        .setBlockSize(16 * 1024));
        metaOptions = new ColumnFamilyOptions().setWriteBufferSize(4L << 20);

        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, metaOptions));
        descriptors.add(new ColumnFamilyDescriptor(META_FAMILY.getBytes(StandardCharsets.UTF_8), metaOptions));
        String path = options.directory().toString();
        try (Options listOptions = new Options()) {
            for (byte[] name : RocksDB.listColumnFamilies(listOptions, path)) {
                String family = new String(name, StandardCharsets.UTF_8);
                if (family.startsWith(TABLE_FAMILY_PREFIX)) descriptors.add(new ColumnFamilyDescriptor(name, tableOptions));
            }
        }
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        db = RocksDB.open(dbOptions, path, descriptors, handles);
        defaultFamily = handles.get(0);
        metaFamily = handles.get(1);
        for (int i = 2; i < handles.size(); i++) {
            String family = new String(descriptors.get(i).getName(), StandardCharsets.UTF_8);
            families.put(UUID.fromString(family.substring(TABLE_FAMILY_PREFIX.length())), handles.get(i));
        }
        writeOptions = new WriteOptions().setSync(options.syncEveryWrite());
        syncWriteOptions = new WriteOptions().setSync(true);
        if (!options.syncEveryWrite()) {
            walSyncer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "wal-sync");
                t.setDaemon(true);
                return t;
            });
            long period = options.syncPeriodMillis();
            walSyncer.scheduleWithFixedDelay(this::syncWal, period, period, TimeUnit.MILLISECONDS);
        } else {
            walSyncer = null;
        }
        for (int i = 0; i < sweepLocks.length; i++) sweepLocks[i] = new Object();
        sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sweeper");
            t.setDaemon(true);
            return t;
        });
        sweeper.scheduleWithFixedDelay(this::sweepRequested, 1, 1, TimeUnit.SECONDS);
        if (options.sweepPeriodSeconds() > 0) {
            sweeper.scheduleWithFixedDelay(this::sweepAll, options.sweepPeriodSeconds(), options.sweepPeriodSeconds(), TimeUnit.SECONDS);
        }
        log.info("storage opened directory={} tables={} commitlog_sync={}", path, families.size(),
                options.syncEveryWrite() ? "batch" : "periodic(" + options.syncPeriodMillis() + "ms)");
    }

    public static StorageEngine open(StorageOptions options) {
        try {
            return new StorageEngine(options);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot open storage at " + options.directory() + ": " + e.getMessage(), e);
        }
    }

    // ---------------------------------------------------------------- tables

    /** Makes the table's column family exist and attaches the (possibly altered) definition to it. */
    public void ensureTable(TableMetadata table) {
        ColumnFamilyHandle family = families.computeIfAbsent(table.id(), id -> {
            try {
                return db.createColumnFamily(new ColumnFamilyDescriptor(familyName(id), tableOptions));
            } catch (RocksDBException e) {
                throw new IllegalStateException("cannot create storage for table " + table + ": " + e.getMessage(), e);
            }
        });
        tables.put(table.id(), new TableStore(table, family, sweepQueue));
    }

    /** Drops the table's data. */
    public void dropTable(UUID tableId) {
        tables.remove(tableId);
        ColumnFamilyHandle family = families.remove(tableId);
        if (family == null) return;
        try {
            db.dropColumnFamily(family);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot drop storage of table " + tableId + ": " + e.getMessage(), e);
        } finally {
            family.close();
        }
    }

    /** Drops column families of tables that no longer exist (dropped while the node was down). */
    public void dropTablesOtherThan(Set<UUID> live) {
        for (UUID id : List.copyOf(families.keySet())) {
            if (!live.contains(id)) {
                log.info("dropping storage of a table no longer in the schema table_id={}", id);
                dropTable(id);
            }
        }
    }

    /** Deletes every row of the table. */
    public void truncate(UUID tableId) {
        TableStore table = store(tableId);
        byte[] all = new byte[9];
        java.util.Arrays.fill(all, (byte) 0xFF);
        try {
            db.deleteRange(table.family(), new byte[0], all);
            db.flushWal(true);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot truncate table " + table.metadata() + ": " + e.getMessage(), e);
        }
    }

    private static byte[] familyName(UUID id) {
        return (TABLE_FAMILY_PREFIX + id).getBytes(StandardCharsets.UTF_8);
    }

    private TableStore store(UUID tableId) {
        TableStore table = tables.get(tableId);
        if (table == null) throw new IllegalStateException("no storage for table " + tableId + " (dropped?)");
        return table;
    }

    // ---------------------------------------------------------------- writes

    /** Applies the mutations atomically, in one WAL record, synced per the commit log setting. */
    public void apply(Collection<Mutation> mutations) {
        write(mutations, writeOptions);
    }

    /** Applies the mutations atomically and returns only once they are on disk (fsync), whatever the sync setting. */
    public void applyDurably(Collection<Mutation> mutations) {
        write(mutations, syncWriteOptions);
    }

    private void write(Collection<Mutation> mutations, WriteOptions options) {
        try (WriteBatch batch = new WriteBatch()) {
            for (Mutation mutation : mutations) {
                PartitionUpdate update = mutation.update();
                store(update.tableId()).addTo(batch, update, mutation.writeId());
            }
            db.write(options, batch);
        } catch (RocksDBException e) {
            throw new IllegalStateException("write failed: " + e.getMessage(), e);
        }
    }

    // ---------------------------------------------------------------- reads

    /** Reads one partition: the rows of {@code spec}'s slices, merged, with the deletions that shadow data in them. */
    public PartitionData read(TableMetadata table, PartitionKey key, ReadSpec spec) {
        TableStore store = store(table.id());
        byte[] prefix = StorageKeys.partitionPrefix(key);
        // No iterate_upper_bound: seekForPrev at the bound is undefined with one; readPartition checks its bounds.
        try (RocksIterator it = db.newIterator(store.family(), partitionReadOptions)) {
            return store.readPartition(it, prefix, key, spec, Math.min(spec.rowLimit(), spec.partitionRowLimit()));
        }
    }

    /**
     * Reads the partitions of {@code range} in token order, stopping after {@code partitionLimit} partitions with live
     * data or when {@code spec.rowLimit()} live rows have been read.
     */
    public List<PartitionData> scan(TableMetadata table, TokenRange range, ReadSpec spec, int partitionLimit) {
        TableStore store = store(table.id());
        List<PartitionData> result = new ArrayList<>();
        int rowsLeft = spec.rowLimit();
        try (ReadOptions readOptions = new ReadOptions().setTotalOrderSeek(true);
                RocksIterator it = db.newIterator(store.family(), readOptions)) {
            if (range.isEmpty()) return result;
            if (range.startAfter() != null) it.seek(StorageKeys.section(StorageKeys.partitionPrefix(range.startAfter()), StorageKeys.END));
            else it.seek(StorageKeys.tokenStart(range.start()));
            while (it.isValid() && result.size() < partitionLimit && rowsLeft > 0) {
                byte[] k = it.key();
                if (StorageKeys.token(k) > range.end()) break;
                byte[] prefix = java.util.Arrays.copyOf(k, StorageKeys.partitionPrefixLength(k));
                PartitionKey key = StorageKeys.partitionKey(k);
                PartitionData partition = store.readPartition(it, prefix, key, spec, Math.min(rowsLeft, spec.partitionRowLimit()));
                if (partition.hasLiveData(spec.nowInSec())) {
                    result.add(partition);
                    rowsLeft -= partition.liveRowCount(spec.nowInSec());
                }
                it.seek(StorageKeys.section(prefix, StorageKeys.END));
            }
        }
        return result;
    }

    // ---------------------------------------------------------------- sweeping

    /**
     * Sweeps every partition of the table (docs/storage.md, "Sweeping"): merges fragments and drops what gc_grace
     * allows. Returns how many keys were read.
     */
    public long sweep(UUID tableId, int nowInSec) {
        TableStore store = store(tableId);
        long keys = 0;
        List<byte[]> prefixes = new ArrayList<>();
        try (ReadOptions readOptions = new ReadOptions().setTotalOrderSeek(true);
                RocksIterator it = db.newIterator(store.family(), readOptions)) {
            for (it.seekToFirst(); it.isValid(); ) {
                byte[] prefix = java.util.Arrays.copyOf(it.key(), StorageKeys.partitionPrefixLength(it.key()));
                prefixes.add(prefix);
                if (prefixes.size() >= 256) {
                    for (byte[] p : prefixes) keys += sweepPartition(store, p, nowInSec);
                    prefixes.clear();
                }
                it.seek(StorageKeys.section(prefix, StorageKeys.END));
            }
        }
        for (byte[] p : prefixes) keys += sweepPartition(store, p, nowInSec);
        return keys;
    }

    private int sweepPartition(TableStore store, byte[] prefix, int nowInSec) {
        return sweep(store, new PartitionSweep(store, prefix, nowInSec), prefix);
    }

    private int sweep(TableStore store, PartitionSweep sweep, byte[] prefix) {
        synchronized (sweepLocks[Math.floorMod(java.util.Arrays.hashCode(prefix), sweepLocks.length)]) {
            try (ReadOptions readOptions = new ReadOptions().setTotalOrderSeek(true);
                    RocksIterator it = db.newIterator(store.family(), readOptions);
                    WriteBatch batch = new WriteBatch()) {
                PartitionSweep.Result result = sweep.sweep(it, batch);
                if (batch.count() > 0) db.write(writeOptions, batch);
                return result.keysRead();
            } catch (RocksDBException e) {
                throw new IllegalStateException("sweep of table " + store.metadata() + " failed: " + e.getMessage(), e);
            }
        }
    }

    /** Runs the sweeps that reads and writes asked for (the sweeper thread calls this every second). */
    void sweepRequested() {
        try {
            int now = (int) (System.currentTimeMillis() / 1000);
            for (SweepQueue.Request r = sweepQueue.poll(); r != null; r = sweepQueue.poll()) {
                TableStore store = tables.get(r.table());
                if (store != null) sweep(store, new PartitionSweep(store, r.prefix(), now, r.scope(), r.row()), r.prefix());
            }
        } catch (RuntimeException e) {
            log.error("sweep of fragmented partitions failed; reads stay correct but slower until the next sweep", e);
        }
    }

    private void sweepAll() {
        for (TableStore store : List.copyOf(tables.values())) {
            try {
                long keys = sweep(store.metadata().id(), (int) (System.currentTimeMillis() / 1000));
                log.debug("swept table={} keys={}", store.metadata(), keys);
            } catch (RuntimeException e) {
                log.error("sweep of table {} failed; tombstones stay until the next sweep", store.metadata(), e);
            }
        }
    }

    // ---------------------------------------------------------------- node-local metadata

    public byte[] getMeta(String key) {
        try {
            return db.get(metaFamily, key.getBytes(StandardCharsets.UTF_8));
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot read local metadata " + key + ": " + e.getMessage(), e);
        }
    }

    /** Writes local metadata durably (fsync) before returning. */
    public void putMeta(String key, byte[] value) {
        try {
            db.put(metaFamily, syncWriteOptions, key.getBytes(StandardCharsets.UTF_8), value);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot write local metadata " + key + ": " + e.getMessage(), e);
        }
    }

    /** Writes local metadata through the WAL without waiting for an fsync (best-effort data such as hints). */
    public void putMetaUnsynced(String key, byte[] value) {
        try {
            db.put(metaFamily, writeOptions, key.getBytes(StandardCharsets.UTF_8), value);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot write local metadata " + key + ": " + e.getMessage(), e);
        }
    }

    public void deleteMeta(String key) {
        try {
            db.delete(metaFamily, syncWriteOptions, key.getBytes(StandardCharsets.UTF_8));
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot delete local metadata " + key + ": " + e.getMessage(), e);
        }
    }

    /** Visits every metadata entry whose key starts with {@code prefix}, in key order. */
    public void forEachMeta(String prefix, BiConsumer<String, byte[]> visitor) {
        byte[] start = prefix.getBytes(StandardCharsets.UTF_8);
        try (RocksIterator it = db.newIterator(metaFamily)) {
            for (it.seek(start); it.isValid() && StorageKeys.hasPrefix(it.key(), start); it.next()) {
                visitor.accept(new String(it.key(), StandardCharsets.UTF_8), it.value());
            }
        }
    }

    // ---------------------------------------------------------------- lifecycle

    private void syncWal() {
        try {
            db.flushWal(true);
        } catch (RocksDBException e) {
            log.error("periodic commit log sync failed; acknowledged writes are not yet on disk: {}", e.getMessage());
        }
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
        try {
            sweeper.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (walSyncer != null) walSyncer.shutdownNow();
        syncWal();
        for (ColumnFamilyHandle family : families.values()) family.close();
        metaFamily.close();
        defaultFamily.close();
        db.close();
        writeOptions.close();
        syncWriteOptions.close();
        partitionReadOptions.close();
        tableOptions.close();
        metaOptions.close();
        dbOptions.close();
        blockCache.close();
        log.info("storage closed");
    }
}
