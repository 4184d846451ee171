package ballot.cql.data;

import java.util.List;

/**
 * What a read returns for one partition: rows merged across all their fragments and in the order asked for, with the
 * deletions that shadow data in the read's slices still attached, so replicas' answers can be reconciled. Rows in
 * {@code rows} may be dead (carry only deletions or tombstones); {@code liveRows} counts the live ones.
 */
public record PartitionData(PartitionKey key, DeletionTime partitionDeletion, List<RangeTombstone> rangeTombstones,
        Row staticRow, List<Row> rows) {}
