package ballot.cql.protocol.message;

import ballot.cql.ConsistencyLevel;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The {@code <query_parameters>} of QUERY and EXECUTE (native_protocol_v5.spec §4.1.4).
 *
 * @param values bound values in marker order; a null element is a null value and the {@link #UNSET} instance (compare
 *     with {@code ==}) an unset one (v4+)
 * @param valueNames the marker names of {@code values} when the client sent named values, else null
 * @param pageSize rows per page, or a value &lt;= 0 for no paging
 * @param pagingState where the previous page stopped, or null
 * @param serialConsistency null when not given (the server then uses SERIAL)
 * @param defaultTimestamp microseconds, or null when not given
 * @param keyspace v5 only: the keyspace to run in instead of the connection's, or null
 * @param nowInSeconds v5 only: the "now" to use for TTL and deletion times, or null
 */
public record QueryOptions(ConsistencyLevel consistency, List<ByteBuffer> values, List<String> valueNames,
                           boolean skipMetadata, int pageSize, ByteBuffer pagingState,
                           ConsistencyLevel serialConsistency, Long defaultTimestamp, String keyspace,
                           Integer nowInSeconds) {
    /**
     * The value of a bound marker the client left unset ([value] length -2): the column keeps its current value. A
     * distinct instance, recognised by identity only; it is empty, so never compare values with {@code equals} to it.
     */
    public static final ByteBuffer UNSET = ByteBuffer.allocate(0).asReadOnlyBuffer();

    public static final QueryOptions DEFAULT = of(ConsistencyLevel.ONE, List.of());

    public QueryOptions {
        values = valueList(values);
        if (valueNames != null) {
            valueNames = List.copyOf(valueNames);
            if (valueNames.size() != values.size())
                throw new IllegalArgumentException(valueNames.size() + " value names for " + values.size() + " values");
        }
    }

    public static QueryOptions of(ConsistencyLevel consistency, List<ByteBuffer> values) {
        return new QueryOptions(consistency, values, null, false, -1, null, null, null, null, null);
    }

    public boolean isPaged() {
        return pageSize > 0;
    }

    public QueryOptions withSkipMetadata(boolean skip) {
        return new QueryOptions(consistency, values, valueNames, skip, pageSize, pagingState, serialConsistency,
                defaultTimestamp, keyspace, nowInSeconds);
    }

    public QueryOptions withPaging(int newPageSize, ByteBuffer newPagingState) {
        return new QueryOptions(consistency, values, valueNames, skipMetadata, newPageSize, newPagingState,
                serialConsistency, defaultTimestamp, keyspace, nowInSeconds);
    }

    /** An unmodifiable copy that, unlike {@link List#copyOf}, keeps null elements (null values). */
    static List<ByteBuffer> valueList(List<ByteBuffer> values) {
        return Collections.unmodifiableList(new ArrayList<>(values));
    }
}
