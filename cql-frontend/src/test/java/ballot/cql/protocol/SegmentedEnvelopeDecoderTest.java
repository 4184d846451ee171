package ballot.cql.protocol;

import static ballot.cql.protocol.TestBytes.bytesOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SegmentedEnvelopeDecoderTest {
    private static final ByteBufAllocator ALLOC = TestBytes.UNTRACKED;
    private static final int MAX = 1 << 20;

    private static Envelope query(int stream, int bodyBytes) {
        byte[] body = new byte[bodyBytes];
        new Random(stream).nextBytes(body);
        return new Envelope(ProtocolVersion.V5, 0, stream, Opcode.QUERY, Unpooled.wrappedBuffer(body));
    }

    private static ByteBuf envelopeBytes(Envelope... envelopes) {
        ByteBuf out = Unpooled.buffer();
        for (Envelope e : envelopes) EnvelopeEncoder.writeTo(e, out);
        return out;
    }

    private static ByteBuf concat(List<Object> buffers) {
        ByteBuf out = Unpooled.buffer();
        for (Object b : buffers) out.writeBytes((ByteBuf) b);
        return out;
    }

    private static List<Object> decode(SegmentedEnvelopeDecoder decoder, ByteBuf in) {
        List<Object> out = new ArrayList<>();
        decoder.decode(in, out);
        return out;
    }

    @Test
    void decodesSeveralEnvelopesFromOneSelfContainedSegment() {
        ByteBuf segment = SegmentCodec.uncompressed().encode(envelopeBytes(query(1, 10), query(2, 0), query(3, 99)), true, ALLOC);

        List<Object> out = decode(new SegmentedEnvelopeDecoder(SegmentCodec.uncompressed(), MAX), segment);

        assertThat(out).extracting(o -> ((Envelope) o).streamId()).containsExactly(1, 2, 3);
        assertThat(((Envelope) out.get(2)).body().readableBytes()).isEqualTo(99);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void reassemblesAnEnvelopeSplitAcrossSegmentsFedInSmallPieces(boolean lz4) {
        SegmentCodec codec = lz4 ? SegmentCodec.lz4() : SegmentCodec.uncompressed();
        Envelope big = query(7, 300_000);
        List<Object> segments = new ArrayList<>();
        new SegmentedEnvelopeEncoder(codec).encode(big, ALLOC, segments);
        ByteBuf wire = concat(segments);
        SegmentedEnvelopeDecoder decoder = new SegmentedEnvelopeDecoder(codec, MAX);

        List<Object> out = new ArrayList<>();
        ByteBuf cumulation = Unpooled.buffer();
        while (wire.isReadable()) {
            cumulation.writeBytes(wire, Math.min(wire.readableBytes(), 4099));
            decoder.decode(cumulation, out);
            cumulation.discardReadBytes();
        }

        assertThat(segments).hasSize(3);
        assertThat(out).singleElement().isInstanceOfSatisfying(Envelope.class, e -> {
            assertThat(e.streamId()).isEqualTo(7);
            assertThat(bytesOf(e.body())).isEqualTo(bytesOf(big.body()));
        });
    }

    @Test
    void rejectsASelfContainedSegmentThatEndsInsideAnEnvelope() {
        ByteBuf partial = envelopeBytes(query(1, 10)).slice(0, 12);
        ByteBuf segment = SegmentCodec.uncompressed().encode(partial, true, ALLOC);

        List<Object> out = decode(new SegmentedEnvelopeDecoder(SegmentCodec.uncompressed(), MAX), segment);

        assertThat(out).singleElement().isInstanceOfSatisfying(ProtocolViolation.class,
                v -> assertThat(v.message()).startsWith("Self-contained segment ends inside an envelope"));
    }

    @Test
    void reportsACrcMismatchAsAViolationAndStopsDecoding() {
        ByteBuf wire = Unpooled.buffer();
        wire.writeBytes(SegmentCodec.uncompressed().encode(envelopeBytes(query(1, 10)), true, ALLOC));
        int corruptAt = wire.writerIndex() + 8;
        wire.writeBytes(SegmentCodec.uncompressed().encode(envelopeBytes(query(2, 10)), true, ALLOC));
        wire.writeBytes(SegmentCodec.uncompressed().encode(envelopeBytes(query(3, 10)), true, ALLOC));
        wire.setByte(corruptAt, wire.getByte(corruptAt) ^ 0xFF);
        SegmentedEnvelopeDecoder decoder = new SegmentedEnvelopeDecoder(SegmentCodec.uncompressed(), MAX);

        List<Object> out = decode(decoder, wire);

        assertThat(out).hasSize(2);
        assertThat(((Envelope) out.get(0)).streamId()).isEqualTo(1);
        assertThat(out.get(1)).isInstanceOfSatisfying(ProtocolViolation.class, v -> {
            assertThat(v.streamId()).isZero();
            assertThat(v.message()).startsWith("Segment payload CRC32 mismatch");
        });
        assertThat(decoder.hasFailed()).isTrue();
        assertThat(wire.readableBytes()).isZero();
    }

    @Test
    void rejectsAMultiSegmentEnvelopeOverFrameBytesMaxFromItsFirstSegment() {
        List<Object> segments = new ArrayList<>();
        new SegmentedEnvelopeEncoder(SegmentCodec.uncompressed()).encode(query(5, 200_000), ALLOC, segments);
        SegmentedEnvelopeDecoder decoder = new SegmentedEnvelopeDecoder(SegmentCodec.uncompressed(), 150_000);

        List<Object> out = decode(decoder, (ByteBuf) segments.get(0));

        assertThat(out).containsExactly(ProtocolViolation.onStream(5,
                "Request is too big: length 200000 exceeds maximum allowed length 150000 (frameBytesMax)"));
    }

    @Test
    void rejectsASelfContainedSegmentInTheMiddleOfAMultiSegmentEnvelope() {
        List<Object> segments = new ArrayList<>();
        new SegmentedEnvelopeEncoder(SegmentCodec.uncompressed()).encode(query(5, 200_000), ALLOC, segments);
        ByteBuf wire = Unpooled.buffer();
        wire.writeBytes((ByteBuf) segments.get(0));
        wire.writeBytes(SegmentCodec.uncompressed().encode(envelopeBytes(query(6, 1)), true, ALLOC));

        List<Object> out = decode(new SegmentedEnvelopeDecoder(SegmentCodec.uncompressed(), MAX), wire);

        assertThat(out).singleElement().isInstanceOfSatisfying(ProtocolViolation.class,
                v -> assertThat(v.message()).startsWith("Self-contained segment received while"));
    }

    @Test
    void encodesAnEnvelopeThatFitsAsOneSelfContainedSegment() {
        List<Object> segments = new ArrayList<>();
        new SegmentedEnvelopeEncoder(SegmentCodec.uncompressed()).encode(query(1, SegmentCodec.PAYLOAD_BYTES_MAX - 9), ALLOC, segments);

        assertThat(segments).singleElement().satisfies(s -> {
            Segment segment = SegmentCodec.uncompressed().decode((ByteBuf) s, ALLOC);
            assertThat(segment.selfContained()).isTrue();
            assertThat(segment.payload().readableBytes()).isEqualTo(SegmentCodec.PAYLOAD_BYTES_MAX);
        });
    }
}
