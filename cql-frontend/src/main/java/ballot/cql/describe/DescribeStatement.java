package ballot.cql.describe;

import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Result;
import ballot.cql.protocol.message.Rows;
import ballot.cql.protocol.message.RowsMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.statement.CqlStatement;
import ballot.cql.statement.QueryContext;
import ballot.cql.statement.QueryEnvironment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A prepared DESCRIBE: fixed columns, and rows computed afresh from the schema snapshot at each execution (names are
 * resolved then, so a DESCRIBE prepared before a CREATE sees the new element). Pages are cut by row offset, as
 * Cassandra does; a row is built only if it is on the page being sent.
 */
final class DescribeStatement implements CqlStatement {
    private final List<ColumnSpec> columns;
    private final RowSource rows;

    /** The rows of one execution, in order; each is built only when its supplier is called. */
    @FunctionalInterface
    interface RowSource {
        Stream<Supplier<ByteBuffer[]>> rows(Schema schema, QueryEnvironment.NodeInfo node);
    }

    DescribeStatement(List<ColumnSpec> columns, RowSource rows) {
        this.columns = List.copyOf(columns);
        this.rows = rows;
    }

    @Override
    public RowsMetadata resultMetadata() {
        return RowsMetadata.of(columns);
    }

    @Override
    public CompletableFuture<Result> execute(QueryContext context) {
        Schema schema = context.environment().schemas().schema();
        QueryOptions options = context.options();
        long offset = options.pagingState() == null ? 0 : DescribePagingState.offset(options.pagingState(), schema.version());
        Stream<Supplier<ByteBuffer[]>> all = rows.rows(schema, context.environment().node()).skip(offset);
        // One row past the page tells whether another page follows; it is not built.
        List<Supplier<ByteBuffer[]>> page = (options.isPaged() ? all.limit(options.pageSize() + 1L) : all).toList();
        boolean more = options.isPaged() && page.size() > options.pageSize();
        int count = more ? options.pageSize() : page.size();
        List<ByteBuffer[]> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) out.add(page.get(i).get());
        RowsMetadata metadata = RowsMetadata.of(columns);
        if (more) metadata = metadata.withPagingState(DescribePagingState.encode(schema.version(), offset + count));
        return CompletableFuture.completedFuture(new Rows(metadata, out));
    }
}
