package ballot.cql.transport;

import static ballot.cql.protocol.TestBytes.hex;
import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.ConsistencyLevel;
import ballot.cql.protocol.BodyCompressor;
import ballot.cql.protocol.Envelope;
import ballot.cql.protocol.EnvelopeEncoder;
import ballot.cql.protocol.ProtocolVersion;
import ballot.cql.protocol.SegmentCodec;
import ballot.cql.protocol.message.ErrorResponse;
import ballot.cql.protocol.message.Options;
import ballot.cql.protocol.message.Query;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Ready;
import ballot.cql.protocol.message.RequestCodec;
import ballot.cql.protocol.message.SetKeyspace;
import ballot.cql.protocol.message.Startup;
import ballot.cql.protocol.message.Supported;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What travels on the wire after STARTUP: v5 segments, v4 LZ4 bodies, and malformed input. */
class ConnectionFramingTest {
    private final ScriptedHandler handler = new ScriptedHandler();

    private static Query query(String cql) {
        return new Query(cql, QueryOptions.of(ConsistencyLevel.ONE, List.of()));
    }

    @Test
    void sendsReadyUnframedThenSwitchesBothDirectionsToSegmentsInV5() {
        EmbeddedClient client = new EmbeddedClient(handler);
        client.send(new Startup(Map.of("CQL_VERSION", "3.0.0")), 0);

        ByteBuf ready = client.rawOutbound();
        client.afterStartup(null);
        client.send(query("SELECT 1"), 1);
        handler.call(0).answer().complete(new SetKeyspace("ks"));
        ByteBuf answer = client.rawOutbound();

        assertThat(ready.readableBytes()).isEqualTo(Envelope.HEADER_BYTES);
        assertThat(ready.getByte(0)).isEqualTo((byte) 0x85);
        assertThat(handler.call(0).query()).isEqualTo("SELECT 1");
        var segment = SegmentCodec.uncompressed().decode(answer, ballot.cql.protocol.TestBytes.UNTRACKED);
        assertThat(segment.selfContained()).isTrue();
        assertThat(segment.payload().getByte(0)).isEqualTo((byte) 0x85);
        assertThat(answer.isReadable()).isFalse();
    }

    @Test
    void compressesV5SegmentsWithLz4WhenStartupAskedForIt() {
        EmbeddedClient client = new EmbeddedClient(handler).start("lz4");

        client.send(query("SELECT '" + "x".repeat(5000) + "'"), 1);
        handler.call(0).answer().complete(new SetKeyspace("k".repeat(3000)));

        assertThat(handler.call(0).query()).hasSize(5000 + 9);
        assertThat(client.next()).isEqualTo(new SetKeyspace("k".repeat(3000)));
    }

    @Test
    void carriesRequestsAndResponsesLargerThanOneSegment() {
        EmbeddedClient client = new EmbeddedClient(handler).start(null);
        String big = "y".repeat(300_000);

        client.send(query(big), 1);
        List<String> warnings = List.of(big.substring(0, 60_000), big.substring(0, 60_001), big.substring(0, 60_002),
                big.substring(0, 60_003), big.substring(0, 60_004));
        handler.call(0).answer().complete(new SetKeyspace("ks").withWarnings(warnings));

        assertThat(handler.call(0).query()).isEqualTo(big);
        assertThat(client.next()).isEqualTo(new SetKeyspace("ks").withWarnings(warnings));
    }

    @Test
    void compressesV4BodiesAfterAnUncompressedReady() {
        EmbeddedClient client = new EmbeddedClient(handler).version(ProtocolVersion.V4);
        client.send(new Startup(Map.of("CQL_VERSION", "3.0.0", "COMPRESSION", "lz4")), 0);
        Envelope ready = client.nextEnvelope();
        client.afterStartup("lz4");

        client.send(query("SELECT 1"), 1);
        handler.call(0).answer().complete(new SetKeyspace("ks"));
        client.send(new Options(), 2);
        ByteBuf wire = client.rawOutbound();

        assertThat(ready.flags()).isZero();
        assertThat(handler.call(0).query()).isEqualTo("SELECT 1");
        int secondHeader = Envelope.HEADER_BYTES + wire.getInt(5);
        assertThat(wire.getByte(1) & Envelope.FLAG_COMPRESSED).isEqualTo(Envelope.FLAG_COMPRESSED);
        assertThat(wire.getByte(secondHeader + 1) & Envelope.FLAG_COMPRESSED).isEqualTo(Envelope.FLAG_COMPRESSED);
        assertThat(wire.getByte(secondHeader + 4)).isEqualTo((byte) 0x06);
    }

    @Test
    void decompressesV4BodiesTheClientCompressed() {
        EmbeddedClient client = new EmbeddedClient(handler).version(ProtocolVersion.V4).start("lz4");

        client.send(query("SELECT 2"), 1);
        handler.call(0).answer().complete(new SetKeyspace("ks"));

        assertThat(handler.call(0).query()).isEqualTo("SELECT 2");
        assertThat(client.next()).isEqualTo(new SetKeyspace("ks"));
    }

