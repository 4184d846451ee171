package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.protocol.message.BatchType;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Result;
import ballot.cql.parse.Statement;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** A native-protocol BATCH: several prepared or text statements, each with its own values, run as one batch. */
public final class ProtocolBatch {
    private ProtocolBatch() {}

    public static CompletableFuture<Result> run(QueryEnvironment environment, BatchType type, List<CqlStatement> statements,
            List<List<ByteBuffer>> values, QueryOptions options, String keyspace) {
        List<BatchableStatement> modifications = new ArrayList<>(statements.size());
        for (CqlStatement s : statements) {
            if (!(s instanceof BatchableStatement m)) {
                throw new InvalidRequestException("Invalid statement in batch: only UPDATE, INSERT and DELETE statements are allowed.");
            }
            modifications.add(m);
        }
        ModificationStatement.checkWriteConsistency(options.consistency());
        QueryContext batch = new QueryContext(environment, keyspace, options, Bindings.NONE);
        List<QueryContext> contexts = new ArrayList<>(statements.size());
        for (int i = 0; i < statements.size(); i++) {
            contexts.add(batch.withBindings(Bindings.of(values.get(i), null, statements.get(i).markerNames())));
        }
        Statement.BatchType batchType = switch (type) {
            case LOGGED -> Statement.BatchType.LOGGED;
            case UNLOGGED -> Statement.BatchType.UNLOGGED;
            case COUNTER -> Statement.BatchType.COUNTER;
        };
        return BatchStatement.execute(modifications, contexts, batchType, batch);
    }
}
