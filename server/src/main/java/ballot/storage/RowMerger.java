package ballot.storage;

import ballot.cql.data.Cell;
import ballot.cql.data.Clustering;
import ballot.cql.data.ComplexDeletion;
import ballot.cql.data.CounterContext;
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
 * hints) and drops only what is shadowed here. Counter contexts are merged shard by shard (CounterContext).
 */
public final class RowMerger {
    private RowMerger() {}

    /**
     * @param covering the strongest deletion over this row from outside it (partition deletion, range tombstones),
     *                 or {@link DeletionTime#LIVE}
     */
    public static Row merge(List<Row> fragments, DeletionTime covering) {
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
        if (complexDeletions.isEmpty() && allSimple(fragments)) {
            return new Row(clustering(fragments), liveness, deletion, mergeSimple(fragments, shadow), List.of());
        }

        Map<CellKey, Cell> winners = new HashMap<>();
        Map<Integer, Cell> counters = new TreeMap<>();
        for (Row fragment : fragments) {
            for (Cell cell : fragment.cells()) {
                if (cell.counter() && !cell.isTombstone()) {
                    if (cell.isCounterDelta()) throw new IllegalStateException("unapplied counter increment in storage, column " + cell.column());
                    // shard by shard: a deleted shard must not merge into one written after the deletion
                    if (shadow.deletes(cell.timestamp())) continue;
                    counters.merge(cell.column(), cell, (a, b) -> Cell.counter(a.column(),
                            CounterContext.merge(a.value(), b.value()), Math.max(a.timestamp(), b.timestamp())));
                    continue;
                }
                CellKey key = new CellKey(cell.column(), cell.path());
                Cell current = winners.get(key);
                if (current == null || cell.supersedes(current)) winners.put(key, cell);
            }
        }
        // A deleted counter cell stays deleted: its tombstone wins over every increment, older or newer (Cassandra's
        // rule since CASSANDRA-7346), until a row, range or partition deletion shadows the tombstone itself. Those
        // deletions shadow each shard by its timestamp, as other cells (above).
        for (Cell counter : counters.values()) {
            CellKey key = new CellKey(counter.column(), null);
            Cell tombstone = winners.get(key);
            if (tombstone == null || shadow.deletes(tombstone.timestamp())) winners.put(key, counter);
        }

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
        return new Row(clustering(fragments), liveness, deletion, cells, keptComplex);
    }

    /**
     * The clustering a merged row keeps: of the forms its fragments were written in (the decimals 2.5 and 2.50 are one
     * row, docs/storage.md), the greatest in unsigned byte order, so that every replica, read and sweep keeps the same
     * whatever order the fragments come in, and a read repair's write converges on it.
     */
    private static Clustering clustering(List<Row> fragments) {
        Clustering kept = fragments.get(0).clustering();
        for (int i = 1; i < fragments.size(); i++) {
            Clustering c = fragments.get(i).clustering();
            if (c != kept && compareBytes(c.values(), kept.values()) > 0) kept = c;
        }
        return kept;
    }

    private static int compareBytes(ByteBuffer[] a, ByteBuffer[] b) {
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            int c = Cell.unsignedCompare(a[i], b[i]);
            if (c != 0) return c;
        }
        return Integer.compare(a.length, b.length);
    }

    /** True if no fragment has counter or multi-cell (path) cells: the cells can be merged by column id alone. */
    private static boolean allSimple(List<Row> fragments) {
        for (Row fragment : fragments) {
            for (Cell c : fragment.cells()) if (c.counter() || c.path() != null) return false;
        }
        return true;
    }

    /** The newest version of each column, by column id (ids are small and dense), without maps or sorting. */
    private static List<Cell> mergeSimple(List<Row> fragments, DeletionTime shadow) {
        int maxColumn = -1;
        for (Row fragment : fragments) {
            for (Cell c : fragment.cells()) maxColumn = Math.max(maxColumn, c.column());
        }
        Cell[] winners = new Cell[maxColumn + 1];
        int count = 0;
        for (Row fragment : fragments) {
            for (Cell c : fragment.cells()) {
                Cell current = winners[c.column()];
                if (current == null) count++;
                if (current == null || c.supersedes(current)) winners[c.column()] = c;
            }
        }
        List<Cell> cells = new ArrayList<>(count);
        for (Cell c : winners) if (c != null && !shadow.deletes(c.timestamp())) cells.add(c);
        return cells;
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
