package ballot.cql.statement;

import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Result;
import ballot.cql.protocol.message.VoidResult;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * TRUNCATE: removes every row of the table on every node; with ScyllaDB's USING TIMEOUT it gives up after that long.
 * The table is the one under the name when the statement runs ({@code lookup} of the current schema).
 */
record TruncateStatement(Function<Schema, TableMetadata> lookup, StatementTimeout timeout, Markers markers) implements CqlStatement {
    @Override
    public List<ColumnSpec> variables() {
        return markers.specs();
    }

    @Override
    public List<String> markerNames() {
        return markers.names();
    }

    @Override
    public Duration usingTimeout(QueryOptions options) {
        return timeout().before(options, markerNames());
    }

    @Override
    public CompletableFuture<Result> execute(QueryContext context) {
        TableMetadata table = lookup.apply(context.environment().schemas().schema());
        return timeout.applyTo(context).data().truncate(table).thenApply(done -> new VoidResult());
    }
}
