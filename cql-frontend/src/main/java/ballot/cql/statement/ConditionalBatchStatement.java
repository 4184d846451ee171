package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.parse.Statement;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.Result;
import ballot.cql.schema.TableMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A BATCH with at least one conditional statement: one compare-and-set per partition it writes, run as one
 * transaction when there are several ({@link CasBatch}). Every condition of every statement must hold for any
 * statement, conditional or plain, to be written. A timestamp on the batch is refused, as on its conditional statements.
 */
final class ConditionalBatchStatement implements CqlStatement {
    private final List<CasPart> statements;
    private final Markers markers;

    ConditionalBatchStatement(Statement.BatchType type, List<CasPart> statements, Markers markers) {
        validate(type, statements);
        this.statements = statements;
        this.markers = markers;
    }

    /** Checks what a conditional batch can hold, text or protocol BATCH: writes of the batch's type. */
    static void validate(Statement.BatchType type, List<? extends CasPart> statements) {
        BatchStatement.checkCounters(type, statements.stream().map(CasPart::isCounter).toList());
    }

    @Override
    public boolean writesStorage() {
        return true;
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
    public List<Integer> partitionKeyIndexes() {
        return PartitionKeyIndexes.ofBatch(statements, markers);
    }

    @Override
    public boolean isConditional() {
        return true;
    }

    @Override
    public CompletableFuture<Result> execute(QueryContext context) {
        return CasBatch.run(statements, contexts(context), context, true);
    }

    @Override
    public List<ballot.cql.spi.CasRequest> participants(QueryContext context) {
        return List.copyOf(CasBatch.participants(statements, contexts(context), context, true));
    }

    private List<QueryContext> contexts(QueryContext context) {
        List<QueryContext> contexts = new ArrayList<>(statements.size());
        for (int i = 0; i < statements.size(); i++) contexts.add(context);
        return contexts;
    }
}
