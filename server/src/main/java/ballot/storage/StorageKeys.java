package ballot.storage;

import ballot.cql.data.PartitionKey;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/** Builds and takes apart the RocksDB keys of docs/storage.md ("Keys"). */
final class StorageKeys {
    static final byte PARTITION_DELETION = 0x10;
    static final byte RANGE_TOMBSTONE = 0x20;
    static final byte STATIC_ROW = 0x30;
    static final byte ROW = 0x40;
    /** One past the last section: the exclusive end of a partition's keys. */
    static final byte END = 0x41;

    private StorageKeys() {}

    /** {@code token(8, sign-flipped) · length(2) · key}. */
    static byte[] partitionPrefix(PartitionKey key) {
        ByteBuffer bytes = key.key();
        int length = bytes.remaining();
        if (length > 0xFFFF) throw new IllegalArgumentException("partition key of " + length + " bytes exceeds 65535");
        byte[] prefix = new byte[10 + length];
        writeToken(prefix, key.token());
        prefix[8] = (byte) (length >>> 8);
        prefix[9] = (byte) length;
        bytes.get(prefix, 10, length);
        return prefix;
    }

    /** The smallest key of all partitions with a token at or after {@code token}. */
    static byte[] tokenStart(long token) {
        byte[] key = new byte[8];
        writeToken(key, token);
        return key;
    }

    private static void writeToken(byte[] out, long token) {
        long flipped = token ^ Long.MIN_VALUE;
        for (int i = 0; i < 8; i++) out[i] = (byte) (flipped >>> (56 - 8 * i));
    }

    static long token(byte[] key) {
        long v = 0;
        for (int i = 0; i < 8; i++) v = v << 8 | key[i] & 0xFF;
        return v ^ Long.MIN_VALUE;
    }

    static int partitionPrefixLength(byte[] key) {
        return 10 + ((key[8] & 0xFF) << 8 | key[9] & 0xFF);
    }

    static PartitionKey partitionKey(byte[] key) {
        int length = (key[8] & 0xFF) << 8 | key[9] & 0xFF;
        return PartitionKey.of(ByteBuffer.wrap(Arrays.copyOfRange(key, 10, 10 + length)));
    }

    static boolean hasPrefix(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }

    static byte[] concat(byte[] a, byte section, byte[] b, byte[] c) {
        byte[] out = new byte[a.length + 1 + b.length + c.length];
        System.arraycopy(a, 0, out, 0, a.length);
        out[a.length] = section;
        System.arraycopy(b, 0, out, a.length + 1, b.length);
        System.arraycopy(c, 0, out, a.length + 1 + b.length, c.length);
        return out;
    }

    static byte[] section(byte[] prefix, byte section) {
        byte[] out = Arrays.copyOf(prefix, prefix.length + 1);
        out[prefix.length] = section;
        return out;
    }

    /**
     * The key for the merge of the fragments stored under {@code fragmentKeys} (keys of one row, static row or
     * partition deletion, which differ only in their write ids): theirs with a fresh merged-fragment id at the newest
     * one's timestamp. Never a key a write uses or a merge used before, so a write applied again cannot overwrite the
     * merge, and a merge never overwrites data it did not read.
     */
    static byte[] mergedKey(List<byte[]> fragmentKeys, WriteId mergeIds) {
        byte[] newest = fragmentKeys.get(0);
        for (byte[] key : fragmentKeys) {
            if (Arrays.compareUnsigned(key, key.length - WriteId.BYTES, key.length, newest, newest.length - WriteId.BYTES, newest.length) > 0)
                newest = key;
        }
        int idStart = newest.length - WriteId.BYTES;
        long timestampMicros = 0;
        for (int i = 0; i < 8; i++) timestampMicros = timestampMicros << 8 | newest[idStart + i] & 0xFF;
        byte[] merged = Arrays.copyOf(newest, newest.length);
        System.arraycopy(mergeIds.next(timestampMicros), 0, merged, idStart, WriteId.BYTES);
        return merged;
    }

    /** The smallest byte string greater than every string starting with {@code prefix}; null if there is none. */
    static byte[] prefixEnd(byte[] prefix) {
        byte[] end = prefix.clone();
        for (int i = end.length - 1; i >= 0; i--) {
            if (end[i] != (byte) 0xFF) {
                end[i]++;
                return Arrays.copyOf(end, i + 1);
            }
        }
        return null;
    }
}
