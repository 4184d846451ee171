package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.protocol.message.BatchType;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Response;
import ballot.cql.protocol.message.Result;
import ballot.cql.parse.Statement;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import ballot.cql.spi.StatementSource;

/**
 * A native-protocol BATCH: several prepared or text statements, each with its own values, run as one batch; as one
 * compare-and-set if any of them is conditional.
 */
public final class ProtocolBatch {
    private ProtocolBatch() {}

    /**
     * {@code sources}: what the client sent for each statement, for nodes that rebuild a transaction's steps; may be
     * empty. The answer carries the batch's warnings.
     */
    public static CompletableFuture<Response> run(QueryEnvironment environment, BatchType type, List<CqlStatement> statements,
            List<List<ByteBuffer>> values, QueryOptions options, String keyspace, List<StatementSource.Statement> sources) {
        List<BatchableStatement> plain = new ArrayList<>(statements.size());
        List<CasPart> parts = new ArrayList<>(statements.size());
        for (CqlStatement s : statements) {
            if (s instanceof BatchableStatement b) {
                plain.add(b);
                parts.add(b);
            } else if (s instanceof ConditionalPart c) {
                parts.add(c);
            } else {
                throw new InvalidRequestException("Invalid statement in batch: only UPDATE, INSERT and DELETE statements are allowed.");
            }
        }
        boolean conditional = plain.size() < parts.size();
        Statement.BatchType batchType = switch (type) {
            case LOGGED -> Statement.BatchType.LOGGED;
            case UNLOGGED -> Statement.BatchType.UNLOGGED;
            case COUNTER -> Statement.BatchType.COUNTER;
        };
        if (!conditional) ModificationStatement.checkWriteConsistency(options.consistency());
        QueryContext batch = new QueryContext(environment, keyspace, options, Bindings.NONE);
        if (!sources.isEmpty()) batch = batch.describedBy(sources, type);
        List<QueryContext> contexts = new ArrayList<>(statements.size());
        for (int i = 0; i < statements.size(); i++) {
            contexts.add(batch.withBindings(Bindings.of(values.get(i), null, statements.get(i).markerNames())));
        }
        CompletableFuture<Result> result;
        if (conditional) {
            ConditionalBatchStatement.validate(batchType, parts);
            result = CasBatch.run(parts, contexts, batch, true);
        } else {
            result = BatchStatement.execute(plain, contexts, batchType, batch);
        }
        List<String> warnings = batch.warnings();
        return result.thenApply(r -> r.withWarnings(warnings));
    }

    /** The compare-and-sets of a protocol BATCH with conditions, as {@link #run} submits them (one per partition). */
    static List<ballot.cql.spi.CasRequest> participants(QueryEnvironment environment, List<CqlStatement> statements,
            List<List<ByteBuffer>> values, QueryOptions options, String keyspace) {
        List<CasPart> parts = new ArrayList<>(statements.size());
        for (CqlStatement s : statements) {
            if (!(s instanceof CasPart part)) throw new InvalidRequestException("Invalid statement in batch: only UPDATE, INSERT and DELETE statements are allowed.");
            parts.add(part);
        }
        QueryContext batch = new QueryContext(environment, keyspace, options, Bindings.NONE);
        List<QueryContext> contexts = new ArrayList<>(statements.size());
        for (int i = 0; i < statements.size(); i++) {
            contexts.add(batch.withBindings(Bindings.of(values.get(i), null, statements.get(i).markerNames())));
        }
        return List.copyOf(CasBatch.participants(parts, contexts, batch, true));
    }
}
