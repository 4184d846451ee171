package ballot.cql.protocol.message;

import ballot.cql.ConsistencyLevel;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Runs several DML statements as one batch. Values follow the rules of {@link QueryOptions#values()}. Named values
 * are not accepted in a batch (the spec itself says the feature cannot work, CASSANDRA-10246).
 *
 * @param serialConsistency null when not given (the server then uses SERIAL)
 * @param defaultTimestamp microseconds, or null when not given
 * @param keyspace v5 only, may be null
 * @param nowInSeconds v5 only, may be null
 */
public record Batch(BatchType type, List<Child> children, ConsistencyLevel consistency,
                    ConsistencyLevel serialConsistency, Long defaultTimestamp, String keyspace, Integer nowInSeconds)
        implements Request {
    public Batch {
        children = List.copyOf(children);
    }

    /** One statement of a batch and its positional values. */
    public sealed interface Child {
        List<ByteBuffer> values();
    }

    public record QueryChild(String query, List<ByteBuffer> values) implements Child {
        public QueryChild {
            values = QueryOptions.valueList(values);
        }
    }

    public record PreparedChild(ByteBuffer statementId, List<ByteBuffer> values) implements Child {
        public PreparedChild {
            values = QueryOptions.valueList(values);
        }
    }
}
