package ballot.storage;

/** One table's data on this node, as RocksDB estimates it: its SST files, its memtables and its keys (cells). */
public record TableSize(long sstBytes, long memtableBytes, long estimatedKeys) {
    public static final TableSize EMPTY = new TableSize(0, 0, 0);
}
