package ballot.cql.statement;

import ballot.cql.data.Clustering;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.TableMetadata;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The bound IF conditions of one compare-and-set, by the row each one reads: a clustering row, or STATIC for the static
 * row (conditions on static columns, existence of a statement that writes only static columns). The compare-and-set
 * applies only if every condition of every row holds. Several statements may require the same existence of a row, or
 * put column conditions on one row; mixing the two kinds on one row is refused with Cassandra's messages. Built while
 * a statement or batch is bound, read-only afterwards.
 */
final class CasConditions {
    /** What must hold of one row; {@code row} is null when the row has no live data. */
    private sealed interface RowCondition permits Existence, Columns {
        boolean holdsOn(RowView row);
    }

    private record Existence(boolean exists) implements RowCondition {
        public boolean holdsOn(RowView row) {
            return (row != null) == exists;
        }
    }

    private record Columns(List<ColumnCondition.Bound> conditions) implements RowCondition {
        public boolean holdsOn(RowView row) {
            for (ColumnCondition.Bound c : conditions) if (!c.holds(row)) return false;
            return true;
        }
    }

    /** By the table's row order: the conditions on {@code c = 2.5} and on {@code c = 2.50} are on one row. */
    private final Map<Clustering, RowCondition> byRow;
    /** In the order a not-applied answer shows them: each statement's regular columns, then its static ones. */
    private final Set<ColumnMetadata> columns = new LinkedHashSet<>();
    private boolean checksExistence;
    /** Whether the conditional statements write regular rows and the static row: which columns the compare-and-set reads. */
    private boolean writesRegular;
    private boolean writesStatic;

    CasConditions(TableMetadata table) {
        byRow = new TreeMap<>(table.rowOrder());
    }

    /** That a conditional statement of the compare-and-set writes a regular row, static columns, or both. */
    void writes(boolean regular, boolean statics) {
        writesRegular |= regular;
        writesStatic |= statics;
    }

    /**
     * The columns the compare-and-set reads, which decide the rows a not-applied answer shows and their values, as
     * Cassandra 5.0 reads them: every regular column if a statement writes a regular row, every static one if a
     * statement writes static columns, and otherwise the columns the IF conditions compare.
     */
    Set<ColumnMetadata> readColumns(TableMetadata table) {
        Set<ColumnMetadata> read = new LinkedHashSet<>();
        for (ColumnMetadata c : table.columns()) {
            if (c.isPrimaryKey()) continue;
            if ((c.isStatic() ? writesStatic : writesRegular) || columns.contains(c)) read.add(c);
        }
        return read;
    }

    /** IF EXISTS ({@code exists}) or IF NOT EXISTS on {@code row}. */
    void requireExistence(Clustering row, boolean exists) {
        RowCondition previous = byRow.get(row);
        if (previous instanceof Columns) {
            throw new InvalidRequestException("Cannot mix IF conditions and IF " + (exists ? "" : "NOT ") + "EXISTS for the same row");
        }
        if (previous instanceof Existence e && e.exists() != exists) {
            throw new InvalidRequestException("Cannot mix IF EXISTS and IF NOT EXISTS conditions for the same row");
        }
        byRow.put(row, new Existence(exists));
        checksExistence = true;
    }

    /** An IF condition on {@code column} of {@code row}. */
    void require(Clustering row, ColumnMetadata column, ColumnCondition.Bound condition) {
        RowCondition previous = byRow.get(row);
        // Cassandra names IF NOT EXISTS here whichever existence the row was given
        if (previous instanceof Existence) throw new InvalidRequestException("Cannot mix IF conditions and IF NOT EXISTS for the same row");
        if (previous == null) {
            previous = new Columns(new ArrayList<>());
            byRow.put(row, previous);
        }
        ((Columns) previous).conditions().add(condition);
        columns.add(column);
    }

    /** The rows the conditions read, STATIC included if any condition reads the static row. */
    Set<Clustering> rows() {
        return Collections.unmodifiableSet(byRow.keySet());
    }

    boolean holdOn(CurrentPartition current) {
        for (Map.Entry<Clustering, RowCondition> e : byRow.entrySet()) {
            if (!e.getValue().holdsOn(current.row(e.getKey()))) return false;
        }
        return true;
    }

    /** True if some statement is IF EXISTS or IF NOT EXISTS: its answer then shows whole rows. */
    boolean checksExistence() {
        return checksExistence;
    }

    /** The columns IF conditions compare, each once, in the order they were first required. */
    Set<ColumnMetadata> columns() {
        return Collections.unmodifiableSet(columns);
    }
}
