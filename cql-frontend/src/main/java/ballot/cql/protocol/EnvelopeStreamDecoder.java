package ballot.cql.protocol;

import io.netty.buffer.ByteBuf;
import java.util.List;

/**
 * Turns the bytes a client sends into {@link Envelope}s. Implementations consume what they can from {@code in},
 * leave an incomplete tail for the next call, and add to {@code out} either envelopes or one final
 * {@link ProtocolViolation}, after which they discard everything. They never throw on bad input.
 */
public interface EnvelopeStreamDecoder {
    void decode(ByteBuf in, List<Object> out);

    /** True once a {@link ProtocolViolation} was emitted. */
    boolean hasFailed();

    /** Bytes this decoder holds of envelopes not yet complete, beyond the input it was given. */
    default int partialBytes() {
        return 0;
    }
}
