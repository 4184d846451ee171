package ballot.storage;

import ballot.cql.data.Cell;
import ballot.cql.data.ComplexDeletion;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.LivenessInfo;
import ballot.cql.data.Row;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Merges the fragments of one row into the row they describe, with Cassandra's reconciliation (docs/storage.md,
 * "Fragments and reads"). The result keeps tombstones that still shadow something elsewhere (other replicas, later
 * hints) and drops only what is shadowed here. Counter deltas are summed.
 */
final class RowMerger {
    private RowMerger() {}

    /**
     * @param covering the strongest deletion over this row from outside it (partition deletion, range tombstones),
     *                 or {@link DeletionTime#LIVE}
     */
    static Row merge(List<Row> fragments, DeletionTime covering) {
        Row first = fragments.get(0);
        if (fragments.size() == 1 && covering.isLive() && first.deletion().isLive() && first.complexDeletions().isEmpty()
                && isCanonical(first)) {
            return first;
        }
        LivenessInfo liveness = LivenessInfo.EMPTY;
        DeletionTime deletion = DeletionTime.LIVE;
        Map<Integer, DeletionTime> complexDeletions = new TreeMap<>();
        for (Row fragment : fragments) {
            if (fragment.liveness().supersedes(liveness)) liveness = fragment.liveness();
            deletion = deletion.max(fragment.deletion());
            for (ComplexDeletion d : fragment.complexDeletions()) complexDeletions.merge(d.column(), d.deletion(), DeletionTime::max);
        }
        DeletionTime shadow = deletion.max(covering);
        if (shadow.deletes(liveness.timestamp())) liveness = LivenessInfo.EMPTY;

        Map<CellKey, Cell> winners = new HashMap<>();
        Map<Integer, long[]> counters = new TreeMap<>(); // column -> {sum, maxTimestamp}
        for (Row fragment : fragments) {
            for (Cell cell : fragment.cells()) {
                if (cell.counter()) {
                    long[] acc = counters.computeIfAbsent(cell.column(), c -> new long[] {0, Long.MIN_VALUE});
                    acc[0] += cell.counterValue();
                    acc[1] = Math.max(acc[1], cell.timestamp());
                    continue;
                }
                CellKey key = new CellKey(cell.column(), cell.path());
                Cell current = winners.get(key);
                if (current == null || cell.supersedes(current)) winners.put(key, cell);
            }
        }
        if (!counters.isEmpty()) sumCountersNewerThanTheirTombstones(fragments, counters, winners, shadow);

        List<Cell> cells = new ArrayList<>(winners.size());
        for (Cell cell : winners.values()) {
            if (shadow.deletes(cell.timestamp())) continue;
            DeletionTime complex = cell.path() == null ? null : complexDeletions.get(cell.column());
            if (complex != null && complex.deletes(cell.timestamp())) continue;
            cells.add(cell);
        }
        cells.sort(CELL_ORDER);
        List<ComplexDeletion> keptComplex = new ArrayList<>();
        complexDeletions.forEach((column, d) -> {
            if (!shadow.deletes(d.markedAt())) keptComplex.add(new ComplexDeletion(column, d));
        });
        return new Row(first.clustering(), liveness, deletion, cells, keptComplex);
    }

    /**
     * Counter deltas newer than the column's newest tombstone (and than the row's shadow) are summed into one cell;
     * a counter deleted after its last increment stays deleted.
     */
    private static void sumCountersNewerThanTheirTombstones(List<Row> fragments, Map<Integer, long[]> counters,
            Map<CellKey, Cell> winners, DeletionTime shadow) {
        for (Map.Entry<Integer, long[]> e : counters.entrySet()) {
            int column = e.getKey();
            CellKey key = new CellKey(column, null);
            Cell tombstone = winners.get(key);
            long deletedAt = tombstone == null ? Long.MIN_VALUE : tombstone.timestamp();
            long sum = 0;
            long maxTs = Long.MIN_VALUE;
            boolean any = false;
            for (Row fragment : fragments) {
                for (Cell cell : fragment.cells()) {
                    if (cell.column() != column || !cell.counter() || cell.timestamp() <= deletedAt || shadow.deletes(cell.timestamp())) continue;
                    sum += cell.counterValue();
                    maxTs = Math.max(maxTs, cell.timestamp());
                    any = true;
                }
            }
            if (any) winners.put(key, Cell.counterDelta(column, sum, maxTs));
        }
    }

    /** Simple cells only, one per column in column order: already what a merge would produce. */
    private static boolean isCanonical(Row row) {
        int previous = -1;
        for (Cell c : row.cells()) {
            if (c.counter() || c.path() != null || c.column() <= previous) return false;
            previous = c.column();
        }
        return true;
    }

    /**
     * Cells by column id, then path in unsigned byte order. Paths are stored so that byte order is the element order
     * where it matters (list element ids, UDT field indexes); map and set values are sorted by their key type when
     * the query layer assembles them.
     */
    static final Comparator<Cell> CELL_ORDER = (a, b) -> {
        int c = Integer.compare(a.column(), b.column());
        if (c != 0) return c;
        if (a.path() == null || b.path() == null) return a.path() == null ? (b.path() == null ? 0 : -1) : 1;
        return Cell.unsignedCompare(a.path(), b.path());
    };

    private record CellKey(int column, ByteBuffer path) {}
}
