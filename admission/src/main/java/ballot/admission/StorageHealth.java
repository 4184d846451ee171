package ballot.admission;

/**
 * What the storage says of its ability to absorb writes (RocksDB's own slowdown signals).
 *
 * @param l0Files SST files in level 0, in the column family that has most
 * @param l0SlowdownTrigger level 0 files at which RocksDB slows writes down itself
 * @param pendingCompactionBytes bytes compaction is behind by, all column families together
 * @param pendingCompactionSoftLimit pending bytes at which RocksDB slows writes down itself
 * @param writesDelayed RocksDB is delaying or has stopped writes now
 */
public record StorageHealth(long l0Files, long l0SlowdownTrigger, long pendingCompactionBytes, long pendingCompactionSoftLimit,
        boolean writesDelayed) {
    public static final StorageHealth HEALTHY = new StorageHealth(0, 20, 0, 64L << 30, false);

    /**
     * Past half of a slowdown trigger, or delayed: admission limits writes before RocksDB does, since work waiting in
     * RocksDB's stall holds a thread and has no priority, while work waiting for admission holds neither.
     */
    public boolean overloaded() {
        return writesDelayed || 2 * l0Files >= l0SlowdownTrigger || 2 * pendingCompactionBytes >= pendingCompactionSoftLimit;
    }
}
