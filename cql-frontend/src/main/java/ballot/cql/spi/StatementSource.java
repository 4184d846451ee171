package ballot.cql.spi;

import ballot.cql.ConsistencyLevel;
import ballot.cql.protocol.message.BatchType;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * What a client sent for one execution, enough for another node to prepare and bind it again exactly as the
 * coordinator did (docs/txn.md §11.1, "Coordination"): the statements' text and bound values, the keyspace, the
 * consistency levels and the request's time. Preparing the same text against the same schema and binding the same
 * values at the same time gives the same deterministic compare-and-sets.
 *
 * @param batchType a protocol BATCH's type; null for one statement (which may itself be a text BATCH)
 */
public record StatementSource(String keyspace, List<Statement> statements, BatchType batchType, ConsistencyLevel consistency,
        ConsistencyLevel serial, int nowInSec) {
    public StatementSource {
        statements = List.copyOf(statements);
        if (statements.isEmpty()) throw new IllegalArgumentException("a statement source without statements");
    }

    /** One statement's text, bound values and their names (null when bound by position). */
    public record Statement(String cql, List<ByteBuffer> values, List<String> valueNames) {
        public Statement {
            values = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(values));
            valueNames = valueNames == null ? null : List.copyOf(valueNames);
        }
    }
}
