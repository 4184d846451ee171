package ballot.cql.transport;

import ballot.cql.error.ProtocolException;
import ballot.cql.protocol.Envelope;
import ballot.cql.protocol.EnvelopeDecoder;
import ballot.cql.protocol.EnvelopeStreamDecoder;
import ballot.cql.protocol.Lz4BodyCompressor;
import ballot.cql.protocol.ProtocolViolation;
import ballot.cql.protocol.SegmentCodec;
import ballot.cql.protocol.SegmentedEnvelopeDecoder;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Bytes to request envelopes (or one final {@link ProtocolViolation}). Starts unframed; {@link Connection} switches it
 * to v5 segments, or to v4 body decompression, after answering STARTUP. Bodies come out decompressed.
 */
final class InboundFraming extends ByteToMessageDecoder {
    private final int frameBytesMax;
    private EnvelopeStreamDecoder decoder;
    private boolean lz4Bodies;

    InboundFraming(int frameBytesMax) {
        this.frameBytesMax = frameBytesMax;
        this.decoder = new EnvelopeDecoder(frameBytesMax);
    }

    /** From now on the client sends v5 segments. */
    void useSegments(SegmentCodec codec) {
        decoder = new SegmentedEnvelopeDecoder(codec, frameBytesMax);
    }

    /** From now on envelope bodies flagged COMPRESSED are LZ4 blocks (v4 and earlier). */
    void decompressBodiesWithLz4() {
        lz4Bodies = true;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int first = out.size();
        decoder.decode(in, out);
        if (decoder instanceof SegmentedEnvelopeDecoder) return;
        for (int i = first; i < out.size(); i++) {
            if (out.get(i) instanceof Envelope envelope && envelope.hasFlag(Envelope.FLAG_COMPRESSED)) {
                Object decompressed = decompress(envelope, ctx);
                out.set(i, decompressed);
                if (decompressed instanceof ProtocolViolation) {
                    releaseAfter(out, i);
                    in.skipBytes(in.readableBytes());
                    decoder = new FailedDecoder();
                    return;
                }
            }
        }
    }

    private Object decompress(Envelope envelope, ChannelHandlerContext ctx) {
        try {
            if (!lz4Bodies)
                return ProtocolViolation.onStream(envelope.streamId(), "Envelope is flagged compressed but no compression was negotiated in STARTUP");
            ByteBuf body = Lz4BodyCompressor.decompress(envelope.body(), frameBytesMax, ctx.alloc());
            return envelope.withBody(body, envelope.flags() & ~Envelope.FLAG_COMPRESSED);
        } catch (ProtocolException e) {
            return ProtocolViolation.onStream(envelope.streamId(), e.getMessage());
        } finally {
            envelope.release();
        }
    }

    private static void releaseAfter(List<Object> out, int index) {
        while (out.size() > index + 1) {
            if (out.remove(out.size() - 1) instanceof Envelope dropped) dropped.release();
        }
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        if (decoder instanceof SegmentedEnvelopeDecoder segmented) segmented.discardPartial();
    }

    /** Swallows everything after a violation found while decompressing. */
    private static final class FailedDecoder implements EnvelopeStreamDecoder {
        @Override
        public void decode(ByteBuf in, List<Object> out) {
            in.skipBytes(in.readableBytes());
        }

        @Override
        public boolean hasFailed() {
            return true;
        }
    }
}
