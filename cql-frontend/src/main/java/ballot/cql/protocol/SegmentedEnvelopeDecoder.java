package ballot.cql.protocol;

import ballot.cql.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import java.util.List;

/**
 * Decodes request envelopes carried in v5 segments, once the STARTUP exchange is over (native_protocol_v5.spec
 * §2.3.1). A self-contained segment must hold whole envelopes only; an envelope larger than one segment arrives as a
 * run of non-self-contained segments, the first starting with the envelope header, which are joined before the
 * envelope is decoded. Any checksum mismatch, or a segment out of place, is a {@link ProtocolViolation}: the stream
 * cannot be trusted after it.
 */
public final class SegmentedEnvelopeDecoder implements EnvelopeStreamDecoder {
    private final SegmentCodec segments;
    private final EnvelopeDecoder envelopes;
    private boolean failed;
    /** The parts received so far of a multi-segment envelope, or null. */
    private ByteBuf partial;
    private int partialBytesExpected;

    /** A server's decoder, of requests. */
    public SegmentedEnvelopeDecoder(SegmentCodec segments, int frameBytesMax) {
        this(segments, new EnvelopeDecoder(frameBytesMax));
    }

    private SegmentedEnvelopeDecoder(SegmentCodec segments, EnvelopeDecoder envelopes) {
        this.segments = segments;
        this.envelopes = envelopes;
    }

    /** A client's decoder, of responses. */
    public static SegmentedEnvelopeDecoder forResponses(SegmentCodec segments, int frameBytesMax) {
        return new SegmentedEnvelopeDecoder(segments, EnvelopeDecoder.forResponses(frameBytesMax));
    }

    @Override
    public void decode(ByteBuf in, List<Object> out) {
        while (!failed) {
            Segment segment;
            try {
                segment = segments.decode(in, in.alloc());
            } catch (ProtocolException e) {
                fail(ProtocolViolation.onStream(0, e.getMessage()), out);
                break;
            }
            if (segment == null) break;
            try {
                if (segment.selfContained()) onSelfContained(segment.payload(), out);
                else onPart(segment.payload(), out);
            } finally {
                segment.payload().release();
            }
        }
        if (failed) in.skipBytes(in.readableBytes());
    }

    @Override
    public boolean hasFailed() {
        return failed;
    }

    /** The buffer a multi-segment envelope is assembled in: allocated whole when its first segment comes. */
    @Override
    public int partialBytes() {
        return partial == null ? 0 : partial.capacity();
    }

    /** Releases a half-assembled envelope; call when the connection goes away. */
    public void discardPartial() {
        if (partial != null) {
            partial.release();
            partial = null;
        }
    }

    private void onSelfContained(ByteBuf payload, List<Object> out) {
        if (partial != null) {
            fail(ProtocolViolation.onStream(0, "Self-contained segment received while "
                    + (partialBytesExpected - partial.readableBytes()) + " bytes of a multi-segment envelope are missing"), out);
            return;
        }
        while (payload.isReadable()) {
            Object decoded = envelopes.decodeOne(payload);
            if (decoded == null) {
                fail(ProtocolViolation.onStream(0, "Self-contained segment ends inside an envelope ("
                        + payload.readableBytes() + " trailing bytes)"), out);
                return;
            }
            if (decoded instanceof ProtocolViolation violation) {
                fail(violation, out);
                return;
            }
            out.add(decoded);
        }
    }

    private void onPart(ByteBuf payload, List<Object> out) {
        if (partial == null) {
            if (payload.readableBytes() < Envelope.HEADER_BYTES) {
                fail(ProtocolViolation.onStream(0, "First segment of a multi-segment envelope holds "
                        + payload.readableBytes() + " bytes, less than an envelope header"), out);
                return;
            }
            Object decoded = envelopes.decodeOne(payload.duplicate());
            if (decoded instanceof ProtocolViolation violation) {
                fail(violation, out);
                return;
            }
            if (decoded instanceof Envelope envelope) {
                envelope.release();
                fail(ProtocolViolation.onStream(envelope.streamId(),
                        "Envelope fits in one segment but was sent as part of a multi-segment envelope"), out);
                return;
            }
            partialBytesExpected = Envelope.HEADER_BYTES + payload.getInt(payload.readerIndex() + 5);
            partial = payload.alloc().buffer(partialBytesExpected);
        }
        if (partial.readableBytes() + payload.readableBytes() > partialBytesExpected) {
            int streamId = partial.getShort(partial.readerIndex() + 2);
            fail(ProtocolViolation.onStream(streamId, "Multi-segment envelope overruns its declared length of "
                    + partialBytesExpected + " bytes"), out);
            return;
        }
        partial.writeBytes(payload);
        if (partial.readableBytes() == partialBytesExpected) {
            Object decoded = envelopes.decodeOne(partial);
            discardPartial();
            out.add(decoded);
        }
    }

    private void fail(ProtocolViolation violation, List<Object> out) {
        failed = true;
        discardPartial();
        out.add(violation);
    }
}
