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

    /**
     * The latest write timestamp anywhere in this data (cells, row liveness, every kind of deletion), or
     * {@code Long.MIN_VALUE} if there is none.
     */
    public long newestTimestamp() {
        long newest = Math.max(partitionDeletion.markedAt(), staticRow == null ? Long.MIN_VALUE : newest(staticRow));
        for (RangeTombstone t : rangeTombstones) newest = Math.max(newest, t.deletion().markedAt());
        for (Row row : rows) newest = Math.max(newest, newest(row));
        return newest;
    }

    private static long newest(Row row) {
        long newest = Math.max(row.liveness().timestamp(), row.deletion().markedAt());
        for (Cell cell : row.cells()) newest = Math.max(newest, cell.timestamp());
        for (ComplexDeletion d : row.complexDeletions()) newest = Math.max(newest, d.deletion().markedAt());
        return newest;
    }

    public int liveRowCount(int nowInSec) {
        int n = 0;
        for (Row row : rows) if (row.hasLiveData(nowInSec)) n++;
        return n;
    }
}
