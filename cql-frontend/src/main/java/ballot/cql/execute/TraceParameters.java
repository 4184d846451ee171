package ballot.cql.execute;

import ballot.cql.ConsistencyLevel;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.type.CqlType;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code parameters} of a system_traces.sessions row, named as Cassandra names them: the query, page size,
 * consistency levels and, for a prepared statement, each bound value as a CQL literal
 * ({@code bound_var_<i>_<name>}, cut at 1000 characters and then ended with {@code ...'}, as Cassandra's
 * {@code ExecuteMessage.traceQuery} does).
 *
 * <p>Built on the event loop before the request runs, so a value is looked at only as far as those 1000 characters
 * need: a value of up to {@value #BOUND_VALUE_BYTES_MAX} bytes is rendered whole; of a larger text or blob only the
 * bytes the first characters come from; any other larger value (a big collection, say) is named by type and size.
 * The values are not validated yet: one that does not decode is named too, and its request fails later as usual.
 */
final class TraceParameters {
    private static final int BOUND_VALUE_CHARS_MAX = 1000;
    /** Enough for 1000 characters of any text literal: a character takes at most 4 bytes of UTF-8. */
    private static final int BOUND_VALUE_BYTES_MAX = 4 * BOUND_VALUE_CHARS_MAX;

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
            String literal = value == null ? "null" : value == QueryOptions.UNSET ? "unset" : literal(variable.type(), value);
            out.put("bound_var_" + i + "_" + variable.name(), literal);
        }
        return out;
    }

    /** {@code value} as a CQL literal of {@code type}, cut at {@value #BOUND_VALUE_CHARS_MAX} characters. */
    static String literal(CqlType type, ByteBuffer value) {
        String literal;
        try {
            if (value.remaining() <= BOUND_VALUE_BYTES_MAX) literal = type.toCqlLiteral(value);
            else if (type.kind() == CqlType.Kind.TEXT || type.kind() == CqlType.Kind.ASCII) literal = type.toCqlLiteral(textPrefix(value));
            else if (type.kind() == CqlType.Kind.BLOB) literal = type.toCqlLiteral(prefix(value, BOUND_VALUE_CHARS_MAX / 2));
            else return "(" + type.cqlName() + " of " + value.remaining() + " bytes)";
        } catch (RuntimeException malformed) {
            return "(malformed " + type.cqlName() + " of " + value.remaining() + " bytes)";
        }
        return literal.length() > BOUND_VALUE_CHARS_MAX ? literal.substring(0, BOUND_VALUE_CHARS_MAX) + "...'" : literal;
    }

    /** The first {@link #BOUND_VALUE_BYTES_MAX} bytes of UTF-8 text, less a character they would cut in two. */
    private static ByteBuffer textPrefix(ByteBuffer text) {
        int end = BOUND_VALUE_BYTES_MAX;
        while (end > 0 && (text.get(text.position() + end) & 0xC0) == 0x80) end--; // a continuation byte
        return prefix(text, end);
    }

    private static ByteBuffer prefix(ByteBuffer value, int bytes) {
        return value.slice(value.position(), bytes);
    }

    static Map<String, String> ofBatch(ConsistencyLevel consistency, ConsistencyLevel serialConsistency) {
        Map<String, String> out = new LinkedHashMap<>();
        consistency(out, consistency, serialConsistency);
        return out;
    }

    /** A request that names no serial consistency has SERIAL's, as Cassandra's decoder gives it, and it is traced so. */
    private static void consistency(Map<String, String> out, ConsistencyLevel consistency, ConsistencyLevel serialConsistency) {
        if (consistency != null) out.put("consistency_level", consistency.name());
        out.put("serial_consistency_level", (serialConsistency == null ? ConsistencyLevel.SERIAL : serialConsistency).name());
    }
}
