package ballot.cql.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.error.ProtocolException;
import ballot.cql.protocol.Envelope;
import ballot.cql.protocol.EnvelopeDecoder;
import ballot.cql.protocol.EnvelopeStreamDecoder;
import ballot.cql.protocol.Opcode;
import ballot.cql.protocol.ProtocolVersion;
import ballot.cql.protocol.ProtocolViolation;
import ballot.cql.protocol.SegmentCodec;
import ballot.cql.protocol.SegmentedEnvelopeDecoder;
import ballot.cql.protocol.message.RequestCodec;
import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a client's bytes can do to the decoders: produce envelopes, or one final {@link ProtocolViolation}, and
 * nothing else; never an exception. Run as unit tests over the corpus in {@code ProtocolFuzzTestInputs}; fuzzed by
 * {@code tests/run-fuzz.sh}.
 */
class ProtocolFuzzTest {
    private static final int FRAME_BYTES_MAX = 64 * 1024;
    private static final Opcode[] REQUESTS = Arrays.stream(Opcode.values()).filter(Opcode::isRequest).toArray(Opcode[]::new);

    @FuzzTest(maxDuration = "12s")
    void envelopeDecoderTakesAnyBytes(FuzzedDataProvider data) {
        int split = data.consumeInt(0, 64);
        decodeInTwoReads(new EnvelopeDecoder(FRAME_BYTES_MAX), data.consumeRemainingAsBytes(), split);
    }

    @FuzzTest(maxDuration = "12s")
    void segmentDecoderTakesAnyBytes(FuzzedDataProvider data) {
        SegmentCodec codec = data.consumeBoolean() ? SegmentCodec.lz4() : SegmentCodec.uncompressed();
        int split = data.consumeInt(0, 64);
        SegmentedEnvelopeDecoder decoder = new SegmentedEnvelopeDecoder(codec, FRAME_BYTES_MAX);
        try {
            decodeInTwoReads(decoder, data.consumeRemainingAsBytes(), split);
        } finally {
            decoder.discardPartial();
        }
    }

    @FuzzTest(maxDuration = "12s")
    void requestBodiesDecodeOrAreProtocolErrors(FuzzedDataProvider data) {
        Opcode opcode = data.pickValue(REQUESTS);
        ProtocolVersion version = data.pickValue(ProtocolVersion.values());
        Envelope envelope = new Envelope(version, 0, 1, opcode, Unpooled.wrappedBuffer(data.consumeRemainingAsBytes()));
        try {
            assertThat(RequestCodec.decode(envelope)).isNotNull();
        } catch (ProtocolException expected) {
            // a malformed body: the connection answers PROTOCOL_ERROR and closes
        } finally {
            envelope.release();
        }
    }

    /** Feeds {@code bytes} in two reads, as a socket may deliver them, and checks what comes out. */
    private static void decodeInTwoReads(EnvelopeStreamDecoder decoder, byte[] bytes, int split) {
        int first = Math.min(split, bytes.length);
        ByteBuf in = Unpooled.buffer(bytes.length);
        List<Object> out = new ArrayList<>();
        try {
            in.writeBytes(bytes, 0, first);
            decoder.decode(in, out);
            in.discardReadBytes();
            in.writeBytes(bytes, first, bytes.length - first);
            decoder.decode(in, out);
            for (int i = 0; i < out.size(); i++) {
                Object o = out.get(i);
                assertThat(o).isInstanceOfAny(Envelope.class, ProtocolViolation.class);
                if (o instanceof ProtocolViolation) {
                    assertThat(i).as("a violation is the last thing decoded").isEqualTo(out.size() - 1);
                    assertThat(decoder.hasFailed()).isTrue();
                }
            }
        } finally {
            for (Object o : out) if (o instanceof Envelope e) e.release();
            in.release();
        }
    }
}
