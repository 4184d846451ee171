package ballot.cql.statement;

import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Result;
import ballot.cql.protocol.message.RowsMetadata;
import ballot.cql.schema.TableMetadata;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** A statement checked against the schema and ready to execute any number of times with different bound values. */
public interface CqlStatement {
    /** What each bind marker binds to, as PREPARED describes it; none by default. */
    default List<ColumnSpec> variables() {
        return List.of();
    }

    /** The name each marker's value goes by when values are sent by name ({@link Markers#names}); none by default. */
    default List<String> markerNames() {
        return List.of();
    }

    /** For each partition key column, the marker binding it; empty unless every key column is bound by a plain marker. */
    default List<Integer> partitionKeyIndexes() {
        return List.of();
    }

    /** The columns of the rows this statement returns; {@link RowsMetadata#EMPTY} if it returns none. */
    default RowsMetadata resultMetadata() {
        return RowsMetadata.EMPTY;
    }

    /** True for a conditional statement (IF NOT EXISTS, IF EXISTS, IF conditions): it runs as a lightweight transaction. */
    default boolean isConditional() {
        return false;
    }

    /**
     * The tables this statement reads or writes, as it was prepared against them. A prepared statement is dropped when
     * a schema change affects one of them ({@link TableMetadata#changeAffectsStatements}); a statement that looks its
     * tables up when it runs has none.
     */
    default List<TableMetadata> tables() {
        return List.of();
    }

    CompletableFuture<Result> execute(QueryContext context);

    /**
     * This execution's USING TIMEOUT, read from the client's values before the statement runs, so that admission
     * refuses it once it has waited that long (docs/admission.md); null without one, or with values its execution
     * refuses.
     */
    default Duration usingTimeout(QueryOptions options) {
        return null;
    }

    /**
     * The compare-and-sets this statement runs as one transaction in {@code context}, in the order it submits them
     * (docs/txn.md §11.1): the node that runs one of them rebuilds it from the statement the client sent.
     */
    default List<ballot.cql.spi.CasRequest> participants(QueryContext context) {
        throw new IllegalStateException("a statement that runs no transaction: " + getClass().getSimpleName());
    }

    /**
     * True if {@link #execute} never waits on anything (no read before write, no blocking join): such a statement may
     * run on the connection's event loop instead of being handed to the request executor.
     */
    default boolean executesWithoutWaiting() {
        return false;
    }

    /** Whether executing it writes rows to storage (its bound values are what it writes, about: admission's tokens). */
    default boolean writesStorage() {
        return false;
    }
}
