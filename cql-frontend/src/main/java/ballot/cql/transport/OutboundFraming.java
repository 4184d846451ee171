package ballot.cql.transport;

import ballot.cql.protocol.Envelope;
import ballot.cql.protocol.EnvelopeEncoder;
import ballot.cql.protocol.BodyCompressor;
import ballot.cql.protocol.SegmentCodec;
import ballot.cql.protocol.SegmentedEnvelopeEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;

/**
 * Response envelopes to bytes. Starts unframed; {@link Connection} switches it to v5 segments, or to v4 body
 * compression, right after writing the answer to STARTUP, which therefore still goes out unframed and uncompressed.
 * Ready-made {@link ByteBuf}s (errors for obsolete versions) pass through untouched.
 */
final class OutboundFraming extends MessageToMessageEncoder<Envelope> {
    private SegmentedEnvelopeEncoder segments;
    private BodyCompressor bodies;

    OutboundFraming() {
        super(Envelope.class);
    }

    void useSegments(SegmentCodec codec) {
        segments = new SegmentedEnvelopeEncoder(codec);
    }

    void compressBodiesWith(BodyCompressor compressor) {
        bodies = compressor;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Envelope envelope, List<Object> out) {
        if (segments != null) {
            segments.encode(envelope, ctx.alloc(), out);
            return;
        }
        Envelope toSend = envelope;
        boolean compress = bodies != null && envelope.body().isReadable();
        if (compress)
            toSend = envelope.withBody(bodies.compress(envelope.body(), ctx.alloc()),
                    envelope.flags() | Envelope.FLAG_COMPRESSED);
        ByteBuf header = ctx.alloc().buffer(Envelope.HEADER_BYTES);
        EnvelopeEncoder.writeHeader(toSend, header);
        out.add(header);
        // the encoder releases `envelope` after this returns; hand on a reference of our own
        out.add(compress ? toSend.body() : toSend.body().retain());
    }
}
