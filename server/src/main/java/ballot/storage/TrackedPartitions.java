package ballot.storage;

import ballot.cql.data.PartitionKey;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.function.Predicate;

/**
 * The partitions whose stored transaction state ({@code timestamp(8) · state}) passes a test, per table, in token
 * order: those held by an intent, or those the transaction sweep must look at. A partition joins before the write
 * of a state that passes and leaves only after the write of one that does not, so the set may name a partition
 * whose state no longer passes, never miss one whose state does (writes of one partition's state are not concurrent:
 * its acceptor persists one step at a time).
 */
final class TrackedPartitions {
    private final Predicate<byte[]> test;
    private final Map<UUID, ConcurrentSkipListSet<PartitionKey>> byTable = new ConcurrentHashMap<>();

    TrackedPartitions(Predicate<byte[]> test) {
        this.test = test;
    }

    boolean passes(byte[] stored) {
        return test.test(stored);
    }

    /** Before {@code stored} is written as the partition's state. */
    void beforeWrite(UUID tableId, PartitionKey key, byte[] stored) {
        if (test.test(stored)) of(tableId).add(key);
    }

    /** After {@code stored} is written as the partition's state. */
    void afterWrite(UUID tableId, PartitionKey key, byte[] stored) {
        if (test.test(stored)) return;
        ConcurrentSkipListSet<PartitionKey> partitions = byTable.get(tableId);
        if (partitions != null) partitions.remove(key);
    }

    /** The table's partitions, or null if it has none. */
    ConcurrentSkipListSet<PartitionKey> get(UUID tableId) {
        return byTable.get(tableId);
    }

    private ConcurrentSkipListSet<PartitionKey> of(UUID tableId) {
        return byTable.computeIfAbsent(tableId, t -> new ConcurrentSkipListSet<>());
    }

    /** Every table's partitions (the live sets, for reading). */
    Map<UUID, ConcurrentSkipListSet<PartitionKey>> all() {
        return byTable;
    }

    void forget(UUID tableId) {
        byTable.remove(tableId);
    }

    long size() {
        long n = 0;
        for (ConcurrentSkipListSet<PartitionKey> partitions : byTable.values()) n += partitions.size();
        return n;
    }
}
