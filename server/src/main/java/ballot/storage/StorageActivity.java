package ballot.storage;

/**
 * What RocksDB is doing, for the metrics and the storage dashboard: its background work (compactions and flushes
 * running now), what the data holds on disk and in memory (all column families together), and the shared block cache.
 */
public record StorageActivity(long runningCompactions, long runningFlushes, long sstBytes, long memtableBytes,
                              long blockCacheUsedBytes, long blockCachePinnedBytes, long blockCacheCapacityBytes) {}
