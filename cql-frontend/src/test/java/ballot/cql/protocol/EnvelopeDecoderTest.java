package ballot.cql.protocol;

import static ballot.cql.protocol.TestBytes.hex;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EnvelopeDecoderTest {
    private static final int MAX = 1024;

    private static List<Object> decode(EnvelopeStreamDecoder decoder, ByteBuf in) {
        List<Object> out = new ArrayList<>();
        decoder.decode(in, out);
        return out;
    }

    @Test
    void decodesOptionsRequestFromSpecBytes() {
        List<Object> out = decode(new EnvelopeDecoder(MAX), hex("04 00 00 00 05 00 00 00 00"));

        assertThat(out).singleElement().isInstanceOfSatisfying(Envelope.class, e -> {
            assertThat(e.version()).isEqualTo(ProtocolVersion.V4);
            assertThat(e.opcode()).isEqualTo(Opcode.OPTIONS);
            assertThat(e.streamId()).isZero();
            assertThat(e.flags()).isZero();
            assertThat(e.body().readableBytes()).isZero();
        });
    }

    @Test
    void decodesNothingUntilTheLastByteOfAnEnvelopeArrives() {
        // QUERY "SELECT 1" at ONE, v5, stream 0x0102, no flags: 4+8 string bytes, 2 consistency, 4 flags
        ByteBuf query = hex("05 00 01 02 07 00 00 00 12 00 00 00 08" + ascii("SELECT 1") + "00 01 00 00 00 00");
        List<Object> early = new ArrayList<>();

        List<Object> out = TestBytes.feedByteByByte(new EnvelopeDecoder(MAX), query, early);

        assertThat(early).isEmpty();
        assertThat(out).singleElement().isInstanceOfSatisfying(Envelope.class, e -> {
            assertThat(e.opcode()).isEqualTo(Opcode.QUERY);
            assertThat(e.streamId()).isEqualTo(0x0102);
            assertThat(e.body().readableBytes()).isEqualTo(0x12);
        });
    }

    @Test
    void decodesBackToBackEnvelopesFromOneBuffer() {
        List<Object> out = decode(new EnvelopeDecoder(MAX),
                hex("04 00 00 01 05 00 00 00 00  04 00 00 02 05 00 00 00 00  04 00 00"));

        assertThat(out).hasSize(2).allMatch(o -> o instanceof Envelope);
        assertThat(((Envelope) out.get(1)).streamId()).isEqualTo(2);
    }

    @Test
    void answersUnknownVersionOnStreamZeroWithCassandrasMessageAfterOneByte() {
        List<Object> out = decode(new EnvelopeDecoder(MAX), hex("42"));

        assertThat(out).containsExactly(new ProtocolViolation(0,
                "Invalid or unsupported protocol version (66); supported versions are (3/v3, 4/v4, 5/v5)", 0));
    }

    @Test
    void marksObsoleteVersionsSoTheyAreAnsweredInTheirOwnVersion() {
        List<Object> out = decode(new EnvelopeDecoder(MAX), hex("02 00 00 05 00 00 00 00"));

        assertThat(out).singleElement().isInstanceOfSatisfying(ProtocolViolation.class,
                v -> assertThat(v.obsoleteVersion()).isEqualTo(2));
    }

    @Test
    void rejectsAResponseSentByAClient() {
        List<Object> out = decode(new EnvelopeDecoder(MAX), hex("84 00 00 07 02 00 00 00 00"));

        assertThat(out).containsExactly(ProtocolViolation.onStream(7,
                "Wrong protocol direction (expected REQUEST, got RESPONSE) for opcode 2 (READY)"));
    }

    @Test
    void rejectsAResponseOpcodeSentAsARequestNamingTheOpcodesDirection() {
        List<Object> out = decode(new EnvelopeDecoder(MAX), hex("04 00 00 07 02 00 00 00 00"));

        assertThat(out).containsExactly(ProtocolViolation.onStream(7,
                "Wrong protocol direction (expected RESPONSE, got REQUEST) for opcode 2 (READY)"));
    }

    @Test
    void rejectsARequestOnANegativeStreamWhichIsAnsweredOnStreamZero() {
        List<Object> out = decode(new EnvelopeDecoder(MAX), hex("04 00 ff fb 05 00 00 00 00"));

        assertThat(out).containsExactly(ProtocolViolation.onStream(0,
                "Invalid stream id -5: negative stream ids are reserved for events the server sends; requests use 0 to 32767"));
    }

    @Test
    void rejectsAnUnknownOpcodeOnItsStream() {
        List<Object> out = decode(new EnvelopeDecoder(MAX), hex("04 00 00 09 04 00 00 00 00"));

        assertThat(out).containsExactly(ProtocolViolation.onStream(9, "Unknown opcode 4"));
    }

    @Test
    void rejectsABodyOverFrameBytesMaxFromItsHeaderAlone() {
        List<Object> out = decode(new EnvelopeDecoder(MAX), hex("04 00 00 03 07 00 00 04 01"));

        assertThat(out).containsExactly(ProtocolViolation.onStream(3,
                "Request is too big: length 1025 exceeds maximum allowed length 1024 (frameBytesMax)"));
    }

    @Test
    void discardsEverythingAfterAViolation() {
        EnvelopeDecoder decoder = new EnvelopeDecoder(MAX);
        ByteBuf in = Unpooled.buffer().writeBytes(hex("04 00 00 09 04 00 00 00 00  04 00 00 01 05 00 00 00 00"));

        List<Object> out = decode(decoder, in);
        in.writeBytes(hex("04 00 00 02 05 00 00 00 00"));
        out.addAll(decode(decoder, in));

        assertThat(out).hasSize(1).allMatch(o -> o instanceof ProtocolViolation);
        assertThat(decoder.hasFailed()).isTrue();
        assertThat(in.readableBytes()).isZero();
    }

    @Test
    void leavesAnIncompleteEnvelopeInTheBuffer() {
        ByteBuf in = hex("04 00 00 01 07 00 00 00 10 00 00");

        assertThat(decode(new EnvelopeDecoder(MAX), in)).isEmpty();
        assertThat(in.readerIndex()).isZero();
    }

    static String ascii(String s) {
        return TestBytes.hexOf(Unpooled.wrappedBuffer(s.getBytes(StandardCharsets.US_ASCII)));
    }
}