    /** Snappy, as gocql's built-in compressor and the Java driver's snappy setting use it with v4 (and Cassandra 5.0). */
    @Test
    void snappyBodiesBothWaysInV4() {
        EmbeddedClient client = new EmbeddedClient(handler).version(ProtocolVersion.V4).start("snappy");

        client.send(query("SELECT 3"), 1);
        assertThat(handler.call(0).query()).as("the client's Snappy body decompressed").isEqualTo("SELECT 3");
        handler.call(0).answer().complete(new SetKeyspace("ks".repeat(100)));
        ByteBuf wire = client.rawOutbound();

        assertThat(wire.getByte(1) & Envelope.FLAG_COMPRESSED).isEqualTo(Envelope.FLAG_COMPRESSED);
        int bodyLength = wire.getInt(5);
        assertThat(bodyLength).as("200 repeated bytes, compressed").isLessThan(100);
        ByteBuf body = BodyCompressor.named("snappy").decompress(wire.slice(Envelope.HEADER_BYTES, bodyLength), 1 << 20,
                ballot.cql.protocol.TestBytes.UNTRACKED);
        assertThat(body.readInt()).as("RESULT kind SET_KEYSPACE").isEqualTo(3);
        assertThat(body.readUnsignedShort()).isEqualTo(200);
    }

    @Test
    void rejectsACompressedBodyWhenNoCompressionWasNegotiated() {
        EmbeddedClient client = new EmbeddedClient(handler).version(ProtocolVersion.V4).start(null);
        Envelope plain = RequestCodec.encode(query("SELECT 1"), 6, ProtocolVersion.V4, ballot.cql.protocol.TestBytes.UNTRACKED);
        ByteBuf wire = Unpooled.buffer();
        EnvelopeEncoder.writeTo(plain.withBody(plain.body(), Envelope.FLAG_COMPRESSED), wire);
        plain.release();

        client.sendBytes(wire);

        assertThat(client.next()).isEqualTo(ErrorResponse.protocolError(
                "Envelope is flagged compressed but no compression was negotiated in STARTUP"));
        assertThat(client.isOpen()).isFalse();
        assertThat(handler.calls).isEmpty();
    }

    @Test
    void answersACorruptSegmentWithAProtocolErrorAndCloses() {
        EmbeddedClient client = new EmbeddedClient(handler).start(null);
        Envelope envelope = RequestCodec.encode(query("SELECT 1"), 3, ProtocolVersion.V5, ballot.cql.protocol.TestBytes.UNTRACKED);
        ByteBuf wire = client.wire(envelope);
        wire.setByte(10, wire.getByte(10) ^ 0x20);

        client.sendBytes(wire);

        assertThat(((ErrorResponse) client.next()).message()).startsWith("Segment payload CRC32 mismatch");
        assertThat(client.isOpen()).isFalse();
        assertThat(handler.calls).isEmpty();
    }

    @Test
    void closesOnlyTheConnectionThatSentAnOversizedEnvelope() {
        CqlServerOptions options = CqlServerOptions.builder().frameBytesMax(1024).build();
        EventBroadcaster events = new EventBroadcaster();
        EmbeddedClient offender = new EmbeddedClient(options, handler, events).version(ProtocolVersion.V4).start(null);
        EmbeddedClient bystander = new EmbeddedClient(options, handler, events).version(ProtocolVersion.V4).start(null);

        offender.sendBytes(hex("04 00 00 2a 07 00 00 04 01"));
        bystander.send(new Options(), 1);

        assertThat(offender.next()).isEqualTo(ErrorResponse.protocolError(
                "Request is too big: length 1025 exceeds maximum allowed length 1024 (frameBytesMax)"));
        assertThat(offender.isOpen()).isFalse();
        assertThat(bystander.next()).isInstanceOf(Supported.class);
        assertThat(bystander.isOpen()).isTrue();
    }

    @Test
    void answersAMalformedBodyOnItsStreamAndCloses() {
        EmbeddedClient client = new EmbeddedClient(handler).version(ProtocolVersion.V4).start(null);

        client.sendBytes(hex("04 00 00 0b 07 00 00 00 06 00 00 00 08 53 45"));
        Envelope error = client.nextEnvelope();

        assertThat(error.streamId()).isEqualTo(11);
        assertThat(ballot.cql.protocol.message.ResponseCodec.decode(error, in -> null)).isEqualTo(
                ErrorResponse.protocolError("Truncated message: QUERY string needs 8 bytes but only 2 remain"));
        assertThat(client.isOpen()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"V4", "V5"})
    void handlesRequestsArrivingOneByteAtATime(String versionName) {
        ProtocolVersion version = ProtocolVersion.valueOf(versionName);
        EmbeddedClient client = new EmbeddedClient(handler).version(version);
        Envelope startup = RequestCodec.encode(new Startup(Map.of("CQL_VERSION", "3.0.0")), 0, version, ballot.cql.protocol.TestBytes.UNTRACKED);

        dribble(client, client.wire(startup));
        assertThat(client.next()).isEqualTo(new Ready());
        client.afterStartup(null);
        dribble(client, client.wire(RequestCodec.encode(query("SELECT 3"), 1, version, ballot.cql.protocol.TestBytes.UNTRACKED)));

        assertThat(handler.calls).singleElement().satisfies(c -> assertThat(c.query()).isEqualTo("SELECT 3"));
    }

    private static void dribble(EmbeddedClient client, ByteBuf wire) {
        while (wire.isReadable()) client.sendBytes(wire.readBytes(1));
    }
}
