package ballot.storage;

import java.util.UUID;

/**
 * A flush or compaction the storage engine is running now, as RocksDB's thread status reports it: what
 * {@code system_views.sstable_tasks} and {@code ballot admin compactionstats} show.
 *
 * @param id stable for the task's life (one per RocksDB job)
 * @param table the user table whose data (or index) the task writes, or null for a node-local family
 * @param systemTable for a node-local family, the system table it holds ({@code paxos}, {@code local}); else null
 * @param kind {@code compaction} or {@code flush}
 * @param progress bytes done: read by a compaction, written by a flush
 * @param total bytes to do: a compaction's input, a flush's memtables
 */
public record StorageTask(UUID id, UUID table, String systemTable, String kind, long progress, long total) {}
