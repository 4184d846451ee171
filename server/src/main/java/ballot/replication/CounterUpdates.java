package ballot.replication;

import ballot.cql.data.Cell;
import ballot.cql.data.Clustering;
import ballot.cql.data.CounterContext;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.Row;
import ballot.cql.data.Slice;
import ballot.cql.schema.TableMetadata;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Turns counter increments into this node's new counter shards: for each incremented counter, the node's shard in the
 * current value gets clock + 1 and count + delta. Must run under the partition's counter lock on the node that owns
 * the shard, with {@code current} read under that lock, so no two increments read the same clock.
 */
final class CounterUpdates {
    private CounterUpdates() {}

    static boolean hasIncrements(PartitionUpdate update) {
        if (update.staticRow() != null && hasIncrements(update.staticRow())) return true;
        for (Row row : update.rows()) if (hasIncrements(row)) return true;
        return false;
    }

    private static boolean hasIncrements(Row row) {
        for (Cell cell : row.cells()) if (cell.isCounterDelta()) return true;
        return false;
    }

    /** The rows of {@code update} whose counters {@link #apply} must read. */
    static List<Slice> slices(PartitionUpdate update) {
        List<Slice> slices = new ArrayList<>();
        for (Row row : update.rows()) if (hasIncrements(row)) slices.add(Slice.of(row.clustering().values()));
        return slices;
    }

    static PartitionUpdate apply(TableMetadata table, PartitionUpdate update, PartitionData current, UUID hostId) {
        // Rows match by the table's order, not by bytes: the row of the decimal 2.50 is the row of 2.5.
        Map<Clustering, Row> currentRows = new TreeMap<>(table.rowOrder());
        for (Row row : current.rows()) currentRows.put(row.clustering(), row);
        // Several increments of one counter in one update (a batch) add up: the shard state is carried across rows.
        Map<Clustering, Map<Integer, long[]>> shardsByRow = new TreeMap<>(table.rowOrder());
        Row staticRow = update.staticRow() == null ? null
                : apply(update.staticRow(), current.staticRow(), hostId, shardsByRow.computeIfAbsent(Clustering.STATIC, c -> new HashMap<>()));
        List<Row> rows = new ArrayList<>(update.rows().size());
        for (Row row : update.rows()) {
            rows.add(apply(row, currentRows.get(row.clustering()), hostId, shardsByRow.computeIfAbsent(row.clustering(), c -> new HashMap<>())));
        }
        return new PartitionUpdate(update.tableId(), update.key(), update.partitionDeletion(), update.rangeTombstones(), staticRow, rows);
    }

    private static Row apply(Row row, Row current, UUID hostId, Map<Integer, long[]> shards) {
        if (!hasIncrements(row)) return row;
        List<Cell> cells = new ArrayList<>(row.cells().size());
        for (Cell cell : row.cells()) {
            if (!cell.isCounterDelta()) {
                cells.add(cell);
                continue;
            }
            long[] shard = shards.computeIfAbsent(cell.column(), column -> currentShard(current, column, hostId));
            shard[0]++;
            shard[1] += cell.counterValue();
            shard[2] = Math.max(shard[2], cell.timestamp());
            cells.add(Cell.counter(cell.column(), CounterContext.shard(hostId, shard[0], shard[1]), shard[2]));
        }
        return new Row(row.clustering(), row.liveness(), row.deletion(), cells, row.complexDeletions());
    }

    /** {clock, count, timestamp} of this host's shard of the column, from the current row. */
    private static long[] currentShard(Row current, int column, UUID hostId) {
        if (current != null) {
            for (Cell cell : current.cells()) {
                if (cell.column() == column && cell.counter() && !cell.isTombstone() && !cell.isCounterDelta()) {
                    long[] shard = CounterContext.shardOf(cell.value(), hostId);
                    return new long[] {shard[0], shard[1], Long.MIN_VALUE};
                }
            }
        }
        return new long[] {0, 0, Long.MIN_VALUE};
    }
}
