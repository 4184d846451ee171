package ballot.cql.statement;

import ballot.cql.data.Clustering;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.Rows;
import ballot.cql.protocol.message.RowsMetadata;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.TableMetadata;
import ballot.cql.type.CqlTypes;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.LinkedHashMap;

/**
 * The answer to a compare-and-set: {@code [applied]}, then one row per conditioned row that has live data, in
 * clustering order, with the conditioned columns in the order Cassandra lists them (each statement's regular columns,
 * then its static ones; every column if a statement was IF EXISTS or IF NOT EXISTS), the columns the compare-and-set
 * does not read null ({@link CasConditions#readColumns}). When the static row alone was conditioned, the
 * partition's first row is shown with it (or the static row alone). When no row is shown the answer is
 * {@code [applied]} alone, in one row, as Cassandra sends it.
 *
 * <p>The values are those the conditions were evaluated on: the current ones when not applied (Cassandra), the
 * previous ones when applied (ScyllaDB; Cassandra then sends {@code [applied]} alone), so a client learns what it
 * replaced without another read. Every row carries {@code [applied]}, so drivers that read it from the first row (the
 * Java driver's {@code wasApplied()}, the Python driver's {@code was_applied}) or from any row (gocql's
 * {@code MapExecuteBatchCAS}) read it right. A batch's rows start with the primary key columns, as in Cassandra, so
 * that rows of several clusterings can be told apart; a single statement's do not.
 */
final class CasResultRows {
    private CasResultRows() {}

    /** {@code [applied]} = true alone, in one row. */
    static Rows applied(TableMetadata table) {
        ColumnSpec appliedSpec = new ColumnSpec(table.keyspace(), table.name(), "[applied]", CqlTypes.BOOLEAN);
        return new Rows(RowsMetadata.of(List.of(appliedSpec)), List.<ByteBuffer[]>of(new ByteBuffer[] {CqlTypes.BOOLEAN.decompose(true)}));
    }

    /**
     * The rows the answer shows of one partition: its conditioned rows that the compare-and-set's read returns
     * ({@link CasConditions#readColumns}), with the values of the columns it reads. Cassandra reads the static row with
     * the partition's first row: a condition on it alone shows that row (its static columns null if the static row has
     * no live data), or the static row alone if the partition has no row the read returns.
     */
    private static List<RowView> shownRows(CurrentPartition current, CasConditions c) {
        Set<ColumnMetadata> read = c.readColumns(current.table());
        List<RowView> shown = new ArrayList<>();
        for (RowView row : current.liveRows(c.rows())) {
            RowView seen = row.reading(read);
            if (seen.isLive()) shown.add(seen);
        }
        if (shown.isEmpty() && c.rows().contains(Clustering.STATIC)) {
            for (RowView candidate : Arrays.asList(current.firstLiveRow(), current.row(Clustering.STATIC))) {
                RowView seen = candidate == null ? null : candidate.reading(read);
                if (seen != null && seen.isLive()) {
                    shown.add(seen);
                    break;
                }
            }
        }
        return shown;
    }

    /**
     * The answer for one compare-and-set per partition: {@code currents[i]} is partition {@code i} as its
     * {@code conditions[i]} were evaluated. With several partitions the rows come partition by partition; their
     * columns are those of every table involved, a row holding null in the columns of the other tables.
     */
    static Rows of(List<CurrentPartition> currents, List<CasConditions> conditions, boolean applied, boolean batch) {
        TableMetadata first = currents.get(0).table();
        ColumnSpec appliedSpec = new ColumnSpec(first.keyspace(), first.name(), "[applied]", CqlTypes.BOOLEAN);
        ByteBuffer appliedValue = CqlTypes.BOOLEAN.decompose(applied);
        List<List<RowView>> shownByPartition = new ArrayList<>(currents.size());
        Map<TableMetadata, Set<ColumnMetadata>> columnsByTable = new LinkedHashMap<>();
        for (int i = 0; i < currents.size(); i++) {
            CurrentPartition current = currents.get(i);
            CasConditions c = conditions.get(i);
            List<RowView> shown = shownRows(current, c);
            shownByPartition.add(shown);
            if (shown.isEmpty()) continue;
            TableMetadata table = current.table();
            Set<ColumnMetadata> columns = columnsByTable.computeIfAbsent(table, t -> new LinkedHashSet<>());
            if (batch) {
                columns.addAll(table.partitionKey());
                columns.addAll(table.clustering());
            }
            columns.addAll(c.checksExistence() ? table.columns() : c.columns());
        }
        if (columnsByTable.isEmpty()) {
            return new Rows(RowsMetadata.of(List.of(appliedSpec)), List.<ByteBuffer[]>of(new ByteBuffer[] {appliedValue}));
        }
        List<ColumnSpec> specs = new ArrayList<>();
        specs.add(appliedSpec);
        for (Map.Entry<TableMetadata, Set<ColumnMetadata>> e : columnsByTable.entrySet()) {
            for (ColumnMetadata c : e.getValue()) specs.add(new ColumnSpec(e.getKey().keyspace(), e.getKey().name(), c.name(), c.type()));
        }
        List<ByteBuffer[]> rows = new ArrayList<>();
        for (int p = 0; p < currents.size(); p++) {
            TableMetadata table = currents.get(p).table();
            for (RowView row : shownByPartition.get(p)) {
                ByteBuffer[] values = new ByteBuffer[specs.size()];
                values[0] = appliedValue.duplicate();
                int i = 1;
                for (Map.Entry<TableMetadata, Set<ColumnMetadata>> e : columnsByTable.entrySet()) {
                    boolean own = e.getKey() == table;
                    for (ColumnMetadata c : e.getValue()) values[i++] = own ? row.value(c) : null;
                }
                rows.add(values);
            }
        }
        return new Rows(RowsMetadata.of(specs), rows);
    }
}
