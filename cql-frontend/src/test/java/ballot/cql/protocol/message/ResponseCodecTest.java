package ballot.cql.protocol.message;

import static ballot.cql.protocol.TestBytes.hexOf;
import static ballot.cql.protocol.message.DriverCodec.driverDecode;
import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.ConsistencyLevel;
import ballot.cql.WriteType;
import ballot.cql.error.AlreadyExistsException;
import ballot.cql.error.ErrorCode;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.error.ReadTimeoutException;
import ballot.cql.error.ServerException;
import ballot.cql.error.SyntaxException;
import ballot.cql.error.UnavailableException;
import ballot.cql.error.UnpreparedException;
import ballot.cql.error.WriteTimeoutException;
import ballot.cql.protocol.Envelope;
import ballot.cql.protocol.EnvelopeEncoder;
import ballot.cql.protocol.ProtocolVersion;
import ballot.cql.type.CqlTypes;
import com.datastax.oss.protocol.internal.Frame;
import com.datastax.oss.protocol.internal.ProtocolConstants;
import com.datastax.oss.protocol.internal.response.error.CASWriteUnknown;
import com.datastax.oss.protocol.internal.response.error.ReadFailure;
import com.datastax.oss.protocol.internal.response.error.Unavailable;
import com.datastax.oss.protocol.internal.response.result.DefaultRows;
import com.datastax.oss.protocol.internal.response.result.RawType;
import com.datastax.oss.protocol.internal.response.event.StatusChangeEvent;
import com.datastax.oss.protocol.internal.response.event.TopologyChangeEvent;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ResponseCodecTest {
    private static final ColumnSpec K = new ColumnSpec("ks", "t", "k", CqlTypes.INT);
    private static final ColumnSpec V = new ColumnSpec("ks", "t", "v", CqlTypes.TEXT);

    private static Envelope encode(Response response, ProtocolVersion version) {
        return ResponseCodec.encode(response, 5, version, ballot.cql.protocol.TestBytes.UNTRACKED);
    }

    private static String bodyHex(Response response, ProtocolVersion version) {
        return hexOf(encode(response, version).body());
    }

    private static Response roundTrip(Response response, ProtocolVersion version) {
        return ResponseCodec.decode(encode(response, version), TestTypeOptions.DECODER);
    }

    private static ByteBuffer text(String s) {
        return CqlTypes.TEXT.decompose(s);
    }

    @Test
    void encodesReadyAsTheSpecsEmptyResponse() {
        ByteBuf wire = Unpooled.buffer();
        EnvelopeEncoder.writeTo(ResponseCodec.encode(new Ready(), 0, ProtocolVersion.V4, ballot.cql.protocol.TestBytes.UNTRACKED), wire);

        assertThat(hexOf(wire)).isEqualTo("84 00 00 00 02 00 00 00 00");
    }

    @Test
    void encodesSupportedAsAStringMultimapTheDriverReads() {
        Map<String, List<String>> options = new LinkedHashMap<>();
        options.put("CQL_VERSION", List.of("3.4.7"));
        options.put("COMPRESSION", List.of("lz4"));

        Frame frame = driverDecode(encode(new Supported(options), ProtocolVersion.V5));

        assertThat(((com.datastax.oss.protocol.internal.response.Supported) frame.message).options)
                .isEqualTo(options);
    }

    @Test
    void encodesUnavailableWithConsistencyRequiredAndAlive() {
        ErrorResponse error = ErrorResponse.from(new UnavailableException(ConsistencyLevel.QUORUM, 2, 1));

        String body = bodyHex(error, ProtocolVersion.V4);

        assertThat(body).startsWith("00 00 10 00").endsWith("00 04  00 00 00 02  00 00 00 01".replace("  ", " "));
        Unavailable driver = (Unavailable) driverDecode(encode(error, ProtocolVersion.V4)).message;
        assertThat(driver.message).isEqualTo("Cannot achieve consistency level QUORUM");
        assertThat(List.of(driver.required, driver.alive)).containsExactly(2, 1);
        assertThat(driver.consistencyLevel).isEqualTo(ProtocolConstants.ConsistencyLevel.QUORUM);
    }

    /**
     * The v5 spec adds {@code <contentions>} after a CAS write type, but the drivers read no such field (DataStax Java
     * 4.19 / native-protocol 1.5.2, Python 3.29, gocql); the Java driver decodes a v5 segment's frames back to back, so
     * two extra bytes become the start of a next frame and it closes the connection, failing every request on it.
     */
    @Test
    void casWriteTimeoutEndsAtTheWriteTypeEvenInV5SoTheJavaDriverKeepsItsConnection() {
        ErrorResponse error = ErrorResponse.from(new WriteTimeoutException(ConsistencyLevel.SERIAL, 1, 2, WriteType.CAS, 3));

        assertThat(bodyHex(error, ProtocolVersion.V5)).endsWith("00 03 43 41 53");
        assertThat(bodyHex(error, ProtocolVersion.V4)).endsWith("00 03 43 41 53");
        assertThat(driverDecode(encode(error, ProtocolVersion.V5)).message)
                .isInstanceOf(com.datastax.oss.protocol.internal.response.error.WriteTimeout.class);
    }

    @Test
    void omitsContentionsForOtherWriteTypes() {
        ErrorResponse error = ErrorResponse.from(new WriteTimeoutException(ConsistencyLevel.ONE, 0, 1, WriteType.SIMPLE, 0));

        assertThat(bodyHex(error, ProtocolVersion.V5)).endsWith("00 06 53 49 4d 50 4c 45");
    }

    @Test
    void sendsReadFailureReasonsByReplicaInV5AndTheirCountBefore() throws Exception {
        Map<InetAddress, Integer> reasons = new LinkedHashMap<>();
        reasons.put(InetAddress.getByName("10.0.0.1"), 1);
        reasons.put(InetAddress.getByName("10.0.0.2"), 2);
        ErrorResponse error = new ErrorResponse(ErrorCode.READ_FAILURE, "failed",
                new ErrorResponse.ReadFailure(ConsistencyLevel.QUORUM, 1, 2, reasons, true));

        ReadFailure v5 = (ReadFailure) driverDecode(encode(error, ProtocolVersion.V5)).message;
        ReadFailure v4 = (ReadFailure) driverDecode(encode(error, ProtocolVersion.V4)).message;

        assertThat(v5.reasonMap).isEqualTo(reasons);
        assertThat(v5.dataPresent).isTrue();
        assertThat(v4.numFailures).isEqualTo(2);
        assertThat(v4.reasonMap).isEmpty();
        assertThat(bodyHex(error, ProtocolVersion.V5)).endsWith("00 00 00 02 04 0a 00 00 01 00 01 04 0a 00 00 02 00 02 01");
    }

    /** An index not yet built on a replica: Cassandra 5.0's message and reason code 6 (INDEX_NOT_AVAILABLE) per replica. */
    @Test
    void indexNotAvailableIsAReadFailureNamingTheReplicaAndItsReason() throws Exception {
        ErrorResponse error = ErrorResponse.from(new ballot.cql.error.ReadFailureException(ConsistencyLevel.ONE, 0, 1,
                Map.of(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 7000),
                        ballot.cql.error.RequestFailureReason.INDEX_NOT_AVAILABLE)));

        ReadFailure v5 = (ReadFailure) driverDecode(encode(error, ProtocolVersion.V5)).message;
        assertThat(v5.message).isEqualTo("Operation failed - received 0 responses and 1 failures: INDEX_NOT_AVAILABLE from /127.0.0.1:7000");
        assertThat(v5.reasonMap).isEqualTo(Map.of(InetAddress.getByName("127.0.0.1"), 6));
        assertThat(v5.received).isZero();
        assertThat(v5.blockFor).isEqualTo(1);
        assertThat(v5.dataPresent).isFalse();
    }

    /** A replica whose storage refused a write: WRITE_FAILURE with reason code 0 and the cause after Cassandra's message. */
    @Test
    void aStorageRefusalIsAWriteFailureNamingTheReplicaAndTheCause() throws Exception {
        ErrorResponse error = ErrorResponse.from(new ballot.cql.error.WriteFailureException(ConsistencyLevel.ONE, 0, 1,
                Map.of(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 7000), ballot.cql.error.RequestFailureReason.UNKNOWN),
                WriteType.SIMPLE, "No space left on device"));

        assertThat(error.code()).isEqualTo(ErrorCode.WRITE_FAILURE);
        assertThat(error.message()).isEqualTo("Operation failed - received 0 responses and 1 failures: UNKNOWN from /127.0.0.1:7000 "
                + "(No space left on device)");
        ErrorResponse.WriteFailure detail = (ErrorResponse.WriteFailure) error.detail();
        assertThat(detail.failureByReplica()).isEqualTo(Map.of(InetAddress.getByName("127.0.0.1"), 0));
        assertThat(detail.writeType()).isEqualTo(WriteType.SIMPLE);
        assertThat(roundTrip(error, ProtocolVersion.V5)).isEqualTo(error);
    }

    @Test
    void roundTripsWriteFailureAndFunctionFailure() throws Exception {
        ErrorResponse write = new ErrorResponse(ErrorCode.WRITE_FAILURE, "w",
                new ErrorResponse.WriteFailure(ConsistencyLevel.ALL, 2, 3, Map.of(InetAddress.getByName("::1"), 0), WriteType.BATCH));
        ErrorResponse function = new ErrorResponse(ErrorCode.FUNCTION_FAILURE, "f",
                new ErrorResponse.FunctionFailure("ks", "fn", List.of("int", "text")));

        assertThat(roundTrip(write, ProtocolVersion.V5)).isEqualTo(write);
        assertThat(roundTrip(function, ProtocolVersion.V4)).isEqualTo(function);
    }

    @Test
    void sendsCasWriteUnknownInV5AndACasWriteTimeoutBefore() {
        ErrorResponse error = new ErrorResponse(ErrorCode.CAS_WRITE_UNKNOWN, "unknown",
                new ErrorResponse.CasWriteUnknown(ConsistencyLevel.SERIAL, 1, 2));

        assertThat(driverDecode(encode(error, ProtocolVersion.V5)).message).isInstanceOf(CASWriteUnknown.class);
        assertThat(roundTrip(error, ProtocolVersion.V4)).isEqualTo(new ErrorResponse(ErrorCode.WRITE_TIMEOUT, "unknown",
                new ErrorResponse.WriteTimeout(ConsistencyLevel.SERIAL, 1, 2, WriteType.CAS, 0)));
    }

    @Test
    void downgradesFailuresThatV3CannotExpress() {
        ErrorResponse read = new ErrorResponse(ErrorCode.READ_FAILURE, "r",
                new ErrorResponse.ReadFailure(ConsistencyLevel.ONE, 0, 1, Map.of(), false));
        ErrorResponse function = new ErrorResponse(ErrorCode.FUNCTION_FAILURE, "f",
                new ErrorResponse.FunctionFailure("ks", "fn", List.of()));

        assertThat(roundTrip(read, ProtocolVersion.V3)).isEqualTo(new ErrorResponse(ErrorCode.READ_TIMEOUT, "r",
                new ErrorResponse.ReadTimeout(ConsistencyLevel.ONE, 0, 1, false)));
        assertThat(roundTrip(function, ProtocolVersion.V3))
                .isEqualTo(new ErrorResponse(ErrorCode.INVALID, "ERROR FUNCTION_FAILURE: f"));
    }

    @Test
    void mapsEveryExceptionWithAPayloadToItsDetail() {
        assertThat(ErrorResponse.from(new ReadTimeoutException(ConsistencyLevel.ONE, 0, 1, true)).detail())
                .isEqualTo(new ErrorResponse.ReadTimeout(ConsistencyLevel.ONE, 0, 1, true));
        assertThat(ErrorResponse.from(new AlreadyExistsException("ks", "t")).detail())
                .isEqualTo(new ErrorResponse.AlreadyExists("ks", "t"));
        assertThat(ErrorResponse.from(new UnpreparedException(new byte[] {1, 2})).detail())
                .isEqualTo(new ErrorResponse.Unprepared(ByteBuffer.wrap(new byte[] {1, 2})));
        assertThat(ErrorResponse.from(new SyntaxException("line 1:0 no viable alternative")))
                .isEqualTo(new ErrorResponse(ErrorCode.SYNTAX_ERROR, "line 1:0 no viable alternative"));
        assertThat(ErrorResponse.from(new ServerException("boom")).code()).isEqualTo(ErrorCode.SERVER_ERROR);
    }

    @Test
    void encodesAlreadyExistsAndUnpreparedPayloads() {
        assertThat(bodyHex(ErrorResponse.from(new AlreadyExistsException("ks", "")), ProtocolVersion.V4))
                .endsWith("00 02 6b 73 00 00");
        assertThat(bodyHex(ErrorResponse.from(new UnpreparedException(new byte[] {(byte) 0xca, (byte) 0xfe})), ProtocolVersion.V4))
                .endsWith("00 02 ca fe");
        assertThat(roundTrip(ErrorResponse.from(new InvalidRequestException("bad")), ProtocolVersion.V5))
                .isEqualTo(new ErrorResponse(ErrorCode.INVALID, "bad"));
    }

    @Test
    void encodesRowsWithAGlobalTableSpecTheDriverReads() {
        Rows rows = new Rows(RowsMetadata.of(List.of(K, V)),
                List.of(new ByteBuffer[] {CqlTypes.INT.decompose(1), text("one")}, new ByteBuffer[] {CqlTypes.INT.decompose(2), null}));

        Envelope envelope = encode(rows, ProtocolVersion.V5);
        DefaultRows driver = (DefaultRows) driverDecode(envelope).message;

        assertThat(envelope.body().getInt(4)).isEqualTo(0x0001);
        assertThat(driver.getMetadata().columnSpecs).extracting(c -> c.ksName + "." + c.tableName + "." + c.name)
                .containsExactly("ks.t.k", "ks.t.v");
        assertThat(driver.getMetadata().columnSpecs.get(1).type).isEqualTo(RawType.PRIMITIVES.get(ProtocolConstants.DataType.VARCHAR));
        assertThat(driver.getData()).hasSize(2);
        List<ByteBuffer> second = new java.util.ArrayList<>(driver.getData()).get(1);
        assertThat(second.get(0)).isEqualTo(CqlTypes.INT.decompose(2));
        assertThat(second.get(1)).isNull();
    }

    @Test
    void writesPerColumnTableSpecsWhenColumnsComeFromSeveralTables() {
        ColumnSpec other = new ColumnSpec("ks", "u", "w", CqlTypes.UUID);
        Rows rows = new Rows(RowsMetadata.of(List.of(K, other)), List.of());

        Envelope envelope = encode(rows, ProtocolVersion.V4);
        DefaultRows driver = (DefaultRows) driverDecode(envelope).message;

        assertThat(envelope.body().getInt(4)).isZero();
        assertThat(driver.getMetadata().columnSpecs.get(1).tableName).isEqualTo("u");
        assertThat(roundTrip(rows, ProtocolVersion.V4)).usingRecursiveComparison().isEqualTo(rows);
    }

    @Test
    void sendsPagingStateAndNoMetadataWhenAsked() {
        RowsMetadata metadata = RowsMetadata.of(List.of(K, V)).withPagingState(text("next")).withoutColumnSpecsUnlessChanged();

        DefaultRows driver = (DefaultRows) driverDecode(encode(new Rows(metadata, List.of()), ProtocolVersion.V4)).message;

        assertThat(driver.getMetadata().flags).as("Global_tables_spec kept, as Cassandra 5.0 keeps it").isEqualTo(0x0001 | 0x0002 | 0x0004);
        assertThat(driver.getMetadata().columnCount).isEqualTo(2);
        assertThat(driver.getMetadata().columnSpecs).isEmpty();
        assertThat(driver.getMetadata().pagingState).isEqualTo(text("next"));
    }

    @Test
    void sendsAChangedMetadataIdInV5Only() {
        RowsMetadata metadata = RowsMetadata.of(List.of(K)).withNewMetadataId(ByteBuffer.wrap(new byte[] {4, 2}))
                .withoutColumnSpecsUnlessChanged();
        Rows rows = new Rows(metadata, List.of());

        DefaultRows v5 = (DefaultRows) driverDecode(encode(rows, ProtocolVersion.V5)).message;
        DefaultRows v4 = (DefaultRows) driverDecode(encode(rows, ProtocolVersion.V4)).message;

        assertThat(v5.getMetadata().flags & 0x0008).isNotZero();
        assertThat(v5.getMetadata().newResultMetadataId).containsExactly(4, 2);
        assertThat(v5.getMetadata().columnSpecs).hasSize(1);
        assertThat(v4.getMetadata().flags).isEqualTo(0x0001);
        assertThat(v4.getMetadata().newResultMetadataId).isNull();
    }

    @Test
    void encodesPreparedWithPartitionKeyIndexesAndAV5ResultMetadataId() {
        Prepared prepared = new Prepared(ByteBuffer.wrap(new byte[] {1, 2, 3}), ByteBuffer.wrap(new byte[] {9}),
                new PreparedMetadata(List.of(V, K), List.of(1)), RowsMetadata.of(List.of(V)));

        var v5 = (com.datastax.oss.protocol.internal.response.result.Prepared) driverDecode(encode(prepared, ProtocolVersion.V5)).message;
        var v4 = (com.datastax.oss.protocol.internal.response.result.Prepared) driverDecode(encode(prepared, ProtocolVersion.V4)).message;

        assertThat(v5.preparedQueryId).containsExactly(1, 2, 3);
        assertThat(v5.resultMetadataId).containsExactly(9);
        assertThat(v5.variablesMetadata.pkIndices).containsExactly(1);
        assertThat(v5.variablesMetadata.columnSpecs).extracting(c -> c.name).containsExactly("v", "k");
        assertThat(v5.resultMetadata.columnSpecs).extracting(c -> c.name).containsExactly("v");
        assertThat(v4.resultMetadataId).isNull();
        assertThat(v4.variablesMetadata.pkIndices).containsExactly(1);
        assertThat(roundTrip(prepared, ProtocolVersion.V5)).usingRecursiveComparison().isEqualTo(prepared);
    }

    @Test
    void sendsPartitionKeyIndexesOnlyWhenEveryMarkerIsOfOneTable() {
        ColumnSpec batchTimestamp = new ColumnSpec("[batch]", "[batch]", "[timestamp]", CqlTypes.BIGINT);
        Prepared prepared = new Prepared(ByteBuffer.wrap(new byte[] {1}), ByteBuffer.wrap(new byte[] {2}),
                new PreparedMetadata(List.of(batchTimestamp, K), List.of(1)), RowsMetadata.EMPTY);

        var driver = (com.datastax.oss.protocol.internal.response.result.Prepared) driverDecode(encode(prepared, ProtocolVersion.V4)).message;

        assertThat(driver.variablesMetadata.flags & 0x0001).isZero();
        assertThat(driver.variablesMetadata.pkIndices).isNullOrEmpty();
        assertThat(driver.variablesMetadata.columnSpecs).extracting(c -> c.ksName).containsExactly("[batch]", "ks");
    }

    @Test
    void marksAConditionalStatementWithBit31OfThePreparedMetadataFlagsOnly() {
        Prepared conditional = new Prepared(ByteBuffer.wrap(new byte[] {1}), ByteBuffer.wrap(new byte[] {2}),
                new PreparedMetadata(List.of(K), List.of(0), true), RowsMetadata.EMPTY);

        var marked = (com.datastax.oss.protocol.internal.response.result.Prepared) driverDecode(encode(conditional, ProtocolVersion.V5)).message;
        var unmarked = (com.datastax.oss.protocol.internal.response.result.Prepared)
                driverDecode(encode(new Prepared(conditional.statementId(), conditional.resultMetadataId(),
                        conditional.variables().withoutLwt(), conditional.resultMetadata()), ProtocolVersion.V5)).message;

        // kind, id, prepared metadata flags (LWT | global table spec), 1 marker, 1 key index 0, ks.t, k int, no result metadata
        assertThat(bodyHex(conditional, ProtocolVersion.V4)).isEqualTo("00 00 00 04 00 01 01 80 00 00 01 00 00 00 01 00 00 00 01 00 00"
                + " 00 02 6b 73 00 01 74 00 01 6b 00 09 00 00 00 04 00 00 00 00");
        assertThat(marked.variablesMetadata.flags).isEqualTo(0x8000_0001);
        assertThat(marked.resultMetadata.flags).isEqualTo(0x0004);
        assertThat(unmarked.variablesMetadata.flags).isEqualTo(0x0001);
        assertThat(roundTrip(conditional, ProtocolVersion.V5)).usingRecursiveComparison().isEqualTo(conditional);
    }

    @Test
    void encodesEmptyResultMetadataForPreparedNonSelects() {
        Prepared prepared = new Prepared(ByteBuffer.wrap(new byte[] {1}), ByteBuffer.wrap(new byte[] {2}),
                new PreparedMetadata(List.of(K), List.of(0)), RowsMetadata.EMPTY);

        var driver = (com.datastax.oss.protocol.internal.response.result.Prepared) driverDecode(encode(prepared, ProtocolVersion.V5)).message;

        assertThat(driver.resultMetadata.flags).isEqualTo(0x0004);
        assertThat(driver.resultMetadata.columnCount).isZero();
    }

    @ParameterizedTest
    @EnumSource(SchemaChange.Target.class)
    void encodesSchemaChangesOfEveryTargetAsResultAndEvent(SchemaChange.Target target) {
        SchemaChange change = new SchemaChange(SchemaChange.Change.CREATED, target, "ks",
                target == SchemaChange.Target.KEYSPACE ? "" : "thing",
                target == SchemaChange.Target.FUNCTION || target == SchemaChange.Target.AGGREGATE ? List.of("int", "text") : List.of());

        var result = (com.datastax.oss.protocol.internal.response.result.SchemaChange) driverDecode(encode(change, ProtocolVersion.V5)).message;
        var event = (com.datastax.oss.protocol.internal.response.event.SchemaChangeEvent) driverDecode(encode(new SchemaChangeEvent(change), ProtocolVersion.V4)).message;

        assertThat(Arrays.asList(result.changeType, result.target, result.keyspace, nullToEmpty(result.object)))
                .containsExactly("CREATED", target.name(), "ks", change.name());
        assertThat(result.arguments == null ? List.of() : result.arguments).isEqualTo(change.argumentTypes());
        assertThat(Arrays.asList(event.changeType, event.target, event.keyspace, nullToEmpty(event.object)))
                .containsExactly("CREATED", target.name(), "ks", change.name());
        assertThat(event.arguments == null ? List.of() : event.arguments).isEqualTo(change.argumentTypes());
        assertThat(roundTrip(change, ProtocolVersion.V5)).isEqualTo(change);
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    @Test
    void reportsAFunctionChangeToV3ClientsAsAKeyspaceUpdate() {
        SchemaChange change = SchemaChange.function(SchemaChange.Change.DROPPED, "ks", "fn", List.of("int"));

        assertThat(roundTrip(change, ProtocolVersion.V3)).isEqualTo(SchemaChange.keyspace(SchemaChange.Change.UPDATED, "ks"));
    }

    @Test
    void encodesTopologyAndStatusEventsTheDriverReads() {
        InetSocketAddress node = new InetSocketAddress("127.0.0.2", 9042);

        var topology = (TopologyChangeEvent) driverDecode(encode(new TopologyChange(TopologyChange.Change.NEW_NODE, node), ProtocolVersion.V4)).message;
        var status = (StatusChangeEvent) driverDecode(encode(new StatusChange(StatusChange.Status.DOWN, node), ProtocolVersion.V5)).message;

        assertThat(topology.changeType).isEqualTo("NEW_NODE");
        assertThat(topology.address).isEqualTo(node);
        assertThat(status.changeType).isEqualTo("DOWN");
        assertThat(status.address).isEqualTo(node);
    }

    @Test
    void carriesWarningsFlaggedAheadOfTheBody() {
        Response warned = new VoidResult().withWarnings(List.of("Batch is large", "Aggregation without partition key"));

        Envelope envelope = encode(warned, ProtocolVersion.V4);
        Frame driver = driverDecode(envelope);

        assertThat(envelope.flags()).isEqualTo(Envelope.FLAG_WARNING);
        assertThat(driver.warnings).containsExactly("Batch is large", "Aggregation without partition key");
        assertThat(driver.message).isInstanceOf(com.datastax.oss.protocol.internal.response.result.Void.class);
        assertThat(roundTrip(warned, ProtocolVersion.V5)).isEqualTo(warned);
    }

    /** Spec §2.2: the tracing id comes first, then the warnings, then the message; the driver reads them so. */
    @ParameterizedTest
    @EnumSource(value = ProtocolVersion.class, names = {"V4", "V5"})
    void putsTheTracingIdBeforeWarningsAndBody(ProtocolVersion version) {
        java.util.UUID id = java.util.UUID.fromString("6ba7b810-9dad-11d1-80b4-00c04fd430c8");
        Response warned = new VoidResult().withWarnings(List.of("w"));

        Envelope envelope = ResponseCodec.encode(warned, id, 5, version, ballot.cql.protocol.TestBytes.UNTRACKED);
        Frame driver = driverDecode(envelope);

        assertThat(envelope.flags()).isEqualTo(Envelope.FLAG_TRACING | Envelope.FLAG_WARNING);
        assertThat(hexOf(envelope.body())).isEqualTo("6b a7 b8 10 9d ad 11 d1 80 b4 00 c0 4f d4 30 c8" // tracing id
                + " 00 01 00 01 77" // warnings: [string list] ["w"]
                + " 00 00 00 01"); // RESULT Void
        assertThat(driver.tracingId).isEqualTo(id);
        assertThat(driver.warnings).containsExactly("w");
        assertThat(ResponseCodec.decode(envelope, TestTypeOptions.DECODER)).isEqualTo(warned);
    }

    @Test
    void dropsWarningsForV3Clients() {
        Envelope envelope = encode(new SetKeyspace("ks").withWarnings(List.of("w")), ProtocolVersion.V3);

        assertThat(envelope.flags()).isZero();
        assertThat(ResponseCodec.decode(envelope, TestTypeOptions.DECODER)).isEqualTo(new SetKeyspace("ks"));
    }

    @Test
    void roundTripsAuthenticationResponses() {
        for (Response r : List.of(new Authenticate("org.apache.cassandra.auth.PasswordAuthenticator"),
                new AuthChallenge(text("challenge")), new AuthSuccess(null), new Ready(), new VoidResult()))
            assertThat(roundTrip(r, ProtocolVersion.V4)).isEqualTo(r);
    }
}
