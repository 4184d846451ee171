package ballot.cql.statement;

import ballot.cql.protocol.message.Result;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One conditional statement ({@code IF NOT EXISTS}, {@code IF EXISTS}, {@code IF} conditions, or an INSERT JSON with
 * {@code IF NOT EXISTS}): executed alone it is a compare-and-set of its own; in a BATCH it is one of the parts.
 * Never on a counter table: conditions there are refused when prepared.
 */
interface ConditionalPart extends CasPart {
    @Override
    default boolean isConditional() {
        return true;
    }

    @Override
    default boolean isCounter() {
        return false;
    }

    @Override
    default CompletableFuture<Result> execute(QueryContext context) {
        return CasBatch.run(List.of(this), List.of(context), context, false);
    }
}
