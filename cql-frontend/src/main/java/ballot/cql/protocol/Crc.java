package ballot.cql.protocol;

import io.netty.buffer.ByteBuf;
import java.util.zip.CRC32;

/**
 * The two checksums of v5 segments (native_protocol_v5.spec §2.1, Cassandra's {@code org.apache.cassandra.net.Crc}).
 * Both are computed over bytes in wire order and written little-endian.
 */
final class Crc {
    /** CRC24 register start value, from the spec. */
    private static final int CRC24_INIT = 0x875060;
    /** CRC24 polynomial including its x^24 term, from the spec. */
    private static final int CRC24_POLY = 0x1974F0B;
    /**
     * Cassandra feeds these four bytes into every payload CRC32 before the payload itself; the spec does not say
     * so, but a checksum without them is rejected by Cassandra and by the drivers.
     */
    private static final byte[] CRC32_SEED = {(byte) 0xFA, (byte) 0x2D, (byte) 0x55, (byte) 0xCA};

    private Crc() {}

    /**
     * CRC24 of the first {@code length} bytes of {@code littleEndianBytes}, least significant byte first: the header
     * bytes exactly as they appear on the wire.
     */
    static int crc24(long littleEndianBytes, int length) {
        int crc = CRC24_INIT;
        long remaining = littleEndianBytes;
        for (int i = 0; i < length; i++) {
            crc ^= (int) (remaining & 0xFF) << 16;
            remaining >>>= 8;
            for (int bit = 0; bit < 8; bit++) {
                crc <<= 1;
                if ((crc & 0x1000000) != 0) crc ^= CRC24_POLY;
            }
        }
        return crc & 0xFFFFFF;
    }

    /** CRC32 of {@code length} bytes of {@code buf} at {@code index}, seeded as Cassandra seeds it. */
    static int crc32(ByteBuf buf, int index, int length) {
        CRC32 crc = new CRC32();
        crc.update(CRC32_SEED);
        crc.update(buf.nioBuffer(index, length));
        return (int) crc.getValue();
    }
}
