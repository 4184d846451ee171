package ballot.cql.protocol;

import ballot.cql.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteBuffer;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * The v5 segment format (native_protocol_v5.spec §2.1, §2.2), as Cassandra's {@code FrameEncoderCrc},
 * {@code FrameDecoderCrc}, {@code FrameEncoderLZ4} and {@code FrameDecoderLZ4} write it. All segment integers are
 * little-endian.
 *
 * <pre>
 * uncompressed: 3-byte header  = payloadLength (17 bits) | selfContained (bit 17)
 *               3-byte CRC24 of those 3 header bytes
 *               payload (at most 128 KiB - 1), 4-byte CRC32 of the payload
 * lz4:          5-byte header  = compressedLength (17 bits) | uncompressedLength (bits 17-33) | selfContained (bit 34)
 *               3-byte CRC24 of those 5 header bytes
 *               compressed payload, 4-byte CRC32 of the compressed payload
 * </pre>
 *
 * With lz4, an uncompressed length of 0 means the payload was sent as is; the encoder does that whenever compression
 * would not make it smaller.
 */
public final class SegmentCodec {
    /** The largest payload of one segment, before compression. */
    public static final int PAYLOAD_BYTES_MAX = (1 << 17) - 1;
    private static final int CRC32_BYTES = 4;

    private static final SegmentCodec UNCOMPRESSED = new SegmentCodec(false);
    private static final SegmentCodec LZ4 = new SegmentCodec(true);

    private final boolean lz4;
    private final LZ4Compressor compressor;
    private final LZ4SafeDecompressor decompressor;

    private SegmentCodec(boolean lz4) {
        this.lz4 = lz4;
        this.compressor = lz4 ? LZ4Factory.fastestInstance().fastCompressor() : null;
        this.decompressor = lz4 ? LZ4Factory.fastestInstance().safeDecompressor() : null;
    }

    public static SegmentCodec uncompressed() {
        return UNCOMPRESSED;
    }

    public static SegmentCodec lz4() {
        return LZ4;
    }

    public boolean isCompressed() {
        return lz4;
    }

    public int headerBytes() {
        return lz4 ? 8 : 6;
    }

    /** Encodes one segment around {@code payload}'s readable bytes, leaving {@code payload} untouched. */
    public ByteBuf encode(ByteBuf payload, boolean selfContained, ByteBufAllocator alloc) {
        int payloadBytes = payload.readableBytes();
        if (payloadBytes > PAYLOAD_BYTES_MAX)
            throw new IllegalArgumentException("segment payload of " + payloadBytes + " bytes exceeds " + PAYLOAD_BYTES_MAX);
        return lz4 ? encodeLz4(payload, selfContained, alloc) : encodeUncompressed(payload, selfContained, alloc);
    }

    private ByteBuf encodeUncompressed(ByteBuf payload, boolean selfContained, ByteBufAllocator alloc) {
        int payloadBytes = payload.readableBytes();
        ByteBuf out = alloc.buffer(6 + payloadBytes + CRC32_BYTES);
        long header = payloadBytes | (selfContained ? 1L << 17 : 0);
        writeLittleEndian(out, header, 3);
        writeLittleEndian(out, Crc.crc24(header, 3), 3);
        int payloadIndex = out.writerIndex();
        out.writeBytes(payload, payload.readerIndex(), payloadBytes);
        out.writeIntLE(Crc.crc32(out, payloadIndex, payloadBytes));
        return out;
    }

