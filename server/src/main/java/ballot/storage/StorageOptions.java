package ballot.storage;

import java.nio.file.Path;

/**
 * Storage settings. {@code syncEveryWrite} is Cassandra's {@code commitlog_sync: batch}; otherwise the WAL is synced
 * every {@code syncPeriodMillis} ({@code commitlog_sync: periodic}).
 */
public record StorageOptions(Path directory, boolean syncEveryWrite, long syncPeriodMillis, long blockCacheBytes) {
    public static StorageOptions defaults(Path directory) {
        return new StorageOptions(directory, false, 10_000, 128L << 20);
    }
}
