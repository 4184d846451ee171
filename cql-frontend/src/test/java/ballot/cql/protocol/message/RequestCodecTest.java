package ballot.cql.protocol.message;

import static ballot.cql.protocol.message.DriverCodec.driverRequest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.ConsistencyLevel;
import ballot.cql.error.ProtocolException;
import ballot.cql.protocol.Envelope;
import ballot.cql.protocol.Opcode;
import ballot.cql.protocol.ProtocolVersion;
import ballot.cql.protocol.TestBytes;
import com.datastax.oss.protocol.internal.ProtocolConstants;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class RequestCodecTest {
    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static Request roundTrip(Request request, ProtocolVersion version) {
        Envelope envelope = RequestCodec.encode(request, 3, version, ballot.cql.protocol.TestBytes.UNTRACKED);
        try {
            return RequestCodec.decode(envelope);
        } finally {
            envelope.release();
        }
    }

    private static Envelope envelope(ProtocolVersion version, Opcode opcode, String bodyHex) {
        return new Envelope(version, 0, 0, opcode, TestBytes.hex(bodyHex));
    }

    @Test
    void decodesAQueryBodyFromSpecBytes() {
        // <query: [long string]><consistency: ONE><flags: [byte] 0>
        Envelope e = envelope(ProtocolVersion.V4, Opcode.QUERY, "00 00 00 08 53 45 4c 45 43 54 20 31  00 01  00");

        assertThat(RequestCodec.decode(e)).isEqualTo(new Query("SELECT 1", QueryOptions.of(ConsistencyLevel.ONE, List.of())));
    }

    @Test
    void readsV5QueryFlagsAsAnInt() {
        // consistency QUORUM, flags [int] 0x0180 (keyspace, now_in_seconds)
        Envelope e = envelope(ProtocolVersion.V5, Opcode.QUERY,
                "00 00 00 01 78  00 04  00 00 01 80  00 02 6b 73  00 00 00 2a");

        QueryOptions options = ((Query) RequestCodec.decode(e)).options();

        assertThat(options.consistency()).isEqualTo(ConsistencyLevel.QUORUM);
        assertThat(options.keyspace()).isEqualTo("ks");
        assertThat(options.nowInSeconds()).isEqualTo(42);
    }

    @Test
    void decodesEveryQueryOptionTheDriverSends() {
        List<ByteBuffer> values = Arrays.asList(bytes("a"), null, ProtocolConstants.UNSET_VALUE, ByteBuffer.allocate(0));
        var driverOptions = new com.datastax.oss.protocol.internal.request.query.QueryOptions(
                ProtocolConstants.ConsistencyLevel.LOCAL_QUORUM, values, Map.of(), true, 100, bytes("state"),
                ProtocolConstants.ConsistencyLevel.LOCAL_SERIAL, 1234567L, "ks", 99);

        Query q = (Query) RequestCodec.decode(driverRequest(
                new com.datastax.oss.protocol.internal.request.Query("SELECT * FROM t", driverOptions), 5, 17));

        QueryOptions o = q.options();
        assertThat(q.query()).isEqualTo("SELECT * FROM t");
        assertThat(o.consistency()).isEqualTo(ConsistencyLevel.LOCAL_QUORUM);
        assertThat(o.values()).hasSize(4);
        assertThat(o.values().get(0)).isEqualTo(bytes("a"));
        assertThat(o.values().get(1)).isNull();
        assertThat(o.values().get(2)).isSameAs(QueryOptions.UNSET);
        assertThat(o.values().get(3)).isNotSameAs(QueryOptions.UNSET).isEqualTo(ByteBuffer.allocate(0));
        assertThat(o.valueNames()).isNull();
        assertThat(o.skipMetadata()).isTrue();
        assertThat(o.pageSize()).isEqualTo(100);
        assertThat(o.pagingState()).isEqualTo(bytes("state"));
        assertThat(o.serialConsistency()).isEqualTo(ConsistencyLevel.LOCAL_SERIAL);
        assertThat(o.defaultTimestamp()).isEqualTo(1234567L);
        assertThat(o.keyspace()).isEqualTo("ks");
        assertThat(o.nowInSeconds()).isEqualTo(99);
    }

    @Test
    void decodesNamedValuesInWireOrder() {
        Map<String, ByteBuffer> named = new LinkedHashMap<>();
        named.put("k", bytes("1"));
        named.put("v", bytes("2"));
        var driverOptions = new com.datastax.oss.protocol.internal.request.query.QueryOptions(
                ProtocolConstants.ConsistencyLevel.ONE, List.of(), named, false, -1, null,
                ProtocolConstants.ConsistencyLevel.SERIAL, Long.MIN_VALUE, null, Integer.MIN_VALUE);

        Query q = (Query) RequestCodec.decode(driverRequest(
                new com.datastax.oss.protocol.internal.request.Query("INSERT INTO t (k, v) VALUES (:k, :v)", driverOptions), 4, 0));

        assertThat(q.options().valueNames()).containsExactly("k", "v");
        assertThat(q.options().values()).containsExactly(bytes("1"), bytes("2"));
        assertThat(q.options().isPaged()).isFalse();
        assertThat(q.options().defaultTimestamp()).isNull();
    }

    @Test
    void decodesV5ExecuteWithItsResultMetadataIdAndV4WithoutOne() {
        var options = new com.datastax.oss.protocol.internal.request.query.QueryOptions(
                ProtocolConstants.ConsistencyLevel.ONE, List.of(bytes("x")), Map.of(), false, -1, null,
                ProtocolConstants.ConsistencyLevel.SERIAL, Long.MIN_VALUE, null, Integer.MIN_VALUE);
        byte[] id = {1, 2, 3};
        byte[] metadataId = {9, 8};

        Execute v5 = (Execute) RequestCodec.decode(driverRequest(
                new com.datastax.oss.protocol.internal.request.Execute(id, metadataId, options), 5, 1));
        Execute v4 = (Execute) RequestCodec.decode(driverRequest(
                new com.datastax.oss.protocol.internal.request.Execute(id, options), 4, 1));

        assertThat(v5.statementId()).isEqualTo(ByteBuffer.wrap(id));
        assertThat(v5.resultMetadataId()).isEqualTo(ByteBuffer.wrap(metadataId));
        assertThat(v5.options().values()).containsExactly(bytes("x"));
        assertThat(v4.resultMetadataId()).isNull();
        assertThat(v4.options().values()).containsExactly(bytes("x"));
    }

    @Test
    void decodesV5PrepareWithKeyspace() {
        Prepare p = (Prepare) RequestCodec.decode(driverRequest(
                new com.datastax.oss.protocol.internal.request.Prepare("SELECT * FROM t WHERE k = ?", "ks"), 5, 2));

        assertThat(p).isEqualTo(new Prepare("SELECT * FROM t WHERE k = ?", "ks"));
    }

    @Test
    void decodesABatchOfTextAndPreparedStatements() {
        var driverBatch = new com.datastax.oss.protocol.internal.request.Batch(
                (byte) 1, List.of("INSERT INTO t (k) VALUES (?)", new byte[] {7, 7}),
                List.of(List.of(bytes("a")), Arrays.asList(null, ProtocolConstants.UNSET_VALUE)),
                ProtocolConstants.ConsistencyLevel.QUORUM, ProtocolConstants.ConsistencyLevel.LOCAL_SERIAL, 55L, "ks", 7);

        Batch b = (Batch) RequestCodec.decode(driverRequest(driverBatch, 5, 4));

        assertThat(b.type()).isEqualTo(BatchType.UNLOGGED);
        assertThat(b.children()).hasSize(2);
        assertThat(b.children().get(0)).isEqualTo(new Batch.QueryChild("INSERT INTO t (k) VALUES (?)", List.of(bytes("a"))));
        assertThat(b.children().get(1)).isInstanceOfSatisfying(Batch.PreparedChild.class, c -> {
            assertThat(c.statementId()).isEqualTo(ByteBuffer.wrap(new byte[] {7, 7}));
            assertThat(c.values().get(0)).isNull();
            assertThat(c.values().get(1)).isSameAs(QueryOptions.UNSET);
        });
        assertThat(b.consistency()).isEqualTo(ConsistencyLevel.QUORUM);
        assertThat(b.serialConsistency()).isEqualTo(ConsistencyLevel.LOCAL_SERIAL);
        assertThat(b.defaultTimestamp()).isEqualTo(55L);
        assertThat(b.keyspace()).isEqualTo("ks");
        assertThat(b.nowInSeconds()).isEqualTo(7);
    }

    @Test
    void decodesConnectionRequestsTheDriverSends() {
        Startup startup = (Startup) RequestCodec.decode(driverRequest(
                new com.datastax.oss.protocol.internal.request.Startup(Map.of("CQL_VERSION", "3.0.0", "compression", "lz4")), 5, 0));
        Register register = (Register) RequestCodec.decode(driverRequest(
                new com.datastax.oss.protocol.internal.request.Register(List.of("SCHEMA_CHANGE", "STATUS_CHANGE")), 4, 0));
        AuthResponse auth = (AuthResponse) RequestCodec.decode(driverRequest(
                new com.datastax.oss.protocol.internal.request.AuthResponse(bytes("\0u\0p")), 4, 0));

        assertThat(startup.options()).containsEntry("CQL_VERSION", "3.0.0").containsEntry("COMPRESSION", "lz4");
        assertThat(register.eventTypes()).containsExactlyInAnyOrder(EventType.SCHEMA_CHANGE, EventType.STATUS_CHANGE);
        assertThat(auth.token()).isEqualTo(bytes("\0u\0p"));
        assertThat(RequestCodec.decode(driverRequest(com.datastax.oss.protocol.internal.request.Options.INSTANCE, 5, 0)))
                .isEqualTo(new Options());
    }

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void roundTripsEveryRequest(ProtocolVersion version) {
        boolean v5 = version.isAtLeast(ProtocolVersion.V5);
        QueryOptions options = new QueryOptions(ConsistencyLevel.TWO, Arrays.asList(bytes("v"), null), List.of("a", "b"),
                true, 50, bytes("p"), ConsistencyLevel.SERIAL, 77L, v5 ? "ks" : null, v5 ? 3 : null);
        List<Request> requests = List.of(
                new Startup(Map.of("CQL_VERSION", "3.4.7", "DRIVER_NAME", "x")),
                new Options(),
                new Query("SELECT now() FROM system.local", options),
                new Prepare("SELECT 1", v5 ? "ks" : null),
                new Execute(bytes("id"), v5 ? bytes("rid") : null, options.withSkipMetadata(false)),
                new Batch(BatchType.COUNTER, List.of(new Batch.QueryChild("UPDATE c SET n = n + 1", List.of()),
                        new Batch.PreparedChild(bytes("id"), Arrays.asList(bytes("1"), null))),
                        ConsistencyLevel.ALL, null, null, v5 ? "ks" : null, null),
                new Register(Set.of(EventType.TOPOLOGY_CHANGE)),
                new AuthResponse(null));

        for (Request request : requests) assertThat(roundTrip(request, version)).as("%s", request).isEqualTo(request);
    }

    @Test
    void keepsUnsetValuesDistinctFromEmptyOnesThroughARoundTrip() {
        QueryOptions options = QueryOptions.of(ConsistencyLevel.ONE, List.of(QueryOptions.UNSET, ByteBuffer.allocate(0)));

        Query q = (Query) roundTrip(new Query("UPDATE t SET v = ? WHERE k = ?", options), ProtocolVersion.V4);

        assertThat(q.options().values().get(0)).isSameAs(QueryOptions.UNSET);
        assertThat(q.options().values().get(1)).isNotSameAs(QueryOptions.UNSET);
    }

    @Test
    void ignoresACustomPayload() {
        ByteBuf body = TestBytes.hex("00 01  00 01 6b  00 00 00 01 ff   00 00 00 01 78  00 01  00");
        Envelope e = new Envelope(ProtocolVersion.V4, Envelope.FLAG_CUSTOM_PAYLOAD, 0, Opcode.QUERY, body);

        assertThat(((Query) RequestCodec.decode(e)).query()).isEqualTo("x");
    }

    @Test
    void rejectsATruncatedBodyNamingTheMissingField() {
        assertThatThrownBy(() -> RequestCodec.decode(envelope(ProtocolVersion.V4, Opcode.QUERY, "00 00 00 08 53 45")))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("Truncated message: QUERY string needs 8 bytes but only 2 remain");
    }

    @Test
    void rejectsAValueLengthBelowMinusTwo() {
        assertThatThrownBy(() -> RequestCodec.decode(envelope(ProtocolVersion.V4, Opcode.QUERY,
                "00 00 00 01 78  00 01  01  00 01  ff ff ff fd")))
                .isInstanceOf(ProtocolException.class).hasMessage("Invalid length -3 for value 0 in protocol v4");
    }

    @Test
    void rejectsUnsetValuesBeforeV4() {
        assertThatThrownBy(() -> RequestCodec.decode(envelope(ProtocolVersion.V3, Opcode.QUERY,
                "00 00 00 01 78  00 01  01  00 01  ff ff ff fe")))
                .isInstanceOf(ProtocolException.class).hasMessage("Invalid length -2 for value 0 in protocol v3");
    }

    @Test
    void rejectsAnUnknownEventType() {
        assertThatThrownBy(() -> RequestCodec.decode(envelope(ProtocolVersion.V4, Opcode.REGISTER, "00 01 00 03 46 4f 4f")))
                .isInstanceOf(ProtocolException.class)
                .hasMessageStartingWith("Invalid event type 'FOO' in REGISTER");
    }

    @Test
    void rejectsAPageSizeOfZero() {
        assertThatThrownBy(() -> RequestCodec.decode(envelope(ProtocolVersion.V4, Opcode.QUERY,
                "00 00 00 01 78  00 01  04  00 00 00 00")))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("The page size cannot be 0");
    }

    @Test
    void rejectsANonSerialSerialConsistency() {
        assertThatThrownBy(() -> RequestCodec.decode(envelope(ProtocolVersion.V4, Opcode.QUERY,
                "00 00 00 01 78  00 01  10  00 01")))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("Serial consistency must be SERIAL or LOCAL_SERIAL, got ONE");
    }
}
