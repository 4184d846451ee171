package ballot.cql.data;

import java.util.List;
import java.util.UUID;

/**
 * Everything one write does to one partition of one table. It is applied atomically on each replica and is
 * idempotent: storage keys it by {@code writeId}, so applying it twice stores it once.
 */
public record PartitionUpdate(UUID tableId, PartitionKey key, DeletionTime partitionDeletion,
        List<RangeTombstone> rangeTombstones, Row staticRow, List<Row> rows) {

    /**
     * About what the update weighs, as Cassandra's batch guardrail counts it: the key, and each row's clustering,
     * cell values and collection paths.
     */
    public long dataSize() {
        long size = key.key().remaining();
        if (staticRow != null) size += rowSize(staticRow);
        for (Row row : rows) size += rowSize(row);
        return size;
    }

    private static long rowSize(Row row) {
        long size = 0;
        for (java.nio.ByteBuffer value : row.clustering().values()) if (value != null) size += value.remaining();
        for (Cell cell : row.cells()) {
            if (cell.value() != null) size += cell.value().remaining();
            if (cell.path() != null) size += cell.path().remaining();
        }
        return size;
    }

    public boolean isEmpty() {
        return partitionDeletion.isLive() && rangeTombstones.isEmpty() && (staticRow == null || staticRow.isEmpty())
                && rows.isEmpty();
    }
}