    private ByteBuf encodeLz4(ByteBuf payload, boolean selfContained, ByteBufAllocator alloc) {
        int uncompressedBytes = payload.readableBytes();
        int maxCompressed = compressor.maxCompressedLength(uncompressedBytes);
        ByteBuf out = alloc.buffer(8 + Math.max(maxCompressed, uncompressedBytes) + CRC32_BYTES);
        int payloadIndex = 8;
        out.writerIndex(payloadIndex);
        ByteBuffer dest = out.nioBuffer(payloadIndex, maxCompressed);
        int compressedBytes = compressor.compress(payload.nioBuffer(payload.readerIndex(), uncompressedBytes), 0,
                uncompressedBytes, dest, 0, maxCompressed);
        int declaredUncompressed = uncompressedBytes;
        if (compressedBytes >= uncompressedBytes) {
            out.setBytes(payloadIndex, payload, payload.readerIndex(), uncompressedBytes);
            compressedBytes = uncompressedBytes;
            declaredUncompressed = 0;
        }
        long header = compressedBytes | ((long) declaredUncompressed << 17) | (selfContained ? 1L << 34 : 0);
        out.writerIndex(0);
        writeLittleEndian(out, header, 5);
        writeLittleEndian(out, Crc.crc24(header, 5), 3);
        out.writerIndex(payloadIndex + compressedBytes);
        out.writeIntLE(Crc.crc32(out, payloadIndex, compressedBytes));
        return out;
    }

    /**
     * Decodes the segment at the reader index.
     *
     * @return the segment, with the reader index moved past it; or null when more bytes are needed (reader index
     *     unchanged)
     * @throws ProtocolException when a checksum does not match or the payload does not decompress
     */
    public Segment decode(ByteBuf in, ByteBufAllocator alloc) {
        int headerBytes = headerBytes();
        if (in.readableBytes() < headerBytes) return null;
        int start = in.readerIndex();
        int headerFieldBytes = lz4 ? 5 : 3;
        long header = readLittleEndian(in, start, headerFieldBytes);
        int headerCrc = (int) readLittleEndian(in, start + headerFieldBytes, 3);
        int computedHeaderCrc = Crc.crc24(header, headerFieldBytes);
        if (headerCrc != computedHeaderCrc)
            throw new ProtocolException("Segment header CRC24 mismatch: read 0x" + Integer.toHexString(headerCrc)
                    + ", computed 0x" + Integer.toHexString(computedHeaderCrc));

        int payloadBytes = (int) (header & PAYLOAD_BYTES_MAX);
        int uncompressedBytes = lz4 ? (int) ((header >>> 17) & PAYLOAD_BYTES_MAX) : 0;
        boolean selfContained = (header & (1L << (lz4 ? 34 : 17))) != 0;
        if (in.readableBytes() < headerBytes + payloadBytes + CRC32_BYTES) return null;

        int payloadIndex = start + headerBytes;
        int readCrc = in.getIntLE(payloadIndex + payloadBytes);
        int computedCrc = Crc.crc32(in, payloadIndex, payloadBytes);
        if (readCrc != computedCrc)
            throw new ProtocolException("Segment payload CRC32 mismatch: read 0x" + Integer.toHexString(readCrc)
                    + ", computed 0x" + Integer.toHexString(computedCrc));
        in.readerIndex(payloadIndex + payloadBytes + CRC32_BYTES);

        if (uncompressedBytes == 0) return new Segment(in.retainedSlice(payloadIndex, payloadBytes), selfContained);
        ByteBuf out = alloc.buffer(uncompressedBytes);
        try {
            int written = decompressor.decompress(in.nioBuffer(payloadIndex, payloadBytes), 0, payloadBytes,
                    out.nioBuffer(0, uncompressedBytes), 0, uncompressedBytes);
            if (written != uncompressedBytes)
                throw new ProtocolException("Segment payload decompressed to " + written + " bytes; its header says "
                        + uncompressedBytes);
            out.writerIndex(uncompressedBytes);
            return new Segment(out, selfContained);
        } catch (LZ4Exception e) {
            out.release();
            throw new ProtocolException("Segment payload is not valid LZ4: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    private static void writeLittleEndian(ByteBuf out, long value, int bytes) {
        for (int i = 0; i < bytes; i++) out.writeByte((int) (value >>> (8 * i)));
    }

    private static long readLittleEndian(ByteBuf in, int index, int bytes) {
        long value = 0;
        for (int i = 0; i < bytes; i++) value |= (long) in.getUnsignedByte(index + i) << (8 * i);
        return value;
    }
}
