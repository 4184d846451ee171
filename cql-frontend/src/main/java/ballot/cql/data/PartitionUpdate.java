package ballot.cql.data;

import java.util.List;
import java.util.UUID;

/**
 * Everything one write does to one partition of one table. It is applied atomically on each replica and is
 * idempotent: storage keys it by {@code writeId}, so applying it twice stores it once.
 */
public record PartitionUpdate(UUID tableId, PartitionKey key, DeletionTime partitionDeletion,
        List<RangeTombstone> rangeTombstones, Row staticRow, List<Row> rows) {

    public boolean isEmpty() {
        return partitionDeletion.isLive() && rangeTombstones.isEmpty() && (staticRow == null || staticRow.isEmpty())
                && rows.isEmpty();
    }
}
