package ballot.cql.protocol;

import static ballot.cql.protocol.TestBytes.bytesOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.ProtocolException;
import com.datastax.oss.driver.internal.core.protocol.ByteBufPrimitiveCodec;
import com.datastax.oss.protocol.internal.Compressor;
import com.datastax.oss.protocol.internal.CrcMismatchException;
import com.datastax.oss.protocol.internal.util.Crc;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * v5 segments (native_protocol_v5.spec §2.1-2.2), checked against the DataStax driver's own segment codec and CRC
 * functions, which Cassandra and the drivers agree with.
 */
class SegmentCodecTest {
    private static final ByteBufAllocator ALLOC = TestBytes.UNTRACKED;
    private static final ByteBufPrimitiveCodec DRIVER_PRIMITIVES = new ByteBufPrimitiveCodec(ALLOC);
    private final Random random = new Random(42);

    private static com.datastax.oss.protocol.internal.SegmentCodec<ByteBuf> driverCodec() {
        return new com.datastax.oss.protocol.internal.SegmentCodec<>(DRIVER_PRIMITIVES, Compressor.none());
    }

    private ByteBuf randomPayload(int bytes) {
        byte[] data = new byte[bytes];
        random.nextBytes(data);
        return Unpooled.wrappedBuffer(data);
    }

    @Test
    void crc24MatchesTheDriversForHeaderSizedInputs() {
        for (int i = 0; i < 1000; i++) {
            long bytes = random.nextLong();
            int length = i % 2 == 0 ? 3 : 5;
            long masked = bytes & ((1L << (8 * length)) - 1);
            assertThat(ballot.cql.protocol.Crc.crc24(masked, length)).isEqualTo(Crc.computeCrc24(masked, length));
        }
    }

    @Test
    void crc32IsSeededLikeTheDrivers() {
        ByteBuf payload = randomPayload(1000);

        assertThat(ballot.cql.protocol.Crc.crc32(payload, 0, 1000))
                .isEqualTo(Crc.computeCrc32(payload.duplicate(), DRIVER_PRIMITIVES))
                .isNotEqualTo((int) crc32Unseeded(bytesOf(payload)));
    }

    private static long crc32Unseeded(byte[] data) {
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(data);
        return crc.getValue();
    }

    @Test
    void writesTheSameBytesAsTheDriverForUncompressedSegments() {
        for (boolean selfContained : new boolean[] {true, false}) {
            ByteBuf payload = randomPayload(300);
            List<Object> parts = new ArrayList<>();
            driverCodec().encode(new com.datastax.oss.protocol.internal.Segment<>(payload.retainedDuplicate(), selfContained), parts);
            ByteBuf driverBytes = Unpooled.wrappedBuffer(parts.stream().map(ByteBuf.class::cast).toArray(ByteBuf[]::new));

            ByteBuf ours = SegmentCodec.uncompressed().encode(payload, selfContained, ALLOC);

            assertThat(bytesOf(ours)).isEqualTo(bytesOf(driverBytes));
        }
    }

    @Test
    void driverDecodesOurSegmentAndWeDecodeItsOne() throws CrcMismatchException {
        ByteBuf payload = randomPayload(SegmentCodec.PAYLOAD_BYTES_MAX);
        ByteBuf ours = SegmentCodec.uncompressed().encode(payload, true, ALLOC);

        var header = driverCodec().decodeHeader(ours);
        var decodedByDriver = driverCodec().decode(header, ours);

        assertThat(header.isSelfContained).isTrue();
        assertThat(bytesOf(decodedByDriver.payload)).isEqualTo(bytesOf(payload));

        List<Object> parts = new ArrayList<>();
        driverCodec().encode(new com.datastax.oss.protocol.internal.Segment<>(payload.retainedDuplicate(), false), parts);
        ByteBuf driverBytes = Unpooled.wrappedBuffer(parts.stream().map(ByteBuf.class::cast).toArray(ByteBuf[]::new));
        Segment segment = SegmentCodec.uncompressed().decode(driverBytes, ALLOC);
        assertThat(segment.selfContained()).isFalse();
        assertThat(bytesOf(segment.payload())).isEqualTo(bytesOf(payload));
    }

    @Test
    void headerCarriesLengthAndSelfContainedFlagLittleEndian() {
        ByteBuf encoded = SegmentCodec.uncompressed().encode(Unpooled.wrappedBuffer(new byte[0x0102]), true, ALLOC);

        // 0x0102 | 1 << 17 = 0x020102, least significant byte first
        assertThat(TestBytes.hexOf(encoded.slice(0, 3))).isEqualTo("02 01 02");
        assertThat(encoded.readableBytes()).isEqualTo(6 + 0x0102 + 4);
    }

    @Test
    void lz4SegmentsRoundTripAndShrinkCompressiblePayloads() {
        ByteBuf payload = Unpooled.wrappedBuffer("abcdefgh".repeat(4000).getBytes());

        ByteBuf encoded = SegmentCodec.lz4().encode(payload, false, ALLOC);
        Segment decoded = SegmentCodec.lz4().decode(encoded, ALLOC);

        assertThat(encoded.readableBytes()).isLessThan(32000 / 10);
        assertThat(decoded.selfContained()).isFalse();
        assertThat(bytesOf(decoded.payload())).isEqualTo(bytesOf(payload));
    }

    @Test
    void lz4SendsIncompressiblePayloadsAsIsWithUncompressedLengthZero() {
        ByteBuf payload = randomPayload(1000);

        ByteBuf encoded = SegmentCodec.lz4().encode(payload, true, ALLOC);
        long header = encoded.getUnsignedIntLE(0) | ((long) encoded.getUnsignedByte(4) << 32);

        assertThat(header & 0x1FFFF).isEqualTo(1000);
        assertThat((header >>> 17) & 0x1FFFF).isZero();
        assertThat(header & (1L << 34)).isNotZero();
        assertThat(bytesOf(SegmentCodec.lz4().decode(encoded, ALLOC).payload())).isEqualTo(bytesOf(payload));
    }

    @Test
    void needsTheWholeSegmentBeforeDecodingIt() {
        ByteBuf encoded = SegmentCodec.uncompressed().encode(randomPayload(50), true, ALLOC);
        for (int available = 0; available < encoded.readableBytes(); available++)
            assertThat(SegmentCodec.uncompressed().decode(encoded.slice(0, available), ALLOC)).isNull();
        assertThat(SegmentCodec.uncompressed().decode(encoded, ALLOC)).isNotNull();
    }

    @Test
    void rejectsACorruptHeader() {
        ByteBuf encoded = SegmentCodec.uncompressed().encode(randomPayload(50), true, ALLOC);
        encoded.setByte(0, encoded.getByte(0) ^ 0x01);

        assertThatThrownBy(() -> SegmentCodec.uncompressed().decode(encoded, ALLOC))
                .isInstanceOf(ProtocolException.class).hasMessageStartingWith("Segment header CRC24 mismatch");
    }

    @Test
    void rejectsACorruptPayload() {
        ByteBuf encoded = SegmentCodec.lz4().encode(randomPayload(50), true, ALLOC);
        encoded.setByte(20, encoded.getByte(20) ^ 0x40);

        assertThatThrownBy(() -> SegmentCodec.lz4().decode(encoded, ALLOC))
                .isInstanceOf(ProtocolException.class).hasMessageStartingWith("Segment payload CRC32 mismatch");
    }
}
