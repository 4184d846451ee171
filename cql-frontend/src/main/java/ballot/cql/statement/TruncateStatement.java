package ballot.cql.statement;

import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.Result;
import ballot.cql.protocol.message.VoidResult;
import ballot.cql.schema.TableMetadata;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** TRUNCATE: removes every row of the table on every node; with ScyllaDB's USING TIMEOUT it gives up after that long. */
record TruncateStatement(TableMetadata table, StatementTimeout timeout, Markers markers) implements CqlStatement {
    @Override
    public List<ColumnSpec> variables() {
        return markers.specs();
    }

    @Override
    public List<String> markerNames() {
        return markers.names();
    }

    @Override
    public CompletableFuture<Result> execute(QueryContext context) {
        return timeout.applyTo(context).data().truncate(table).thenApply(done -> new VoidResult());
    }
}
