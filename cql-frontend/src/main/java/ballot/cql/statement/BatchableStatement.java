package ballot.cql.statement;

import java.util.concurrent.CompletableFuture;

/** A plain write that can be part of a BATCH: it adds its updates to a shared builder, or its write to a compare-and-set. */
interface BatchableStatement extends CasPart {
    CompletableFuture<UpdatesBuilder> collect(QueryContext context, UpdatesBuilder builder);

    boolean hasTimestamp();
}
