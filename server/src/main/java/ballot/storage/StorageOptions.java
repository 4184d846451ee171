package ballot.storage;

import java.nio.file.Path;

/**
 * Storage settings. {@code syncEveryWrite} is Cassandra's {@code commitlog_sync: batch}; otherwise the WAL is synced
 * every {@code syncPeriodMillis} ({@code commitlog_sync: periodic}). Every table is swept every
 * {@code sweepPeriodSeconds} (0: only partitions that reads find fragmented are swept). RocksDB keeps at most
 * {@code openFilesMax} files open (-1: no limit), so that it cannot run the process out of file descriptors.
 */
public record StorageOptions(Path directory, boolean syncEveryWrite, long syncPeriodMillis, long blockCacheBytes,
        long sweepPeriodSeconds, int openFilesMax) {
    public StorageOptions(Path directory, boolean syncEveryWrite, long syncPeriodMillis, long blockCacheBytes, long sweepPeriodSeconds) {
        this(directory, syncEveryWrite, syncPeriodMillis, blockCacheBytes, sweepPeriodSeconds, -1);
    }

    public static StorageOptions defaults(Path directory) {
        return new StorageOptions(directory, false, 10_000, 128L << 20, 3600);
    }
}
