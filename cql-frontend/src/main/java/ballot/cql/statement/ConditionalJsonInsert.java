package ballot.cql.statement;

import ballot.cql.data.Clustering;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.Result;
import ballot.cql.schema.TableMetadata;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@code INSERT INTO t JSON '...' IF NOT EXISTS}: the JSON insert's write, applied only if its row does not exist, as
 * one compare-and-set (alone, or as part of a conditional BATCH).
 */
final class ConditionalJsonInsert implements CasPart {
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
    public boolean isConditional() {
        return true;
    }

    @Override
    public TableMetadata table() {
        return insert.table();
    }

    /** False: INSERT JSON on a counter table is refused when prepared. */
    @Override
    public boolean isCounter() {
        return false;
    }

    @Override
    public CompletableFuture<Result> execute(QueryContext context) {
        return CasBatch.run(List.of(this), List.of(context), context, false);
    }

    @Override
    public void addTo(CasBatch cas, QueryContext context) {
        Clustering row = insert.addWriteTo(cas, context);
        cas.conditions().requireExistence(row, false);
    }
}
