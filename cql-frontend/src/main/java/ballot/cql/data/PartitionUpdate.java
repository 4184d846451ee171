package ballot.cql.data;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Everything one write does to one partition of one table. It is applied atomically on each replica and is
 * idempotent: storage keys it by {@code writeId}, so applying it twice stores it once.
 */
public record PartitionUpdate(UUID tableId, PartitionKey key, DeletionTime partitionDeletion,
        List<RangeTombstone> rangeTombstones, Row staticRow, List<Row> rows) {

    /**
     * What the update weighs as Cassandra's batch guardrail counts it ({@code PartitionUpdate.dataSize}): not the key;
     * each row's clustering values, its liveness (a timestamp, and a TTL and expiry if it expires), its deletion
     * time, a deletion time per non-frozen collection or UDT column, and each cell's timestamp, TTL, local deletion
     * time, value and path; the static row (an empty one too);
     * and the partition deletion's timestamp with each range tombstone's bounds and deletion.
     */
    public long dataSize() {
        long size = (staticRow == null ? EMPTY_ROW_SIZE : rowSize(staticRow)) + TIMESTAMP_SIZE;
        for (Row row : rows) size += rowSize(row);
        for (RangeTombstone rt : rangeTombstones)
            size += valuesSize(rt.slice().start().prefix()) + valuesSize(rt.slice().end().prefix()) + TIMESTAMP_SIZE + INT_SIZE;
        return size;
    }

    private static final int TIMESTAMP_SIZE = 8;
    private static final int INT_SIZE = 4;
    /** A deletion time: its timestamp and local deletion time, counted for every row, deleted or not. */
    private static final int DELETION_SIZE = TIMESTAMP_SIZE + INT_SIZE;
    private static final int EMPTY_ROW_SIZE = TIMESTAMP_SIZE + DELETION_SIZE;

    private static long rowSize(Row row) {
        long size = valuesSize(row.clustering().values()) + TIMESTAMP_SIZE + DELETION_SIZE;
        if (row.liveness() != null && row.liveness().isExpiring()) size += 2 * INT_SIZE;
        // A non-frozen collection or UDT column carries its own deletion time, deleted or not.
        Set<Integer> complex = new HashSet<>();
        for (Cell cell : row.cells()) if (cell.path() != null) complex.add(cell.column());
        for (ComplexDeletion d : row.complexDeletions()) complex.add(d.column());
        size += (long) complex.size() * DELETION_SIZE;
        for (Cell cell : row.cells()) {
            size += TIMESTAMP_SIZE + 2 * INT_SIZE;
            if (cell.value() != null) size += cell.value().remaining();
            if (cell.path() != null) size += cell.path().remaining();
        }
        return size;
    }

    private static long valuesSize(java.nio.ByteBuffer[] values) {
        long size = 0;
        if (values != null) for (java.nio.ByteBuffer value : values) if (value != null) size += value.remaining();
        return size;
    }

    public boolean isEmpty() {
        return partitionDeletion.isLive() && rangeTombstones.isEmpty() && (staticRow == null || staticRow.isEmpty())
                && rows.isEmpty();
    }
}
