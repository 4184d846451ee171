package ballot.storage;

import ballot.admission.StorageHealth;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.TimeUuids;
import ballot.cql.data.TokenRange;
import ballot.cql.schema.TableMetadata;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.Env;
import org.rocksdb.Holder;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.OperationType;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;
import org.rocksdb.SstFileManager;
import org.rocksdb.ThreadStatus;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's local data: one RocksDB database with a column family per table, one for node-local metadata (schema,
 * host id, generation) and one for Paxos (acceptor registers and plain-write versions, docs/paxos.md §9). Writes are
 * blind {@link WriteBatch}es of row fragments; reads merge fragments (docs/storage.md). Thread-safe.
 */
public final class StorageEngine implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(StorageEngine.class);
    private static final String META_FAMILY = "local";
    private static final String TABLE_FAMILY_PREFIX = "t_";
    /** Column families of indexes: {@code x_<index id>} (docs/indexes.md, "Storage"). */
    private static final String INDEX_FAMILY_PREFIX = "x_";
    /** Local metadata recording that an index's build finished: {@code index/built/<index id>}. */
    private static final String INDEX_BUILT = "index/built/";
    private static final String PAXOS_FAMILY = "paxos";
    /** Keys of the paxos family: registers and plain-write versions per partition, truncation versions per table. */
    private static final byte PAXOS_STATE = 0x01;
    private static final byte PLAIN_VERSION = 0x02;
    private static final byte TABLE_VERSION = 0x03;
    /** A partition's transaction state (docs/txn.md §11.1): {@code timestamp(8) · state}, written only with decrees. */
    private static final byte TXN_STATE = 0x04;
    private static final String PLAIN_VERSION_EPOCH = "local/plain_version_epoch";
    /** Plain-write versions are {@code epoch << 40 | counter}: unique across restarts for 2^40 writes per run. */
    private static final int PLAIN_VERSION_COUNTER_BITS = 40;

    /**
     * What one snapshot of a partition holds: the reads asked for and the partition's plain-write version, which
     * changes with every write that does not come from Paxos (docs/paxos.md §5.7).
     */
    /** @param txnState the partition's stored transaction state ({@link #txnState}), or null when not asked or absent */
    public record VersionedRead(List<PartitionData> partitions, long plainVersion, byte[] txnState) {}

    /** One partition's serialized acceptor registers, as the paxos family stores them. */
    public record PaxosState(UUID tableId, PartitionKey key, byte[] state) {}

    static {
        RocksDB.loadLibrary();
    }

    private final RocksDB db;
    private final DBOptions dbOptions;
    private final ColumnFamilyOptions tableOptions;
    private final ColumnFamilyOptions metaOptions;
    private final ColumnFamilyOptions paxosOptions;
    private final ColumnFamilyOptions indexOptions;
    private final LRUCache blockCache;
    private final long blockCacheCapacity;
    private final WriteOptions writeOptions;
    /**
     * For the writes made under a hold on a family (SharedFamily) instead of the install lock (sweeps, write-backs,
     * index builds and sweeps, truncation): a drop may have dropped the family meanwhile, and RocksDB then skips the
     * write instead of failing it, which it would take for a background error that stops every later write.
     */
    private final WriteOptions heldWriteOptions;
    private final WriteOptions syncWriteOptions;
    private final ColumnFamilyHandle defaultFamily;
    private final ColumnFamilyHandle metaFamily;
    private final ColumnFamilyHandle paxosFamily;
    private final long plainVersionBase;
    /** Ids of the merged fragments sweeps and write-backs write: no write ever rewrites one (WriteId). */
    private final WriteId mergeIds;
    private final AtomicLong plainVersionCounter = new AtomicLong(1);
    private final Map<UUID, SharedFamily> families = new ConcurrentHashMap<>();
    private final Map<UUID, TableStore> tables = new ConcurrentHashMap<>();
    /**
     * Tables of which this node stores a transaction state (docs/txn.md §11.1): only their plain reads look states up
     * ({@link #readWithTxnState}). Found by {@link #trackTxnStates}'s walk, then a table joins when its first state is
     * written and leaves when it is dropped.
     */
    private final Set<UUID> tablesWithTxnStates = ConcurrentHashMap.newKeySet();
    /**
     * Partitions whose stored transaction state holds an intent: a scan reports them though they may have no rows yet
     * (a transaction's insert into a new partition, docs/txn.md §10). Null until {@link #trackTxnStates}; it may name a
     * partition whose intent is gone (the scan then finds its state without one), never miss one that holds an intent.
     */
    private volatile TrackedPartitions held;
    /** Partitions whose stored transaction state may need the transaction sweep (docs/txn.md §11.1); null until {@link #trackTxnStates}. */
    private volatile TrackedPartitions awaitingSweep;
    /** Index column families by index id, including those opened at start whose table is not yet attached. */
    private final Map<UUID, SharedFamily> indexFamilies = new ConcurrentHashMap<>();
    /**
     * Writes hold it shared from choosing their table's store to their batch's write; installing indexes holds it
     * exclusively, so after an install no write without the new indexes is still in flight (IndexBuild).
     */
    private static final long HEALTH_VALID_NANOS = 100_000_000L;
    private volatile HealthReading lastHealth;
    private final TableLatencies latencies = new TableLatencies();
    private final java.util.concurrent.locks.ReentrantReadWriteLock installLock = new java.util.concurrent.locks.ReentrantReadWriteLock();
    /** Set by {@link #close} under {@link #installLock}'s write lock: a write after it is refused, never sent to closed handles. */
    private boolean closed;
    private final java.util.concurrent.ExecutorService indexBuilder;
    private final ScheduledExecutorService walSyncer;
    private final SweepQueue sweepQueue = new SweepQueue();
    /** When the last full sweep of each table ended; write-backs read before it may hold purged data and are dropped. */
    private final Map<UUID, Long> sweptAt = new ConcurrentHashMap<>();
    /** The ids {@link #tasks} gave the RocksDB jobs running at its last call, so that a task keeps its id. */
    private volatile Map<Long, UUID> taskIds = Map.of();
    /** Shared by every single-partition read: never changed after construction, so safe across threads. */
    private final ReadOptions partitionReadOptions = new ReadOptions().setPrefixSameAsStart(true);
    /** Sweeps of one partition are serialised: stripe = hash of the partition prefix. */
    private final Object[] sweepLocks = new Object[256];
    private final ScheduledExecutorService sweeper;
    private final SstFileManager sstFiles;
    private final java.nio.file.Path directory;
    private final BackgroundErrors backgroundErrors = new BackgroundErrors();
    /** How long a background error may stand without RocksDB beginning to recover before it is deemed unrecoverable. */
    private static final long UNRECOVERABLE_GRACE_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** How long RocksDB may fail to recover from a full disk while there is room to ({@link #hasRoomToRecover}). */
    private static final long RECOVERY_NANOS_MAX = TimeUnit.SECONDS.toNanos(30);
    private volatile Consumer<String> unrecoverableHandler;
    private boolean unrecoverableReported;

    private StorageEngine(StorageOptions options) throws RocksDBException {
        try {
            Files.createDirectories(options.directory());
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot create data directory " + options.directory() + ": " + e.getMessage(), e);
        }
        directory = options.directory();
        blockCache = new LRUCache(options.blockCacheBytes());
        blockCacheCapacity = options.blockCacheBytes();
        sstFiles = new SstFileManager(Env.getDefault());
        dbOptions = new DBOptions()
                .setSstFileManager(sstFiles) // with it, RocksDB recovers by itself from a full disk once space is freed
                .setListeners(List.of(backgroundErrors))
                .setMaxOpenFiles(options.openFilesMax())
                .setCreateIfMissing(true)
                .setCreateMissingColumnFamilies(true)
                .setMaxBackgroundJobs(2)
                .setBytesPerSync(1 << 20)
                // Obsolete log files are reused: a write that overwrites blocks already written needs no inode update,
                // so its fsync is cheaper (docs/storage.md, "Durability"). The total caps how long a log stays live
                // (the column families holding its oldest data are flushed past it), so logs turn over and are reused.
                .setMaxTotalWalSize(64L << 20)
                .setRecycleLogFileNum(4)
                .setKeepLogFileNum(3)
                .setEnableThreadTracking(true) // for tasks(): each flush and compaction reports its progress
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
        paxosOptions = new ColumnFamilyOptions()
                .setWriteBufferSize(16L << 20)
                // Most lookups here are of absent keys (lookup()): a whole-key bloom filter answers them without a
                // search of the memtable's skip list (docs/performance.md, "Paxos lookups").
                .setMemtablePrefixBloomSizeRatio(0.05)
                .setMemtableWholeKeyFiltering(true)
                .setTableFormatConfig(new BlockBasedTableConfig()
                        .setBlockCache(blockCache)
                        .setFilterPolicy(new BloomFilter(10, false)));

        indexOptions = new ColumnFamilyOptions()
                .setWriteBufferSize(16L << 20)
                .setCompressionType(CompressionType.LZ4_COMPRESSION)
                .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(blockCache));
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
        descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, metaOptions));
        descriptors.add(new ColumnFamilyDescriptor(META_FAMILY.getBytes(StandardCharsets.UTF_8), metaOptions));
        descriptors.add(new ColumnFamilyDescriptor(PAXOS_FAMILY.getBytes(StandardCharsets.UTF_8), paxosOptions));
        String path = options.directory().toString();
        try (Options listOptions = new Options()) {
            for (byte[] name : RocksDB.listColumnFamilies(listOptions, path)) {
                String family = new String(name, StandardCharsets.UTF_8);
                if (family.startsWith(TABLE_FAMILY_PREFIX)) descriptors.add(new ColumnFamilyDescriptor(name, tableOptions));
                if (family.startsWith(INDEX_FAMILY_PREFIX)) descriptors.add(new ColumnFamilyDescriptor(name, indexOptions));
            }
        }
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        db = RocksDB.open(dbOptions, path, descriptors, handles);
        defaultFamily = handles.get(0);
        metaFamily = handles.get(1);
        paxosFamily = handles.get(2);
        for (int i = 3; i < handles.size(); i++) {
            String family = new String(descriptors.get(i).getName(), StandardCharsets.UTF_8);
            UUID id = UUID.fromString(family.substring(2));
            if (family.startsWith(INDEX_FAMILY_PREFIX)) indexFamilies.put(id, new SharedFamily(handles.get(i)));
            else families.put(id, new SharedFamily(handles.get(i)));
        }
        writeOptions = new WriteOptions().setSync(options.syncEveryWrite());
        heldWriteOptions = new WriteOptions().setSync(options.syncEveryWrite()).setIgnoreMissingColumnFamilies(true);
        syncWriteOptions = new WriteOptions().setSync(true);
        byte[] epochBytes = getMeta(PLAIN_VERSION_EPOCH);
        long epoch = epochBytes == null ? 1 : ByteBuffer.wrap(epochBytes).getLong() + 1;
        putMeta(PLAIN_VERSION_EPOCH, ByteBuffer.allocate(8).putLong(0, epoch).array());
        plainVersionBase = epoch << PLAIN_VERSION_COUNTER_BITS;
        mergeIds = WriteId.forMerges(epoch);
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
        sweeper.scheduleWithFixedDelay(this::checkBackgroundErrors, 1, 1, TimeUnit.SECONDS);
        indexBuilder = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "index-build");
            t.setDaemon(true);
            return t;
        });
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

    /**
     * Makes the table's column family exist and attaches the (possibly altered) definition to it, with its indexes:
     * a new index gets its column family and, unless the table is empty, a background build; a dropped one loses its
     * column family.
     */
    public void ensureTable(TableMetadata table) {
        SharedFamily family = families.computeIfAbsent(table.id(), id -> createFamily(TABLE_FAMILY_PREFIX, id, tableOptions, table));
        List<IndexStore> toBuild = new ArrayList<>();
        TableStore store;
        List<IndexStore> removed = new ArrayList<>();
        installLock.writeLock().lock();
        try {
            TableStore previous = tables.get(table.id());
            Map<UUID, IndexStore> existing = new java.util.HashMap<>();
            if (previous != null) for (IndexStore i : previous.indexes()) existing.put(i.metadata().id(), i);
            List<IndexStore> indexes = new ArrayList<>();
            for (ballot.cql.schema.IndexMetadata index : table.indexes()) {
                IndexStore kept = existing.remove(index.id());
                if (kept != null) {
                    indexes.add(kept.retargeted(ballot.cql.index.IndexTerms.of(table, index)));
                    continue;
                }
                SharedFamily indexFamily = indexFamilies.computeIfAbsent(index.id(),
                        id -> createFamily(INDEX_FAMILY_PREFIX, id, indexOptions, table));
                boolean built = getMeta(INDEX_BUILT + index.id()) != null || isEmpty(family.handle());
                if (built) putMeta(INDEX_BUILT + index.id(), new byte[] {1});
                IndexStore created = new IndexStore(ballot.cql.index.IndexTerms.of(table, index), indexFamily,
                        built ? IndexStore.State.BUILT : IndexStore.State.BUILDING);
                indexes.add(created);
                if (!built) toBuild.add(created);
            }
            removed.addAll(existing.values());
            store = new TableStore(table, family, sweepQueue, indexes);
            tables.put(table.id(), store);
        } finally {
            installLock.writeLock().unlock();
        }
        for (IndexStore index : removed) dropIndex(index.metadata().id());
        for (IndexStore index : toBuild) indexBuilder.execute(() -> build(table.id(), index));
    }

    private SharedFamily createFamily(String prefix, UUID id, ColumnFamilyOptions options, TableMetadata table) {
        try {
            return new SharedFamily(db.createColumnFamily(new ColumnFamilyDescriptor((prefix + id).getBytes(StandardCharsets.UTF_8), options)));
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot create storage for table " + table + ": " + e.getMessage(), e);
        }
    }

    private boolean isEmpty(ColumnFamilyHandle family) {
        try (ReadOptions options = new ReadOptions().setTotalOrderSeek(true); RocksIterator it = db.newIterator(family, options)) {
            it.seekToFirst();
            return !it.isValid();
        }
    }

    /** Builds an index over the data written before it existed, then makes it queryable (docs/indexes.md, "Building"). */
    private void build(UUID tableId, IndexStore index) {
        UUID indexId = index.metadata().id();
        java.util.function.BooleanSupplier stillWanted = () -> indexFamilies.containsKey(indexId);
        try {
            TableStore table = tables.get(tableId);
            if (table == null || !stillWanted.getAsBoolean()) return;
            try (SharedFamily.Held data = table.shared().tryHold(); SharedFamily.Held entries = index.shared().tryHold()) {
                if (data == null || entries == null) return; // dropped meanwhile
                new IndexBuild(db, table, index, mergeIds, heldWriteOptions).run(stillWanted);
            }
            if (!stillWanted.getAsBoolean()) return;
            putMeta(INDEX_BUILT + indexId, new byte[] {1});
            index.built();
        } catch (RocksDBException | RuntimeException e) {
            log.error("index build failed index={}; it stays unavailable until the node restarts", index.metadata().name(), e);
        }
    }

    /** How many entries the index holds, stale ones included (for tests of the sweep). */
    long indexEntries(UUID tableId, String indexName) {
        long n = 0;
        for (IndexStore index : store(tableId).indexes()) {
            if (!index.metadata().name().equals(indexName)) continue;
            try (SharedFamily.Held held = index.hold(); ReadOptions options = new ReadOptions().setTotalOrderSeek(true);
                    RocksIterator it = db.newIterator(index.family(), options)) {
                for (it.seekToFirst(); it.isValid(); it.next()) n++;
            }
        }
        return n;
    }

    /** Whether the index is built on this node (queryable), building, or unknown here (null). */
    public Boolean indexBuilt(UUID tableId, String indexName) {
        TableStore table = tables.get(tableId);
        if (table == null) return null;
        for (IndexStore index : table.indexes()) {
            if (index.metadata().name().equals(indexName)) return index.state() == IndexStore.State.BUILT;
        }
        return null;
    }

    private void dropIndex(UUID indexId) {
        SharedFamily family = indexFamilies.remove(indexId);
        if (family == null) return;
        try {
            db.dropColumnFamily(family.handle());
            deleteMeta(INDEX_BUILT + indexId);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot drop storage of index " + indexId + ": " + e.getMessage(), e);
        } finally {
            family.retire();
        }
    }

    /** Drops the table's data. */
    public void dropTable(UUID tableId) {
        TableStore store;
        SharedFamily family;
        // Under the write lock: a write that holds the read lock (apply, persistPaxos) finishes first, and a later one
        // finds the table gone (persistPaxos refuses such steps one by one). Reads, scans and sweeps hold the family
        // instead (SharedFamily): the last of them closes it.
        installLock.writeLock().lock();
        try {
            store = tables.remove(tableId);
            family = families.remove(tableId);
        } finally {
            installLock.writeLock().unlock();
        }
        latencies.forget(tableId);
        sweptAt.remove(tableId);
        tablesWithTxnStates.remove(tableId);
        TrackedPartitions heldNow = held, awaitingNow = awaitingSweep;
        if (heldNow != null) heldNow.forget(tableId);
        if (awaitingNow != null) awaitingNow.forget(tableId);
        if (store != null) for (IndexStore index : store.indexes()) dropIndex(index.metadata().id());
        if (family == null) return;
        try {
            for (byte section : new byte[] {PAXOS_STATE, PLAIN_VERSION, TXN_STATE}) {
                byte[] start = paxosKey(section, tableId, null);
                db.deleteRange(paxosFamily, start, StorageKeys.prefixEnd(start));
            }
            db.delete(paxosFamily, paxosKey(TABLE_VERSION, tableId, null));
            db.dropColumnFamily(family.handle());
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot drop storage of table " + tableId + ": " + e.getMessage(), e);
        } finally {
            family.retire();
        }
    }

    /** Drops column families of tables and indexes that no longer exist (dropped while the node was down). */
    public void dropTablesOtherThan(Set<UUID> live) {
        for (UUID id : List.copyOf(families.keySet())) {
            if (!live.contains(id)) {
                log.info("dropping storage of a table no longer in the schema table_id={}", id);
                dropTable(id);
            }
        }
        Set<UUID> liveIndexes = new java.util.HashSet<>();
        for (TableStore table : tables.values()) for (IndexStore index : table.indexes()) liveIndexes.add(index.metadata().id());
        for (UUID id : List.copyOf(indexFamilies.keySet())) {
            if (!liveIndexes.contains(id)) {
                log.info("dropping storage of an index no longer in the schema index_id={}", id);
                dropIndex(id);
            }
        }
    }

    /** Deletes every row of the table. */
    public void truncate(UUID tableId) {
        TableStore table = store(tableId);
        byte[] all = new byte[9];
        java.util.Arrays.fill(all, (byte) 0xFF);
        try (SharedFamily.Held held = table.hold()) {
            // The table's version changes before and after, so no snapshot during the deletion matches a later one.
            byte[] tableVersion = paxosKey(TABLE_VERSION, tableId, null);
            db.put(paxosFamily, syncWriteOptions, tableVersion, versionBytes(nextPlainVersion()));
            db.deleteRange(table.family(), heldWriteOptions, new byte[0], all);
            for (IndexStore index : table.indexes()) {
                try (SharedFamily.Held entries = index.shared().tryHold()) {
                    if (entries != null) db.deleteRange(index.family(), heldWriteOptions, new byte[0], indexEnd(index.family()));
                }
            }
            db.put(paxosFamily, tableVersion, versionBytes(nextPlainVersion()));
            db.flushWal(true);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot truncate table " + table.metadata() + ": " + e.getMessage(), e);
        }
    }

    /** A key after every key of the family (index terms have no length bound, so: just past the last one). */
    private byte[] indexEnd(ColumnFamilyHandle family) {
        try (ReadOptions options = new ReadOptions().setTotalOrderSeek(true); RocksIterator it = db.newIterator(family, options)) {
            it.seekToLast();
            if (!it.isValid()) return new byte[] {0};
            byte[] last = it.key();
            return java.util.Arrays.copyOf(last, last.length + 1);
        }
    }

    private TableStore store(UUID tableId) {
        TableStore table = tables.get(tableId);
        if (table == null) throw new IllegalStateException("no storage for table " + tableId + " (dropped?)");
        return table;
    }

    /** An acceptor step {@link #persistPaxos} left out: its table was dropped before it could be written. */
    public static final class TableDroppedException extends IllegalStateException {
        public TableDroppedException(UUID tableId) {
            super("table " + tableId + " was dropped before this Paxos step could be written");
        }
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

    /**
     * Takes {@link #installLock}'s read lock for a write, or refuses the write once {@link #close} has run: RocksDB's
     * closed handles would crash the JVM, not throw.
     */
    private void lockOpenForWrite() {
        installLock.readLock().lock();
        if (closed) {
            installLock.readLock().unlock();
            throw new IllegalStateException("storage is closed: the node is stopping");
        }
    }

    private void write(Collection<Mutation> mutations, WriteOptions options) {
        long start = System.nanoTime();
        Set<UUID> written = new java.util.HashSet<>();
        lockOpenForWrite();
        try (WriteBatch batch = new WriteBatch()) {
            for (Mutation mutation : mutations) {
                PartitionUpdate update = mutation.update();
                store(update.tableId()).addTo(batch, update, mutation.writeId());
                // A blind put: every write that is not a Paxos decree changes the partition's plain-write version.
                batch.put(paxosFamily, paxosKey(PLAIN_VERSION, update.tableId(), update.key()), versionBytes(nextPlainVersion()));
                written.add(update.tableId());
            }
            db.write(options, batch);
            long nanos = System.nanoTime() - start;
            for (UUID table : written) latencies.of(table).writes().record(nanos, TimeUnit.NANOSECONDS);
        } catch (RocksDBException e) {
            throw refused("write", e);
        } finally {
            installLock.readLock().unlock();
        }
    }

    /** The exception for a write RocksDB refused: its message (the background error that stops writes, if one does). */
    private IllegalStateException refused(String what, RocksDBException e) {
        backgroundErrors.refused(e.getStatus());
        return new IllegalStateException("local storage refused the " + what + ": " + e.getMessage(), e);
    }

    /**
     * Calls {@code handler}, once, with the background error if RocksDB stops taking writes for a reason it does not
     * recover from by itself ({@link BackgroundErrors#unrecoverable}): only a restart brings writes back. Until a
     * handler is set, such an error is logged.
     */
    public void onUnrecoverableError(Consumer<String> handler) {
        unrecoverableHandler = handler;
    }

    private void checkBackgroundErrors() {
        if (unrecoverableReported) return;
        if (backgroundErrors.pending() == null) return;
        String error = backgroundErrors.unrecoverable(System.nanoTime(), UNRECOVERABLE_GRACE_NANOS, hasRoomToRecover(),
                RECOVERY_NANOS_MAX);
        if (error == null) return;
        unrecoverableReported = true;
        log.error("storage stopped taking writes after {}, and cannot take them again until the node restarts", error);
        Consumer<String> handler = unrecoverableHandler;
        if (handler != null) handler.accept(error);
    }

    /**
     * Whether the data directory has room for RocksDB to recover from a full disk: to flush every memtable twice over,
     * and 64 MiB besides (it waits for the largest write buffer to fit before it tries).
     */
    private boolean hasRoomToRecover() {
        try {
            long memtables = db.getAggregatedLongProperty("rocksdb.cur-size-all-mem-tables");
            return Files.getFileStore(directory).getUsableSpace() >= 2 * memtables + (64L << 20);
        } catch (RocksDBException | java.io.IOException e) {
            log.warn("cannot tell the free space of {}: {}", directory, e.getMessage());
            return false;
        }
    }

    /**
     * RocksDB's own slowdown signals, for admission's write tokens and the storage meters: the level 0 files of the
     * family that has most, the bytes compaction is behind by in all, and whether writes are delayed or stopped now.
     * Healthy if RocksDB cannot say (logged). A reading serves every caller for 100 ms (the admission ticker and the
     * three storage meters of a scrape), so the families are walked at most ten times a second.
     */
    public StorageHealth health() {
        HealthReading last = lastHealth;
        long now = System.nanoTime();
        if (last != null && now - last.readNanos() < HEALTH_VALID_NANOS) return last.health();
        StorageHealth health;
        try {
            health = readHealth();
        } catch (RocksDBException | NumberFormatException e) {
            log.warn("cannot read RocksDB's health: {}", e.getMessage());
            health = StorageHealth.HEALTHY;
        }
        lastHealth = new HealthReading(now, health);
        return health;
    }

    private record HealthReading(long readNanos, StorageHealth health) {}

    StorageHealth readHealth() throws RocksDBException {
        long l0 = level0Files(paxosFamily);
        for (SharedFamily family : concat(families.values(), indexFamilies.values())) l0 = Math.max(l0, level0Files(family));
        long pending = db.getAggregatedLongProperty("rocksdb.estimate-pending-compaction-bytes");
        boolean delayed = db.getLongProperty("rocksdb.actual-delayed-write-rate") > 0 || db.getLongProperty("rocksdb.is-write-stopped") > 0;
        return new StorageHealth(l0, tableOptions.level0SlowdownWritesTrigger(), pending, tableOptions.softPendingCompactionBytesLimit(), delayed);
    }

    /** A string property: RocksDB has no number form of it. */
    private long level0Files(ColumnFamilyHandle family) throws RocksDBException {
        return Long.parseLong(db.getProperty(family, "rocksdb.num-files-at-level0").trim());
    }

    /** 0 for a family dropped meanwhile. */
    private long level0Files(SharedFamily family) throws RocksDBException {
        try (SharedFamily.Held held = family.tryHold()) {
            return held == null ? 0 : level0Files(family.handle());
        }
    }

    /**
     * The flushes and compactions running now. RocksDB's thread list covers every database of the process, so only
     * this one's are kept; a family that is no table's any more (dropped meanwhile) is left out.
     */
    public List<StorageTask> tasks() {
        List<ThreadStatus> threads;
        try {
            threads = Env.getDefault().getThreadList();
        } catch (RocksDBException e) {
            log.warn("cannot read RocksDB's thread list: {}", e.getMessage());
            return List.of();
        }
        Map<Long, UUID> ids = new HashMap<>();
        List<StorageTask> tasks = new ArrayList<>();
        for (ThreadStatus thread : threads) {
            OperationType operation = thread.getOperationType();
            boolean flush = operation == OperationType.OP_FLUSH;
            if (!flush && operation != OperationType.OP_COMPACTION || !directory.toString().equals(thread.getDbName())) continue;
            Map<String, Long> properties = ThreadStatus.interpretOperationProperties(operation, thread.getOperationProperties());
            long job = properties.getOrDefault("JobID", (long) thread.getThreadId());
            UUID id = taskIds.get(job);
            if (id == null) id = TimeUuids.next(System.currentTimeMillis() - thread.getOperationElapsedTime() / 1000);
            ids.put(job, id);
            long progress = properties.getOrDefault(flush ? "BytesWritten" : "BytesRead", 0L);
            long total = properties.getOrDefault(flush ? "BytesMemtables" : "TotalInputBytes", 0L);
            String kind = flush ? "flush" : "compaction";
            String family = thread.getCfName();
            if (family.equals(PAXOS_FAMILY)) {
                tasks.add(new StorageTask(id, null, "paxos", kind, progress, total));
            } else if (family.equals(META_FAMILY) || family.equals("default")) {
                tasks.add(new StorageTask(id, null, "local", kind, progress, total));
            } else {
                UUID table = familyTable(family);
                if (table != null) tasks.add(new StorageTask(id, table, null, kind, progress, total));
            }
        }
        taskIds = ids; // only running jobs' ids are kept
        return tasks;
    }

    /** The table a table or index family belongs to, or null if none does now. */
    private UUID familyTable(String family) {
        UUID id;
        try {
            id = UUID.fromString(family.substring(2));
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            return null;
        }
        if (family.startsWith(TABLE_FAMILY_PREFIX)) return tables.containsKey(id) ? id : null;
        if (!family.startsWith(INDEX_FAMILY_PREFIX)) return null;
        for (TableStore store : tables.values()) {
            for (IndexStore index : store.indexes()) if (index.metadata().id().equals(id)) return store.metadata().id();
        }
        return null;
    }

    /** Background errors RocksDB has reported since the engine opened (BackgroundErrors). */
    public long backgroundErrorCount() {
        return backgroundErrors.count();
    }

    /** Whether a background error that stops writes has not been recovered from. */
    public boolean hasPendingBackgroundError() {
        return backgroundErrors.pending() != null;
    }

    // ---------------------------------------------------------------- Paxos (docs/paxos.md §9)

    /** The serialized acceptor registers of the partition, or null if it has none. */
    public byte[] paxosState(UUID tableId, PartitionKey key) {
        try {
            return lookup(paxosFamily, null, paxosKey(PAXOS_STATE, tableId, key));
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot read Paxos state of table " + tableId + ": " + e.getMessage(), e);
        }
    }

    /**
     * One partition's acceptor registers (null: delete them), the decree entries applied with them, and the partition's
     * new transaction state ({@code timestamp(8) · state}; null: unchanged), which the caller has checked is newer than
     * the stored one (docs/txn.md §11.1).
     */
    public record PaxosWrite(UUID tableId, PartitionKey key, byte[] state, Collection<Mutation> decreeEntries, byte[] txnState) {
        public PaxosWrite(UUID tableId, PartitionKey key, byte[] state, Collection<Mutation> decreeEntries) {
            this(tableId, key, state, decreeEntries, null);
        }
    }

    /** The partition's transaction state as stored ({@code timestamp(8) · state}), or null if it never had one. */
    public byte[] txnState(UUID tableId, PartitionKey key) {
        try {
            return lookup(paxosFamily, null, paxosKey(TXN_STATE, tableId, key));
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot read transaction state of table " + tableId + ": " + e.getMessage(), e);
        }
    }

    /**
     * The stored transaction states that may need the transaction sweep (docs/txn.md §11.1), each as a
     * {@link PaxosState} whose bytes are the stored state: read from the partitions {@link #trackTxnStates} follows, so a
     * pass costs what is in flight, not every partition a transaction ever touched (their emptied states stay as
     * tombstones). Empty until then.
     */
    public List<PaxosState> txnStatesAwaitingSweep() {
        TrackedPartitions awaiting = awaitingSweep;
        if (awaiting == null) return List.of();
        List<PaxosState> states = new ArrayList<>();
        awaiting.all().forEach((tableId, partitions) -> {
            for (PartitionKey key : partitions) {
                byte[] state = txnState(tableId, key);
                if (state != null && awaiting.passes(state)) states.add(new PaxosState(tableId, key, state));
            }
        });
        return states;
    }

    /** Whether this node stores a transaction state of some partition of the table. */
    public boolean holdsTxnStates(UUID tableId) {
        return tablesWithTxnStates.contains(tableId);
    }

    /** How many partitions the storage follows for the transaction sweep (what a pass reads), for tests. */
    long partitionsAwaitingSweep() {
        TrackedPartitions awaiting = awaitingSweep;
        return awaiting == null ? 0 : awaiting.size();
    }

    /**
     * From now on the storage keeps the tables with transaction states, the partitions whose state holds an intent,
     * and those whose state may need the transaction sweep ({@code holdsIntent} and {@code mayAwaitSweep} read a stored
     * state, {@code timestamp(8) · state}): it walks every stored state once, then follows the writes. The walk only
     * adds: a write during it that resolved an intent the walk then meets in its older snapshot leaves a partition
     * named that holds nothing (the sets may), never the reverse.
     */
    public void trackTxnStates(java.util.function.Predicate<byte[]> holdsIntent, java.util.function.Predicate<byte[]> mayAwaitSweep) {
        TrackedPartitions intents = new TrackedPartitions(holdsIntent);
        TrackedPartitions sweeps = new TrackedPartitions(mayAwaitSweep);
        long start = System.nanoTime();
        long states = 0;
        byte[] section = {TXN_STATE};
        RocksIterator walk;
        // Under the write lock: a persistPaxos that began before, and so follows neither set, has written what the walk
        // then reads; one that begins after follows both.
        installLock.writeLock().lock();
        try {
            this.held = intents;
            this.awaitingSweep = sweeps;
            walk = db.newIterator(paxosFamily);
        } finally {
            installLock.writeLock().unlock();
        }
        try (RocksIterator it = walk) {
            for (it.seek(section); it.isValid() && StorageKeys.hasPrefix(it.key(), section); it.next(), states++) {
                PaxosState state = paxosState(it);
                tablesWithTxnStates.add(state.tableId());
                intents.beforeWrite(state.tableId(), state.key(), state.state());
                sweeps.beforeWrite(state.tableId(), state.key(), state.state());
            }
        }
        log.info("transaction states read: {} states, {} partitions held by an intent, {} awaiting the sweep, in {} ms", states,
                intents.size(), sweeps.size(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }

    /**
     * A partition read with the partition's stored transaction state ({@code timestamp(8) · state}, null if none), for
     * a plain read that must notice an intent (docs/txn.md §10). The state is looked up first: the rows read after it
     * hold every write applied with it or before it.
     */
    public record ReadWithTxnState(PartitionData data, byte[] txnState) {}

    public ReadWithTxnState readWithTxnState(TableMetadata table, PartitionKey key, ReadSpec spec) {
        byte[] state = holdsTxnStates(table.id()) ? txnState(table.id(), key) : null;
        return new ReadWithTxnState(read(table, key, spec), state);
    }

    /**
     * Visits every partition's acceptor registers, read-only, from the implicit snapshot of one iterator: ordered by
     * table id, then key bytes (not token order).
     */
    public void forEachPaxosState(Consumer<PaxosState> visitor) {
        byte[] section = {PAXOS_STATE};
        try (RocksIterator it = db.newIterator(paxosFamily)) {
            for (it.seek(section); it.isValid() && StorageKeys.hasPrefix(it.key(), section); it.next())
                visitor.accept(paxosState(it));
        }
    }

    /**
     * Up to {@code limit} partitions' acceptor registers in key order, starting after {@code after} (null: from the
     * first). For long walks that must not pin an iterator (and the files it reads) while they wait between pages.
     */
    public List<PaxosState> paxosStates(PaxosState after, int limit) {
        return page(PAXOS_STATE, after, limit);
    }

    /** Up to {@code limit} entries of one section of the paxos column family in key order, after {@code after}. */
    private List<PaxosState> page(byte sectionByte, PaxosState after, int limit) {
        byte[] section = {sectionByte};
        List<PaxosState> page = new ArrayList<>(Math.min(limit, 1024));
        try (RocksIterator it = db.newIterator(paxosFamily)) {
            if (after == null) it.seek(section);
            else {
                byte[] last = paxosKey(sectionByte, after.tableId(), after.key());
                it.seek(last);
                if (it.isValid() && Arrays.equals(it.key(), last)) it.next();
            }
            for (; it.isValid() && StorageKeys.hasPrefix(it.key(), section) && page.size() < limit; it.next())
                page.add(paxosState(it));
        }
        return page;
    }

    private static PaxosState paxosState(RocksIterator it) {
        ByteBuffer key = ByteBuffer.wrap(it.key());
        UUID tableId = new UUID(key.getLong(1), key.getLong(9));
        return new PaxosState(tableId, PartitionKey.of(key.position(17)), it.value());
    }

    /**
     * Writes each partition's acceptor registers and applies its decrees' entries, all in one batch, returning once it
     * is synced to disk if {@code sync} (a group of acceptor steps pays one fsync), else once it is in the write-ahead
     * log, where a crash of the process cannot lose it (with {@code commitlog_sync: batch}, every write is synced).
     * The plain-write version is not touched.
     *
     * @return the writes left out because their table is dropped; the others are written
     */
    public List<PaxosWrite> persistPaxos(List<PaxosWrite> writes, boolean sync) {
        lockOpenForWrite();
        List<PaxosWrite> refused = new ArrayList<>(0);
        TrackedPartitions heldNow = held, awaitingNow = awaitingSweep;
        try (WriteBatch batch = new WriteBatch()) {
            for (PaxosWrite write : writes) {
                if (!tables.containsKey(write.tableId())) {
                    refused.add(write);
                    continue;
                }
                for (Mutation mutation : write.decreeEntries()) {
                    PartitionUpdate update = mutation.update();
                    if (!update.tableId().equals(write.tableId()) || !update.key().equals(write.key()))
                        throw new IllegalArgumentException("a decree entry for another partition: table " + update.tableId());
                    store(write.tableId()).addTo(batch, update, mutation.writeId());
                }
                byte[] key = paxosKey(PAXOS_STATE, write.tableId(), write.key());
                if (write.state() == null) batch.delete(paxosFamily, key);
                else batch.put(paxosFamily, key, write.state());
                if (write.txnState() != null) {
                    // Before the write: a plain read or scan that follows it must look the state up. A partition leaves
                    // the tracked sets only after the write that emptied it (below): they never miss one.
                    tablesWithTxnStates.add(write.tableId());
                    if (heldNow != null) heldNow.beforeWrite(write.tableId(), write.key(), write.txnState());
                    if (awaitingNow != null) awaitingNow.beforeWrite(write.tableId(), write.key(), write.txnState());
                    batch.put(paxosFamily, paxosKey(TXN_STATE, write.tableId(), write.key()), write.txnState());
                }
            }
            if (batch.count() > 0) db.write(sync ? syncWriteOptions : writeOptions, batch);
            for (PaxosWrite write : writes) {
                if (write.txnState() == null || refused.contains(write)) continue;
                if (heldNow != null) heldNow.afterWrite(write.tableId(), write.key(), write.txnState());
                if (awaitingNow != null) awaitingNow.afterWrite(write.tableId(), write.key(), write.txnState());
            }
            return refused;
        } catch (RocksDBException e) {
            throw refused("Paxos write", e);
        } finally {
            installLock.readLock().unlock();
        }
    }

    /**
     * Reads the partition for each spec and its plain-write version, and if {@code withTxnState} its transaction
     * state, all from one snapshot.
     */
    public VersionedRead readVersioned(TableMetadata table, PartitionKey key, List<ReadSpec> specs, boolean withTxnState) {
        TableStore store = store(table.id());
        byte[] prefix = StorageKeys.partitionPrefix(key);
        Snapshot snapshot = db.getSnapshot();
        try (SharedFamily.Held held = store.hold(); ReadOptions readOptions = new ReadOptions().setSnapshot(snapshot).setPrefixSameAsStart(true)) {
            List<PartitionData> partitions = new ArrayList<>(specs.size());
            for (ReadSpec spec : specs) {
                try (RocksIterator it = db.newIterator(store.family(), readOptions)) {
                    partitions.add(store.readPartition(it, prefix, key, spec, Math.min(spec.rowLimit(), spec.partitionRowLimit())));
                }
            }
            byte[] txnState = withTxnState ? lookup(paxosFamily, readOptions, paxosKey(TXN_STATE, table.id(), key)) : null;
            return new VersionedRead(partitions, plainVersion(readOptions, table.id(), key), txnState);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot read plain-write version of table " + table + ": " + e.getMessage(), e);
        } finally {
            db.releaseSnapshot(snapshot);
        }
    }

    /** The partition's plain-write version: never returns to an earlier value (0 if nothing was ever written). */
    public long plainVersion(UUID tableId, PartitionKey key) {
        try (ReadOptions readOptions = new ReadOptions()) {
            return plainVersion(readOptions, tableId, key);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot read plain-write version of table " + tableId + ": " + e.getMessage(), e);
        }
    }

    /** The later of the partition's own version and its table's truncation version (both come from one counter). */
    private long plainVersion(ReadOptions readOptions, UUID tableId, PartitionKey key) throws RocksDBException {
        byte[] partition = lookup(paxosFamily, readOptions, paxosKey(PLAIN_VERSION, tableId, key));
        byte[] table = lookup(paxosFamily, readOptions, paxosKey(TABLE_VERSION, tableId, null));
        return Math.max(partition == null ? 0 : ByteBuffer.wrap(partition).getLong(), table == null ? 0 : ByteBuffer.wrap(table).getLong());
    }

    /**
     * {@code db.get} for a key of the Paxos family, which is usually absent (a new partition's registers, and nearly
     * always its transaction state and plain-write versions). rocksdbjni's get throws and catches a C++ exception for
     * every absent key, which doubles the lookup's cost (PaxosLookupBenchmark); keyMayExist answers from the memtables
     * and the cached filters and blocks without one, with the value when it finds it there. Only a key it cannot settle
     * without reading from disk is looked up again. {@code options} null: the latest state.
     */
    private byte[] lookup(ColumnFamilyHandle family, ReadOptions options, byte[] key) throws RocksDBException {
        Holder<byte[]> found = new Holder<>();
        if (!db.keyMayExist(family, options, key, found)) return null;
        return found.getValue() != null ? found.getValue() : options == null ? db.get(family, key) : db.get(family, options, key);
    }

    private long nextPlainVersion() {
        return plainVersionBase + plainVersionCounter.getAndIncrement();
    }

    private static byte[] versionBytes(long version) {
        return ByteBuffer.allocate(8).putLong(0, version).array();
    }

    /** {@code section(1) · tableId(16) · partitionKey} ({@code key} null: the table's prefix). */
    private static byte[] paxosKey(byte section, UUID tableId, PartitionKey key) {
        ByteBuffer k = key == null ? ByteBuffer.allocate(0) : key.key();
        ByteBuffer out = ByteBuffer.allocate(17 + k.remaining());
        out.put(section).putLong(tableId.getMostSignificantBits()).putLong(tableId.getLeastSignificantBits()).put(k);
        return out.array();
    }

    // ---------------------------------------------------------------- reads

    /** Reads one partition: the rows of {@code spec}'s slices, merged, with the deletions that shadow data in them. */
    public PartitionData read(TableMetadata table, PartitionKey key, ReadSpec spec) {
        long start = System.nanoTime();
        TableStore store = store(table.id());
        byte[] prefix = StorageKeys.partitionPrefix(key);
        // No iterate_upper_bound: seekForPrev at the bound is undefined with one; readPartition checks its bounds.
        try (SharedFamily.Held held = store.hold(); RocksIterator it = db.newIterator(store.family(), partitionReadOptions)) {
            PartitionData data = store.readPartition(it, prefix, key, spec, Math.min(spec.rowLimit(), spec.partitionRowLimit()));
            latencies.of(table.id()).reads().record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            return data;
        }
    }

    /**
     * Reads the partitions of {@code range} in token order, stopping after {@code partitionLimit} partitions with live
     * data or when {@code spec.rowLimit()} live rows have been read.
     */
    public List<PartitionData> scan(TableMetadata table, TokenRange range, ReadSpec spec, int partitionLimit) {
        return scan(table, range, spec, partitionLimit, 0);
    }

    /**
     * {@link #scan}, also answering partitions without live data (deleted or expired), at most {@code deadMax} of them
     * (then the answer stops there): a replica's answer to a coordinator that merges several, where this replica's
     * deletions must shadow another's older data.
     */
    public List<PartitionData> scan(TableMetadata table, TokenRange range, ReadSpec spec, int partitionLimit, int deadMax) {
        return scan(table, range, spec, partitionLimit, deadMax, null);
    }

    /**
     * {@link #scan}, with the stored transaction state of each partition answered that has one, and of each partition
     * of the range that {@link #trackTxnStates} knows held by an intent, answered or not, read from the same snapshot as
     * the rows (docs/txn.md §10): {@code txnStates} receives them.
     */
    public List<PartitionData> scanWithTxnStates(TableMetadata table, TokenRange range, ReadSpec spec, int partitionLimit, int deadMax,
            Map<PartitionKey, byte[]> txnStates) {
        if (!holdsTxnStates(table.id())) return scan(table, range, spec, partitionLimit, deadMax, null);
        // The held partitions before the snapshot: one resolved after it leaves the set, but the snapshot still has
        // its intent and no rows.
        List<PartitionKey> keys = heldIn(table.id(), range);
        Snapshot snapshot = db.getSnapshot();
        try (ReadOptions stateOptions = new ReadOptions().setSnapshot(snapshot)) {
            List<PartitionData> partitions = scan(table, range, spec, partitionLimit, deadMax, snapshot);
            for (PartitionData p : partitions) keys.add(p.key());
            for (PartitionKey key : keys) {
                if (txnStates.containsKey(key)) continue;
                byte[] state = lookup(paxosFamily, stateOptions, paxosKey(TXN_STATE, table.id(), key));
                if (state != null) txnStates.put(key, state);
            }
            return partitions;
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot read transaction states of table " + table + ": " + e.getMessage(), e);
        } finally {
            db.releaseSnapshot(snapshot);
        }
    }

    /** The partitions of {@code range} in the table's held set, in token order: a walk from the range's start. */
    private List<PartitionKey> heldIn(UUID tableId, TokenRange range) {
        TrackedPartitions tracked = held;
        java.util.concurrent.ConcurrentSkipListSet<PartitionKey> partitions = tracked == null ? null : tracked.get(tableId);
        if (partitions == null || range.isEmpty()) return new ArrayList<>();
        List<PartitionKey> keys = new ArrayList<>();
        for (PartitionKey key : partitions.tailSet(PartitionKey.lowestOf(range.start()))) {
            if (key.token() > range.end()) break;
            if (range.contains(key)) keys.add(key);
        }
        return keys;
    }

    /**
     * The partitions of {@code range} whose stored transaction state holds an intent now (docs/txn.md §10): an index
     * query's answer may lack their transactions' writes, which are not resolved yet. Empty until {@link #trackTxnStates}.
     */
    public List<PartitionKey> heldByIntents(TableMetadata table, TokenRange range) {
        TrackedPartitions tracked = held;
        if (tracked == null) return List.of();
        List<PartitionKey> keys = new ArrayList<>();
        for (PartitionKey key : heldIn(table.id(), range)) {
            byte[] state = txnState(table.id(), key);
            if (state != null && tracked.passes(state)) keys.add(key);
        }
        return keys;
    }

    private static ReadOptions scanOptions(Snapshot snapshot) {
        ReadOptions options = new ReadOptions().setTotalOrderSeek(true);
        return snapshot == null ? options : options.setSnapshot(snapshot);
    }

    /** {@code snapshot} null: the iterator's own. */
    private List<PartitionData> scan(TableMetadata table, TokenRange range, ReadSpec spec, int partitionLimit, int deadMax, Snapshot snapshot) {
        TableStore store = store(table.id());
        List<PartitionData> result = new ArrayList<>();
        int rowsLeft = spec.rowLimit();
        int live = 0;
        int dead = 0;
        try (SharedFamily.Held held = store.hold(); ReadOptions readOptions = scanOptions(snapshot);
                RocksIterator it = db.newIterator(store.family(), readOptions)) {
            if (range.isEmpty()) return result;
            if (range.startAfter() != null) it.seek(StorageKeys.section(StorageKeys.partitionPrefix(range.startAfter()), StorageKeys.END));
            else it.seek(StorageKeys.tokenStart(range.start()));
            while (it.isValid() && live < partitionLimit && rowsLeft > 0 && (deadMax == 0 || dead < deadMax)) {
                byte[] k = it.key();
                if (StorageKeys.token(k) > range.end()) break;
                byte[] prefix = java.util.Arrays.copyOf(k, StorageKeys.partitionPrefixLength(k));
                PartitionKey key = StorageKeys.partitionKey(k);
                PartitionData partition = store.readPartitionAtItsStart(it, prefix, key, spec, Math.min(rowsLeft, spec.partitionRowLimit()));
                if (partition.hasLiveData(spec.nowInSec())) {
                    result.add(partition);
                    live++;
                    rowsLeft -= partition.liveRowCount(spec.nowInSec());
                } else if (deadMax > 0) {
                    result.add(partition);
                    dead++;
                }
                // A forward read that ran past the partition stopped at the next partition's first key: no seek needed.
                byte[] end = StorageKeys.section(prefix, StorageKeys.END);
                if (!it.isValid() || java.util.Arrays.compareUnsigned(it.key(), end) < 0) it.seek(end);
            }
        }
        return result;
    }

    /**
     * Answers an index query over a token range (docs/indexes.md, "Queries"): the partitions with rows that match
     * {@code expression} now, in token order, within the limits of {@link #scan}. Fails with
     * {@link IndexNotAvailableException} if any of {@code used} (the query's indexes) is still building here.
     */
    public List<PartitionData> indexScan(TableMetadata table, ballot.cql.index.IndexExpression expression, List<String> used,
            TokenRange range, ReadSpec spec, int partitionLimit) {
        TableStore store = store(table.id());
        IndexStore driving = null;
        for (String name : used) {
            IndexStore index = null;
            for (IndexStore i : store.indexes()) if (i.metadata().name().equals(name)) index = i;
            // An index this replica does not have yet (schema still on its way) cannot answer either.
            if (index == null || index.state() != IndexStore.State.BUILT) throw new IndexNotAvailableException(name);
            if (name.equals(expression.index())) driving = index;
        }
        if (driving == null) throw new IllegalArgumentException("index " + expression.index() + " drives a query that does not use it");
        Snapshot snapshot = db.getSnapshot();
        try (SharedFamily.Held tableHeld = store.hold(); SharedFamily.Held indexHeld = driving.hold();
                ReadOptions readOptions = new ReadOptions().setSnapshot(snapshot).setTotalOrderSeek(true);
                RocksIterator entries = db.newIterator(driving.family(), readOptions);
                RocksIterator data = db.newIterator(store.family(), readOptions)) {
            return new IndexScan(store, driving, expression, spec).run(entries, data, range, partitionLimit);
        } finally {
            db.releaseSnapshot(snapshot);
        }
    }

    // ---------------------------------------------------------------- sweeping

    /**
     * Sweeps every partition of the table (docs/storage.md, "Sweeping"): merges fragments and drops what gc_grace
     * allows. Returns how many keys were read.
     */
    public long sweep(UUID tableId, int nowInSec) {
        TableStore store = store(tableId);
        try (SharedFamily.Held held = store.hold()) {
            return sweep(store, nowInSec);
        }
    }

    private long sweep(TableStore store, int nowInSec) {
        UUID tableId = store.metadata().id();
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
        sweptAt.put(tableId, System.nanoTime());
        for (IndexStore index : store.indexes()) {
            if (index.state() != IndexStore.State.BUILT) continue;
            try (SharedFamily.Held held = index.shared().tryHold()) {
                if (held == null) continue; // dropped
                long stale = IndexSweep.run(db, store, index, nowInSec, heldWriteOptions);
                log.debug("swept index={} stale_entries={}", index.metadata().name(), stale);
            } catch (RocksDBException e) {
                throw new IllegalStateException("sweep of index " + index.metadata().name() + " failed: " + e.getMessage(), e);
            }
        }
        return keys;
    }

    private int sweepPartition(TableStore store, byte[] prefix, int nowInSec) {
        return sweep(store, new PartitionSweep(store, prefix, nowInSec, mergeIds), prefix);
    }

    /** Sweeps one partition; 0 if its table was dropped (nothing left to sweep). */
    private int sweep(TableStore store, PartitionSweep sweep, byte[] prefix) {
        SharedFamily.Held held = store.shared().tryHold();
        if (held == null) return 0;
        synchronized (sweepLocks[Math.floorMod(java.util.Arrays.hashCode(prefix), sweepLocks.length)]) {
            try (held; ReadOptions readOptions = new ReadOptions().setTotalOrderSeek(true);
                    RocksIterator it = db.newIterator(store.family(), readOptions);
                    WriteBatch batch = new WriteBatch()) {
                PartitionSweep.Result result = sweep.sweep(it, batch);
                if (batch.count() > 0) db.write(heldWriteOptions, batch);
                return result.keysRead();
            } catch (RocksDBException e) {
                if (store.shared().retired()) return 0; // dropped meanwhile
                throw new IllegalStateException("sweep of table " + store.metadata() + " failed: " + e.getMessage(), e);
            }
        }
    }

    /** Runs the sweeps that reads and writes asked for (the sweeper thread calls this every second). */
    void sweepRequested() {
        try {
            for (SweepQueue.WriteBack w = sweepQueue.pollWriteBack(); w != null; w = sweepQueue.pollWriteBack()) writeBack(w);
            int now = (int) (System.currentTimeMillis() / 1000);
            for (SweepQueue.Request r = sweepQueue.poll(); r != null; r = sweepQueue.poll()) {
                TableStore store = tables.get(r.table());
                if (store != null) sweep(store, new PartitionSweep(store, r.prefix(), now, r.scope(), r.row(), mergeIds), r.prefix());
            }
        } catch (RuntimeException e) {
            log.error("sweep of fragmented partitions failed; reads stay correct but slower until the next sweep", e);
        }
    }

    /** Replaces a row's fragments by the merge a read made of them (docs/storage.md, "Sweeping"). */
    private void writeBack(SweepQueue.WriteBack w) {
        TableStore store = tables.get(w.table());
        Long purged = sweptAt.get(w.table());
        if (store == null || purged != null && w.readNanos() - purged < 0) return;
        SharedFamily.Held held = store.shared().tryHold();
        if (held == null) return;
        synchronized (sweepLocks[Math.floorMod(java.util.Arrays.hashCode(w.prefix()), sweepLocks.length)]) {
            try (held; WriteBatch batch = new WriteBatch()) {
                for (byte[] key : w.keys()) batch.delete(store.family(), key);
                if (!w.merged().isEmpty()) batch.put(store.family(), StorageKeys.mergedKey(w.keys(), mergeIds), store.fragment(w.merged()));
                db.write(heldWriteOptions, batch);
            } catch (RocksDBException e) {
                if (store.shared().retired()) return; // dropped meanwhile
                throw new IllegalStateException("write-back of a merged row of " + store.metadata() + " failed: " + e.getMessage(), e);
            }
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
        lockOpenForWrite();
        try {
            db.put(metaFamily, syncWriteOptions, key.getBytes(StandardCharsets.UTF_8), value);
        } catch (RocksDBException e) {
            throw refused("write of local metadata " + key, e);
        } finally {
            installLock.readLock().unlock();
        }
    }

    /** Writes local metadata through the WAL without waiting for an fsync (best-effort data such as hints). */
    public void putMetaUnsynced(String key, byte[] value) {
        lockOpenForWrite();
        try {
            db.put(metaFamily, writeOptions, key.getBytes(StandardCharsets.UTF_8), value);
        } catch (RocksDBException e) {
            throw refused("write of local metadata " + key, e);
        } finally {
            installLock.readLock().unlock();
        }
    }

    public void deleteMeta(String key) {
        lockOpenForWrite();
        try {
            db.delete(metaFamily, syncWriteOptions, key.getBytes(StandardCharsets.UTF_8));
        } catch (RocksDBException e) {
            throw refused("delete of local metadata " + key, e);
        } finally {
            installLock.readLock().unlock();
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

    // ---------------------------------------------------------------- paxos family size (metrics gauges; not after close)

    /** RocksDB's estimate of the keys in the paxos family: registers, plain-write and table versions. */
    public long paxosEstimatedKeys() {
        return paxosProperty("rocksdb.estimate-num-keys");
    }

    /** Bytes of the paxos family's SST files. */
    public long paxosSstBytes() {
        return paxosProperty("rocksdb.total-sst-files-size");
    }

    /** Bytes of the paxos family's memtables, active and immutable. */
    public long paxosMemtableBytes() {
        return paxosProperty("rocksdb.cur-size-all-mem-tables");
    }

    private long paxosProperty(String property) {
        try {
            return db.getLongProperty(paxosFamily, property);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot read RocksDB property " + property + " of the paxos family: " + e.getMessage(), e);
        }
    }

    // ---------------------------------------------------------------- activity (metrics gauges; not after close)

    /** Compactions and flushes running now, the data's size on disk and in memtables, and the block cache's use. */
    public StorageActivity activity() {
        try {
            return new StorageActivity(db.getLongProperty("rocksdb.num-running-compactions"), db.getLongProperty("rocksdb.num-running-flushes"),
                    db.getAggregatedLongProperty("rocksdb.total-sst-files-size"), db.getAggregatedLongProperty("rocksdb.cur-size-all-mem-tables"),
                    blockCache.getUsage(), blockCache.getPinnedUsage(), blockCacheCapacity);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot read RocksDB's activity: " + e.getMessage(), e);
        }
    }

    // ---------------------------------------------------------------- admin calls (the admin CLI's flush, compact, tablestats)

    /**
     * One table's storage: RocksDB's estimate of its keys (one per cell or deletion, not per partition), its SST files
     * and their bytes (live: not awaiting deletion after a compaction), its memtables' bytes, and the local read and
     * write timers ({@link TableLatencies}).
     */
    public record TableStats(long estimatedKeys, int sstFiles, long sstBytes, long liveSstBytes, long memtableBytes,
            io.micrometer.core.instrument.Timer reads, io.micrometer.core.instrument.Timer writes) {}

    public TableStats tableStats(UUID tableId) {
        return withTable(tableId, "read the statistics of", store -> {
            ColumnFamilyHandle family = store.family();
            int files = 0;
            for (int level = 0; level < tableOptions.numLevels(); level++) files += Integer.parseInt(db.getProperty(family, "rocksdb.num-files-at-level" + level).trim());
            TableLatencies.Timers timers = latencies.of(tableId);
            return new TableStats(db.getLongProperty(family, "rocksdb.estimate-num-keys"), files,
                    db.getLongProperty(family, "rocksdb.total-sst-files-size"), db.getLongProperty(family, "rocksdb.live-sst-files-size"),
                    db.getLongProperty(family, "rocksdb.cur-size-all-mem-tables"), timers.reads(), timers.writes());
        });
    }

    /** Writes the table's memtables (and its indexes') to SST files, and returns once they are written. */
    public void flush(UUID tableId) {
        withTable(tableId, "flush", store -> {
            try (org.rocksdb.FlushOptions wait = new org.rocksdb.FlushOptions().setWaitForFlush(true)) {
                db.flush(wait, store.family());
                for (IndexStore index : store.indexes()) flushUnlessDropped(index.shared(), wait);
            }
            return null;
        });
    }

    /** Writes every memtable (tables, indexes, Paxos, meta) to SST files, and returns once they are written. */
    public void flushAll() {
        try (org.rocksdb.FlushOptions wait = new org.rocksdb.FlushOptions().setWaitForFlush(true)) {
            db.flush(wait, List.of(paxosFamily, metaFamily, defaultFamily));
            for (SharedFamily family : concat(families.values(), indexFamilies.values())) flushUnlessDropped(family, wait);
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot flush the memtables: " + e.getMessage(), e);
        }
    }

    /** Flushes the family, or nothing if it was dropped (before it could be held, or while it was flushed). */
    private void flushUnlessDropped(SharedFamily family, org.rocksdb.FlushOptions wait) throws RocksDBException {
        try (SharedFamily.Held held = family.tryHold()) {
            if (held != null) db.flush(wait, family.handle());
        } catch (RocksDBException e) {
            if (!family.retired()) throw e;
        } catch (IllegalArgumentException e) { // RocksJava's report of a status it cannot map: a dropped family's
            if (!family.retired()) throw e;
        }
    }

    /**
     * Compacts all of the table's SST files into its last level, and returns once done. Forced: files that do not
     * overlap would otherwise only be moved down, not merged.
     */
    public void compact(UUID tableId) {
        withTable(tableId, "compact", store -> {
            try (org.rocksdb.CompactRangeOptions force = new org.rocksdb.CompactRangeOptions()
                    .setBottommostLevelCompaction(org.rocksdb.CompactRangeOptions.BottommostLevelCompaction.kForce)) {
                db.compactRange(store.family(), null, null, force);
            }
            return null;
        });
    }

    /**
     * Writes a checkpoint of the whole database into {@code target} (which must not exist): the memtables are flushed,
     * then every live SST file is hard-linked there and the metadata files copied, so the copy is consistent at one
     * instant. Schema changes wait for it.
     */
    void checkpoint(Path target) {
        lockOpenForWrite();
        try (org.rocksdb.Checkpoint checkpoint = org.rocksdb.Checkpoint.create(db)) {
            checkpoint.createCheckpoint(target.toString());
        } catch (RocksDBException e) {
            throw new IllegalStateException("cannot write a checkpoint to " + target + ": " + e.getMessage(), e);
        } finally {
            installLock.readLock().unlock();
        }
    }

    /** Whether the table has storage here: virtual tables have none. */
    public boolean hasTable(UUID tableId) {
        return tables.containsKey(tableId);
    }

    /** Bytes of every SST file of the node: its load, as nodetool info reports it. */
    public long sstBytes() {
        return sstFiles.getTotalSize();
    }

    private interface TableCall<T> {
        T apply(TableStore store) throws RocksDBException;
    }

    /**
     * Runs an admin call on the table with its family held. RocksJava reports an operation on a family dropped meanwhile
     * as an IllegalArgumentException (a status code it cannot map): that is the table's drop, not a fault.
     */
    private <T> T withTable(UUID tableId, String what, TableCall<T> call) {
        TableStore store = store(tableId);
        try (SharedFamily.Held held = store.hold()) {
            return call.apply(store);
        } catch (RocksDBException | IllegalArgumentException e) {
            if (store.shared().retired()) throw new IllegalStateException("no storage for table " + store.metadata() + " (dropped?)", e);
            throw new IllegalStateException("cannot " + what + " table " + tableId + ": " + e.getMessage(), e);
        }
    }

    private static List<SharedFamily> concat(java.util.Collection<SharedFamily> a, java.util.Collection<SharedFamily> b) {
        List<SharedFamily> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    // ---------------------------------------------------------------- lifecycle

    private void syncWal() {
        // While RocksDB recovers from a failed log write (a full disk), a sync would fail on the log writer's earlier
        // error and turn the recoverable error into one it does not recover from: the next sync after recovery covers
        // the same writes.
        if (backgroundErrors.logFailed()) return;
        try {
            db.flushWal(true);
        } catch (RocksDBException e) {
            log.error("periodic commit log sync failed; acknowledged writes are not yet on disk: {}", e.getMessage());
        }
    }

    @Override
    public void close() {
        installLock.writeLock().lock(); // waits for the writes in progress
        try {
            closed = true;
        } finally {
            installLock.writeLock().unlock();
        }
        indexBuilder.shutdownNow();
        sweeper.shutdownNow();
        try {
            sweeper.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (walSyncer != null) walSyncer.shutdownNow();
        syncWal();
        try {
            indexBuilder.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (SharedFamily family : concat(families.values(), indexFamilies.values())) family.closeNow();
        metaFamily.close();
        paxosFamily.close();
        defaultFamily.close();
        db.close();
        writeOptions.close();
        heldWriteOptions.close();
        syncWriteOptions.close();
        partitionReadOptions.close();
        tableOptions.close();
        metaOptions.close();
        paxosOptions.close();
        indexOptions.close();
        dbOptions.close();
        sstFiles.close();
        backgroundErrors.close();
        blockCache.close();
        log.info("storage closed");
    }
}
