package ballot.cql.transport;

import ballot.cql.protocol.Envelope;
import ballot.cql.protocol.EnvelopeDecoder;
import ballot.cql.protocol.EnvelopeEncoder;
import ballot.cql.protocol.EnvelopeStreamDecoder;
import ballot.cql.protocol.BodyCompressor;
import ballot.cql.protocol.ProtocolVersion;
import ballot.cql.protocol.ProtocolViolation;
import ballot.cql.protocol.SegmentCodec;
import ballot.cql.protocol.SegmentedEnvelopeDecoder;
import ballot.cql.protocol.SegmentedEnvelopeEncoder;
import ballot.cql.protocol.message.Request;
import ballot.cql.protocol.message.RequestCodec;
import ballot.cql.protocol.message.Response;
import ballot.cql.protocol.message.ResponseCodec;
import ballot.cql.protocol.message.Startup;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A client speaking to one server-side connection pipeline through an {@link EmbeddedChannel}: it encodes requests
 * as a driver would (switching to segments or compressed bodies when told), and decodes what the server writes back.
 */
final class EmbeddedClient {
    final EmbeddedChannel channel;
    ProtocolVersion version = ProtocolVersion.V5;
    private SegmentCodec segments;
    private BodyCompressor bodies;
    private EnvelopeStreamDecoder decoder = EnvelopeDecoder.forResponses(1 << 26);
    private final ByteBuf received = Unpooled.buffer();
    private final ArrayDeque<Object> decoded = new ArrayDeque<>();

    EmbeddedClient(CqlServerOptions options, RequestHandler handler, EventBroadcaster events) {
        channel = new EmbeddedChannel(new CqlChannelInitializer(options, handler, events, null));
    }

    EmbeddedClient(RequestHandler handler) {
        this(CqlServerOptions.defaults(), handler, new EventBroadcaster());
    }

    EmbeddedClient version(ProtocolVersion v) {
        this.version = v;
        return this;
    }

    /** STARTUP in {@link #version}, expecting READY, then switches framing as the driver does. */
    EmbeddedClient start(String compression) {
        send(new Startup(compression == null ? Map.of("CQL_VERSION", "3.0.0")
                : Map.of("CQL_VERSION", "3.0.0", "COMPRESSION", compression)), 0);
        Response ready = next();
        if (!(ready instanceof ballot.cql.protocol.message.Ready)) throw new AssertionError("expected READY, got " + ready);
        afterStartup(compression);
        return this;
    }

    void afterStartup(String compression) {
        if (version.usesSegments()) {
            segments = "lz4".equals(compression) ? SegmentCodec.lz4() : SegmentCodec.uncompressed();
            decoder = SegmentedEnvelopeDecoder.forResponses(segments, 1 << 26);
        } else {
            bodies = compression == null ? null : BodyCompressor.named(compression);
        }
    }

    void send(Request request, int stream) {
        Envelope envelope = RequestCodec.encode(request, stream, version, ballot.cql.protocol.TestBytes.UNTRACKED);
        sendBytes(wire(envelope));
        envelope.release();
    }

    ByteBuf wire(Envelope envelope) {
        if (segments != null) {
            List<Object> out = new ArrayList<>();
            new SegmentedEnvelopeEncoder(segments).encode(envelope, ballot.cql.protocol.TestBytes.UNTRACKED, out);
            ByteBuf all = Unpooled.buffer();
            for (Object o : out) {
                all.writeBytes((ByteBuf) o);
                ((ByteBuf) o).release();
            }
            return all;
        }
        Envelope toSend = envelope;
        if (bodies != null)
            toSend = envelope.withBody(bodies.compress(envelope.body(), ballot.cql.protocol.TestBytes.UNTRACKED),
                    envelope.flags() | Envelope.FLAG_COMPRESSED);
        ByteBuf out = Unpooled.buffer();
        EnvelopeEncoder.writeTo(toSend, out);
        if (toSend != envelope) toSend.release();
        return out;
    }

    void sendBytes(ByteBuf bytes) {
        channel.writeInbound(bytes);
    }

    /** The next envelope the server wrote, decompressed; null when none is waiting. */
    Envelope nextEnvelope() {
        drainOutbound();
        Object o = decoded.poll();
        if (o == null) return null;
        if (o instanceof ProtocolViolation v) throw new AssertionError("server wrote garbage: " + v);
        Envelope decoded = (Envelope) o;
        Envelope e = decoded.withBody(Unpooled.wrappedBuffer(io.netty.buffer.ByteBufUtil.getBytes(decoded.body())), decoded.flags());
        decoded.release();
        if (e.hasFlag(Envelope.FLAG_COMPRESSED) && !version.usesSegments())
            e = e.withBody(bodies.decompress(e.body(), 1 << 26, ballot.cql.protocol.TestBytes.UNTRACKED),
                    e.flags() & ~Envelope.FLAG_COMPRESSED);
        return e;
    }

    /** The next response the server wrote; fails when there is none. */
    Response next() {
        Envelope e = nextEnvelope();
        if (e == null) throw new AssertionError("the server wrote nothing");
        return ResponseCodec.decode(e, EmbeddedClient::readType);
    }

    private static ballot.cql.type.CqlType readType(ByteBuf in) {
        int id = in.readUnsignedShort();
        if (id == 0x0009) return ballot.cql.type.CqlTypes.INT;
        if (id == 0x000D) return ballot.cql.type.CqlTypes.TEXT;
        throw new IllegalArgumentException("tests read int and text columns only, not option 0x" + Integer.toHexString(id));
    }

    /** All bytes the server wrote and nobody decoded yet. */
    ByteBuf rawOutbound() {
        channel.runPendingTasks();
        ByteBuf all = Unpooled.buffer();
        ByteBuf b;
        while ((b = channel.readOutbound()) != null) {
            all.writeBytes(b);
            b.release();
        }
        return all;
    }

    private void drainOutbound() {
        received.writeBytes(rawOutbound());
        List<Object> out = new ArrayList<>();
        decoder.decode(received, out);
        received.discardReadBytes();
        decoded.addAll(out);
    }

    boolean isOpen() {
        return channel.isOpen();
    }
}
