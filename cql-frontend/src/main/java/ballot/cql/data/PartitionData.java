package ballot.cql.data;

import java.util.List;

/**
 * What a read returns for one partition: rows merged across all their fragments and in the order asked for, with the
 * deletions that shadow data in the read's slices still attached, so replicas' answers can be reconciled. Rows in
 * {@code rows} may be dead (carry only deletions or tombstones); {@code staticRow} is null when there is none.
 */
public record PartitionData(PartitionKey key, DeletionTime partitionDeletion, List<RangeTombstone> rangeTombstones,
        Row staticRow, List<Row> rows) {

    public boolean hasLiveData(int nowInSec) {
        if (staticRow != null && staticRow.hasLiveData(nowInSec)) return true;
        for (Row row : rows) if (row.hasLiveData(nowInSec)) return true;
        return false;
    }

    public int liveRowCount(int nowInSec) {
        int n = 0;
        for (Row row : rows) if (row.hasLiveData(nowInSec)) n++;
        return n;
    }
}
