package ballot.cql.protocol.message;

import ballot.cql.protocol.Envelope;
import ballot.cql.protocol.EnvelopeDecoder;
import ballot.cql.protocol.EnvelopeEncoder;
import ballot.cql.protocol.ProtocolViolation;
import com.datastax.oss.driver.internal.core.protocol.ByteBufPrimitiveCodec;
import com.datastax.oss.protocol.internal.Compressor;
import com.datastax.oss.protocol.internal.Frame;
import com.datastax.oss.protocol.internal.FrameCodec;
import com.datastax.oss.protocol.internal.Message;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;

/**
 * The DataStax driver's own frame codec, as an independent reference: requests it encodes must decode with ours, and
 * responses we encode must decode with it.
 */
final class DriverCodec {
    private static final FrameCodec<ByteBuf> CLIENT =
            FrameCodec.defaultClient(new ByteBufPrimitiveCodec(ballot.cql.protocol.TestBytes.UNTRACKED), Compressor.none());

    private DriverCodec() {}

    /** What the driver sends for {@code message}, decoded by our server-side envelope decoder. */
    static Envelope driverRequest(Message message, int version, int stream) {
        ByteBuf bytes = CLIENT.encode(Frame.forRequest(version, stream, false, Frame.NO_PAYLOAD, message));
        List<Object> out = new ArrayList<>();
        new EnvelopeDecoder(1 << 24).decode(bytes, out);
        if (out.size() != 1 || out.get(0) instanceof ProtocolViolation)
            throw new AssertionError("driver request did not decode as one envelope: " + out);
        return (Envelope) out.get(0);
    }

    /** Our response envelope as the driver reads it. */
    static Frame driverDecode(Envelope envelope) {
        ByteBuf bytes = Unpooled.buffer();
        EnvelopeEncoder.writeTo(envelope, bytes);
        return CLIENT.decode(bytes);
    }
}
