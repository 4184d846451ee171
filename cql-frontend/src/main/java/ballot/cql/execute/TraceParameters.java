package ballot.cql.execute;

import ballot.cql.ConsistencyLevel;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code parameters} of a system_traces.sessions row, named as Cassandra names them: the query, page size,
 * consistency levels and, for a prepared statement, each bound value as a CQL literal
 * ({@code bound_var_<i>_<name>}, cut at 1000 characters).
 */
final class TraceParameters {
    private static final int BOUND_VALUE_CHARS_MAX = 1000;

    private TraceParameters() {}

    /** @param query null when not known (an EXECUTE of a statement this node no longer has) */
    static Map<String, String> of(String query, QueryOptions options, List<ColumnSpec> variables) {
        Map<String, String> out = new LinkedHashMap<>();
        if (query != null) out.put("query", query);
        if (options.pageSize() > 0) out.put("page_size", Integer.toString(options.pageSize()));
        consistency(out, options.consistency(), options.serialConsistency());
        List<ByteBuffer> values = options.values();
        for (int i = 0; i < Math.min(values.size(), variables.size()); i++) {
            ByteBuffer value = values.get(i);
            ColumnSpec variable = variables.get(i);
            String literal = value == null ? "null" : value == QueryOptions.UNSET ? "unset" : variable.type().toCqlLiteral(value);
            if (literal.length() > BOUND_VALUE_CHARS_MAX) literal = literal.substring(0, BOUND_VALUE_CHARS_MAX) + "...";
            out.put("bound_var_" + i + "_" + variable.name(), literal);
        }
        return out;
    }

    static Map<String, String> ofBatch(ConsistencyLevel consistency, ConsistencyLevel serialConsistency) {
        Map<String, String> out = new LinkedHashMap<>();
        consistency(out, consistency, serialConsistency);
        return out;
    }

    private static void consistency(Map<String, String> out, ConsistencyLevel consistency, ConsistencyLevel serialConsistency) {
        if (consistency != null) out.put("consistency_level", consistency.name());
        if (serialConsistency != null) out.put("serial_consistency_level", serialConsistency.name());
    }
}
