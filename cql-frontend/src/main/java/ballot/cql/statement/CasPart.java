package ballot.cql.statement;

import ballot.cql.schema.TableMetadata;
import java.util.List;

/**
 * A statement that can take part in a compare-and-set on one partition: a conditional statement, alone or in a BATCH,
 * or a plain write batched with one (applied only if every condition of the batch holds).
 */
interface CasPart extends CqlStatement {
    TableMetadata table();

    @Override
    default List<TableMetadata> tables() {
        return List.of(table());
    }

    boolean isCounter();

    @Override
    default boolean writesStorage() {
        return true;
    }

    /** Adds this statement, with {@code context}'s values, to {@code cas}: its write, and its conditions if it has any. */
    void addTo(CasBatch cas, QueryContext context);
}
