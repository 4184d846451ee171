package ballot.cql.statement;

import ballot.cql.WriteType;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.parse.Statement;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.Result;
import ballot.cql.protocol.message.VoidResult;
import ballot.cql.schema.TableMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * BEGIN [UNLOGGED | COUNTER] BATCH: the updates of all statements, merged per partition and written together with one
 * timestamp. Updates of one partition are applied atomically; a LOGGED batch over several partitions is applied in
 * one local write on a single node (cluster-wide atomicity through a batch log comes with replication).
 */
final class BatchStatement implements CqlStatement {
    private final Statement.BatchType type;
    private final List<BatchableStatement> statements;
    private final Markers markers;
    private final Value timestamp;
    private final StatementTimeout timeout;

    BatchStatement(Statement.BatchType type, List<BatchableStatement> statements, Markers markers, Value timestamp,
            StatementTimeout timeout) {
        this.type = type;
        this.statements = statements;
        this.markers = markers;
        this.timestamp = timestamp;
        this.timeout = timeout;
        for (BatchableStatement s : statements) {
            if (timestamp != null && s.hasTimestamp()) {
                throw new InvalidRequestException("Timestamp must be set either on BATCH or individual statements");
            }
            checkCounterType(type, s.isCounter());
        }
    }

    /** Counter writes go in COUNTER batches, and only they. */
    static void checkCounterType(Statement.BatchType type, boolean counter) {
        if (type == Statement.BatchType.COUNTER && !counter) {
            throw new InvalidRequestException("Only counter mutations are allowed in COUNTER batches");
        }
        if (type != Statement.BatchType.COUNTER && counter) {
            throw new InvalidRequestException("Counter mutations are only allowed in COUNTER batches");
        }
    }

    Statement.BatchType type() {
        return type;
    }

    @Override
    public List<ColumnSpec> variables() {
        return markers.specs();
    }

    @Override
    public List<TableMetadata> tables() {
        List<TableMetadata> tables = new ArrayList<>();
        for (CqlStatement s : statements) tables.addAll(s.tables());
        return tables;
    }

    @Override
    public List<String> markerNames() {
        return markers.names();
    }

    @Override
    public CompletableFuture<Result> execute(QueryContext statement) {
        ModificationStatement.checkWriteConsistency(statement.consistency());
        QueryContext context = timeout.applyTo(statement);
        QueryContext batch = context;
        if (timestamp != null) {
            java.nio.ByteBuffer ts = timestamp.bind(context.bindings());
            if (ts == null) throw new InvalidRequestException("Invalid null value of timestamp");
            if (ts != ballot.cql.protocol.message.QueryOptions.UNSET) batch = context.withTimestamp(ts.getLong(ts.position()));
        }
        List<QueryContext> contexts = new ArrayList<>();
        for (int i = 0; i < statements.size(); i++) contexts.add(batch);
        return execute(statements, contexts, type, batch);
    }

    /**
     * Runs a protocol BATCH: each statement with its own bound values, all sharing the batch's timestamp.
     */
    static CompletableFuture<Result> execute(List<BatchableStatement> statements, List<QueryContext> contexts,
            Statement.BatchType type, QueryContext batch) {
        UpdatesBuilder builder = new UpdatesBuilder();
        CompletableFuture<UpdatesBuilder> collected = CompletableFuture.completedFuture(builder);
        for (int i = 0; i < statements.size(); i++) {
            BatchableStatement statement = statements.get(i);
            QueryContext context = contexts.get(i);
            checkCounterType(type, statement.isCounter());
            collected = collected.thenCompose(b -> statement.collect(context, b));
        }
        WriteType writeType = switch (type) {
            case LOGGED -> WriteType.BATCH;
            case UNLOGGED -> WriteType.UNLOGGED_BATCH;
            case COUNTER -> WriteType.COUNTER;
        };
        return collected.thenCompose(b -> batch.data().write(b.build(), batch.consistency(), writeType))
                .thenApply(ignored -> new VoidResult());
    }
}
