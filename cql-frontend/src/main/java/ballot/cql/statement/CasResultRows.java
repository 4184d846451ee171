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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The answer to a compare-and-set: {@code [applied]}, then one row per conditioned row that has live data, in
 * clustering order, with the conditioned columns (every column if a statement was IF EXISTS or IF NOT EXISTS). When no
 * clustering row is shown but the static row was conditioned and is live, it is shown alone. When no row is shown the
 * answer is {@code [applied]} alone, in one row, as Cassandra sends it.
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

    static Rows of(TableMetadata table, CasConditions conditions, boolean applied, CurrentPartition current, boolean batch) {
        ColumnSpec appliedSpec = new ColumnSpec(table.keyspace(), table.name(), "[applied]", CqlTypes.BOOLEAN);
        ByteBuffer appliedValue = CqlTypes.BOOLEAN.decompose(applied);
        List<RowView> shown = current.liveRows(conditions.rows());
        if (shown.isEmpty() && conditions.rows().contains(Clustering.STATIC)) {
            RowView staticRow = current.row(Clustering.STATIC);
            if (staticRow != null) shown = List.of(staticRow);
        }
        if (shown.isEmpty()) {
            return new Rows(RowsMetadata.of(List.of(appliedSpec)), List.<ByteBuffer[]>of(new ByteBuffer[] {appliedValue}));
        }
        Set<ColumnMetadata> columns = new LinkedHashSet<>();
        if (batch) {
            columns.addAll(table.partitionKey());
            columns.addAll(table.clustering());
        }
        for (ColumnMetadata c : table.columns()) {
            if (conditions.checksExistence() || conditions.columns().contains(c)) columns.add(c);
        }
        List<ColumnSpec> specs = new ArrayList<>();
        specs.add(appliedSpec);
        for (ColumnMetadata c : columns) specs.add(new ColumnSpec(table.keyspace(), table.name(), c.name(), c.type()));
        List<ByteBuffer[]> rows = new ArrayList<>(shown.size());
        for (RowView row : shown) {
            ByteBuffer[] values = new ByteBuffer[specs.size()];
            values[0] = appliedValue.duplicate();
            int i = 1;
            for (ColumnMetadata c : columns) values[i++] = row.value(c);
            rows.add(values);
        }
        return new Rows(RowsMetadata.of(specs), rows);
    }
}
