package ballot.cql.data;

import java.nio.ByteBuffer;

/**
 * The Murmur3 partitioner's token function: the first 64 bits of MurmurHash3 x64_128 (seed 0) exactly as
 * Cassandra computes it, including its sign extension of tail bytes, so that drivers' token-aware routing
 * agrees with us bit for bit. {@link Long#MIN_VALUE} is reserved as the ring's minimum and maps to
 * {@link Long#MAX_VALUE}.
 */
public final class Murmur3 {
    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;

    private Murmur3() {}

    /** The token of a serialized partition key (reads {@code key} from position to limit without moving it). */
    public static long token(ByteBuffer key) {
        long hash = hash3x64first(key, key.position(), key.remaining());
        return hash == Long.MIN_VALUE ? Long.MAX_VALUE : hash;
    }

    static long hash3x64first(ByteBuffer key, int offset, int length) {
        int blocks = length >> 4;
        long h1 = 0;
        long h2 = 0;
        for (int i = 0; i < blocks; i++) {
            long k1 = littleEndianLong(key, offset + (i << 4));
            long k2 = littleEndianLong(key, offset + (i << 4) + 8);
            h1 ^= mixK1(k1);
            h1 = Long.rotateLeft(h1, 27);
            h1 += h2;
            h1 = h1 * 5 + 0x52dce729;
            h2 ^= mixK2(k2);
            h2 = Long.rotateLeft(h2, 31);
            h2 += h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        int tail = offset + (blocks << 4);
        long k1 = 0;
        long k2 = 0;
        // Cassandra reads tail bytes as signed: (long) b << n sign-extends; drivers copy this, so must we.
        switch (length & 15) {
            case 15: k2 ^= ((long) key.get(tail + 14)) << 48;
            case 14: k2 ^= ((long) key.get(tail + 13)) << 40;
            case 13: k2 ^= ((long) key.get(tail + 12)) << 32;
            case 12: k2 ^= ((long) key.get(tail + 11)) << 24;
            case 11: k2 ^= ((long) key.get(tail + 10)) << 16;
            case 10: k2 ^= ((long) key.get(tail + 9)) << 8;
            case 9:
                k2 ^= key.get(tail + 8);
                h2 ^= mixK2(k2);
            case 8: k1 ^= ((long) key.get(tail + 7)) << 56;
            case 7: k1 ^= ((long) key.get(tail + 6)) << 48;
            case 6: k1 ^= ((long) key.get(tail + 5)) << 40;
            case 5: k1 ^= ((long) key.get(tail + 4)) << 32;
            case 4: k1 ^= ((long) key.get(tail + 3)) << 24;
            case 3: k1 ^= ((long) key.get(tail + 2)) << 16;
            case 2: k1 ^= ((long) key.get(tail + 1)) << 8;
            case 1:
                k1 ^= key.get(tail);
                h1 ^= mixK1(k1);
            default:
                break;
        }
        h1 ^= length;
        h2 ^= length;
        h1 += h2;
        h2 += h1;
        h1 = fmix(h1);
        h2 = fmix(h2);
        return h1 + h2;
    }

    private static long mixK1(long k1) {
        k1 *= C1;
        k1 = Long.rotateLeft(k1, 31);
        return k1 * C2;
    }

    private static long mixK2(long k2) {
        k2 *= C2;
        k2 = Long.rotateLeft(k2, 33);
        return k2 * C1;
    }

    private static long littleEndianLong(ByteBuffer key, int at) {
        return (key.get(at) & 0xffL)
                | (key.get(at + 1) & 0xffL) << 8
                | (key.get(at + 2) & 0xffL) << 16
                | (key.get(at + 3) & 0xffL) << 24
                | (key.get(at + 4) & 0xffL) << 32
                | (key.get(at + 5) & 0xffL) << 40
                | (key.get(at + 6) & 0xffL) << 48
                | (key.get(at + 7) & 0xffL) << 56;
    }

    private static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
