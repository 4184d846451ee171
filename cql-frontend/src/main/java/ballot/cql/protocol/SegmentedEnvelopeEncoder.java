package ballot.cql.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.List;

/**
 * Wraps response envelopes in v5 segments: an envelope that fits is sent in one self-contained segment; a larger one
 * is cut into non-self-contained segments of at most {@link SegmentCodec#PAYLOAD_BYTES_MAX} bytes, sent in order.
 */
public final class SegmentedEnvelopeEncoder {
    private final SegmentCodec segments;

    public SegmentedEnvelopeEncoder(SegmentCodec segments) {
        this.segments = segments;
    }

    /** Adds the encoded segments to {@code out}; the envelope is left untouched and still owned by the caller. */
    public void encode(Envelope envelope, ByteBufAllocator alloc, List<Object> out) {
        int totalBytes = Envelope.HEADER_BYTES + envelope.body().readableBytes();
        ByteBuf whole = alloc.buffer(totalBytes);
        try {
            EnvelopeEncoder.writeTo(envelope, whole);
            boolean selfContained = totalBytes <= SegmentCodec.PAYLOAD_BYTES_MAX;
            while (whole.isReadable()) {
                int partBytes = Math.min(whole.readableBytes(), SegmentCodec.PAYLOAD_BYTES_MAX);
                out.add(segments.encode(whole.slice(whole.readerIndex(), partBytes), selfContained, alloc));
                whole.skipBytes(partBytes);
            }
        } finally {
            whole.release();
        }
    }
}
