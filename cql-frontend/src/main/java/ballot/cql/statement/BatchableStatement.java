package ballot.cql.statement;

import java.util.concurrent.CompletableFuture;

/** A statement that can be part of a BATCH: it adds its updates to a shared builder. */
interface BatchableStatement extends CqlStatement {
    CompletableFuture<UpdatesBuilder> collect(QueryContext context, UpdatesBuilder builder);

    boolean isCounter();

    boolean hasTimestamp();
}
