package ballot.cql.execute;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.ConsistencyLevel;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A traced EXECUTE's bound values, as Cassandra's ExecuteMessage.traceQuery writes them. */
class TraceParametersTest {
    @Test
    void namesEachBoundValueAsACqlLiteral() {
        Map<String, String> parameters = TraceParameters.of("INSERT INTO t (k, v, w, x) VALUES (?, ?, ?, ?)",
                QueryOptions.of(ConsistencyLevel.ONE, Arrays.asList(CqlTypes.INT.decompose(2), CqlTypes.TEXT.decompose("it's"), null,
                        QueryOptions.UNSET)),
                List.of(spec("k", CqlTypes.INT), spec("v", CqlTypes.TEXT), spec("w", CqlTypes.TEXT), spec("x", CqlTypes.INT)));
        assertThat(parameters).containsEntry("query", "INSERT INTO t (k, v, w, x) VALUES (?, ?, ?, ?)")
                .containsEntry("consistency_level", "ONE").containsEntry("serial_consistency_level", "SERIAL") // none sent: SERIAL
                .containsEntry("bound_var_0_k", "2")
                .containsEntry("bound_var_1_v", "'it''s'").containsEntry("bound_var_2_w", "null").containsEntry("bound_var_3_x", "unset");
    }

    /** Cassandra renders the whole value and cuts it; the first 1000 characters need only the start of a text or blob. */
    @Test
    void aLargeTextOrBlobIsItsFirstThousandCharacters() {
        String text = "é".repeat(2_000_000) + "'";
        assertThat(TraceParameters.literal(CqlTypes.TEXT, CqlTypes.TEXT.decompose(text)))
                .isEqualTo(cutAsCassandraDoes(CqlTypes.TEXT.toCqlLiteral(CqlTypes.TEXT.decompose(text))))
                .isEqualTo("'" + "é".repeat(999) + "...'");
        String quotes = "'".repeat(10_000);
        assertThat(TraceParameters.literal(CqlTypes.ASCII, CqlTypes.ASCII.decompose(quotes)))
                .isEqualTo(cutAsCassandraDoes(CqlTypes.ASCII.toCqlLiteral(CqlTypes.ASCII.decompose(quotes))));
        byte[] blob = new byte[1 << 20];
        Arrays.fill(blob, (byte) 0xab);
        assertThat(TraceParameters.literal(CqlTypes.BLOB, ByteBuffer.wrap(blob))).isEqualTo("0x" + "ab".repeat(499) + "...'");
        byte[] shortBlob = new byte[600];
        assertThat(TraceParameters.literal(CqlTypes.BLOB, ByteBuffer.wrap(shortBlob))).isEqualTo("0x" + "00".repeat(499) + "...'");
    }

    @Test
    void otherLargeValuesAreNamedBySize() {
        CqlType list = CqlTypes.parse("list<int>", null);
        List<Integer> ints = new ArrayList<>();
        for (int i = 0; i < 1000; i++) ints.add(i);
        ByteBuffer value = list.decompose(ints);
        assertThat(TraceParameters.literal(list, value)).isEqualTo("(list<int> of " + value.remaining() + " bytes)");
        assertThat(TraceParameters.literal(list, list.decompose(List.of(1, 2)))).isEqualTo("[1, 2]");
    }

    /** Bound values are validated when the statement runs, after the trace began: a bad one must not fail the tracing. */
    @Test
    void aMalformedValueIsNamedNotThrown() {
        ByteBuffer threeBytes = ByteBuffer.wrap(new byte[] {1, 2, 3});
        assertThat(TraceParameters.literal(CqlTypes.INT, threeBytes)).isEqualTo("(malformed int of 3 bytes)");
        Map<String, String> parameters = TraceParameters.of("SELECT * FROM t WHERE k = ?", QueryOptions.of(ConsistencyLevel.ONE,
                List.of(threeBytes)), List.of(spec("k", CqlTypes.INT)));
        assertThat(parameters).containsEntry("bound_var_0_k", "(malformed int of 3 bytes)");
        ByteBuffer invalidUtf8 = ByteBuffer.wrap("ab".getBytes(StandardCharsets.UTF_8)).put(1, (byte) 0xff);
        assertThat(TraceParameters.literal(CqlTypes.TEXT, invalidUtf8)).isEqualTo("(malformed text of 2 bytes)");
    }

    private static String cutAsCassandraDoes(String literal) {
        return literal.length() > 1000 ? literal.substring(0, 1000) + "...'" : literal;
    }

    private static ColumnSpec spec(String name, CqlType type) {
        return new ColumnSpec("ks", "t", name, type);
    }
}
