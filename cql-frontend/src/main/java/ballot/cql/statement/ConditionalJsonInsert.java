package ballot.cql.statement;

import ballot.cql.data.Clustering;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.schema.TableMetadata;
import java.util.List;

/**
 * {@code INSERT INTO t JSON '...' IF NOT EXISTS}: the JSON insert's write, applied only if its row does not exist, as
 * one compare-and-set (alone, or as part of a conditional BATCH).
 */
final class ConditionalJsonInsert implements ConditionalPart {
    private final InsertJsonStatement insert;

    ConditionalJsonInsert(InsertJsonStatement insert) {
        this.insert = insert;
    }

    @Override
    public List<ColumnSpec> variables() {
        return insert.variables();
    }

    @Override
    public List<String> markerNames() {
        return insert.markerNames();
    }

    @Override
    public TableMetadata table() {
        return insert.table();
    }

    @Override
    public void addTo(CasBatch cas, QueryContext context) {
        Clustering row = insert.addWriteTo(cas, context, true);
        cas.conditions().requireExistence(row, false);
    }
}
