package ballot.cql.transport;

import ballot.cql.error.ProtocolException;
import ballot.cql.protocol.Envelope;
import ballot.cql.protocol.EnvelopeDecoder;
import ballot.cql.protocol.EnvelopeStreamDecoder;
import ballot.cql.protocol.BodyCompressor;
import ballot.cql.protocol.ProtocolViolation;
import ballot.cql.protocol.SegmentCodec;
import ballot.cql.protocol.SegmentedEnvelopeDecoder;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bytes to request envelopes (or one final {@link ProtocolViolation}). Starts unframed; {@link Connection} switches it
 * to v5 segments, or to v4 body decompression, after answering STARTUP. Bodies come out decompressed.
 *
 * <p>Invariant: {@code held}, the bytes of incomplete frames this connection holds (the undecoded input and the
 * decoder's partial envelope), is counted in the server's {@link PartialFrames} until the connection goes. The
 * connection is closed when its growth takes the server past the budget, or when it holds an incomplete frame and has
 * completed none for a whole assembly-timeout period (so at most twice the timeout after the frame began).
 */
final class InboundFraming extends ByteToMessageDecoder {
    private static final Logger log = LoggerFactory.getLogger(InboundFraming.class);

    private final int frameBytesMax;
    private final PartialFrames partialFrames;
    private EnvelopeStreamDecoder decoder;
    private BodyCompressor bodies;
    private long held;
    /** Whether a frame was completed since the assembly timer was scheduled. */
    private boolean completedFrame;
    /** Runs while the connection may hold an incomplete frame; null otherwise. */
    private ScheduledFuture<?> assemblyTimer;

    InboundFraming(int frameBytesMax, PartialFrames partialFrames) {
        this.frameBytesMax = frameBytesMax;
        this.partialFrames = partialFrames;
        this.decoder = new EnvelopeDecoder(frameBytesMax);
    }

    /** From now on the client sends v5 segments. */
    void useSegments(SegmentCodec codec) {
        decoder = new SegmentedEnvelopeDecoder(codec, frameBytesMax);
    }

    /** From now on envelope bodies flagged COMPRESSED are compressed by {@code compressor} (v4 and earlier). */
    void decompressBodiesWith(BodyCompressor compressor) {
        bodies = compressor;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        super.channelRead(ctx, msg);
        countPartialFrames(ctx);
    }

    /**
     * Brings {@code held} up to date, and closes the connection if its growth takes the server past the budget. The
     * server-wide count is touched only when {@code held} changes, and the assembly timer is not rescheduled per read.
     */
    private void countPartialFrames(ChannelHandlerContext ctx) {
        if (ctx.isRemoved()) return; // closed while handling what was read: handlerRemoved0 released the count
        long now = decoder.hasFailed() ? 0 : (long) actualReadableBytes() + decoder.partialBytes();
        long grew = now - held;
        if (grew == 0) return;
        held = now;
        if (partialFrames.add(grew) && grew > 0) {
            long count = partialFrames.overBudget.occurred();
            if (count > 0) log.warn("closed client connection {}: its incomplete frames took the server past {} MiB held in "
                    + "incomplete frames (native_transport_max_partial_frame_data_in_mb); {} closed so far",
                    ctx.channel().remoteAddress(), partialFrames.bytesMax() >> 20, count);
            ctx.close();
        } else if (now > 0 && assemblyTimer == null) {
            scheduleAssemblyTimer(ctx);
        }
    }

    private void scheduleAssemblyTimer(ChannelHandlerContext ctx) {
        completedFrame = false;
        assemblyTimer = ctx.executor().schedule(() -> assemblyTimerFired(ctx), partialFrames.assemblyTimeout().toNanos(),
                TimeUnit.NANOSECONDS);
    }

    /** Closes the connection if it holds an incomplete frame and completed none in the whole period. */
    private void assemblyTimerFired(ChannelHandlerContext ctx) {
        assemblyTimer = null;
        if (held == 0) return;
        if (completedFrame) {
            scheduleAssemblyTimer(ctx);
            return;
        }
        long count = partialFrames.stalled.occurred();
        if (count > 0) log.warn("closed client connection {}: it sent part of a frame and no complete frame for {} ms "
                + "(native_transport_frame_assembly_timeout_in_ms); {} closed so far", ctx.channel().remoteAddress(),
                partialFrames.assemblyTimeout().toMillis(), count);
        ctx.close();
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int first = out.size();
        decoder.decode(in, out);
        if (out.size() > first) completedFrame = true;
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
            if (bodies == null)
                return ProtocolViolation.onStream(envelope.streamId(), "Envelope is flagged compressed but no compression was negotiated in STARTUP");
            ByteBuf body = bodies.decompress(envelope.body(), frameBytesMax, ctx.alloc());
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
        if (assemblyTimer != null) assemblyTimer.cancel(false);
        partialFrames.add(-held);
        held = 0;
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
