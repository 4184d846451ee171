package ballot.paxos;

import java.util.Arrays;

/**
 * An immutable byte string: the core's opaque form of keys, queries, read results and updates. The core never
 * looks inside; the caller's {@link ballot.paxos.spi.ReadModel} and the server's codecs do.
 */
public final class Bytes implements Comparable<Bytes> {
    public static final Bytes EMPTY = new Bytes(new byte[0]);

    private final byte[] bytes;
    private int hash;

    private Bytes(byte[] bytes) {
        this.bytes = bytes;
    }

    /** Copies {@code bytes}. */
    public static Bytes of(byte[] bytes) {
        return bytes.length == 0 ? EMPTY : new Bytes(bytes.clone());
    }

    /** Takes ownership of {@code bytes}: the caller must not modify the array afterwards. */
    public static Bytes wrap(byte[] bytes) {
        return bytes.length == 0 ? EMPTY : new Bytes(bytes);
    }

    public static Bytes utf8(String text) {
        return wrap(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    public int size() {
        return bytes.length;
    }

    public byte[] toByteArray() {
        return bytes.clone();
    }

    public String toUtf8() {
        return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Bytes other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0 && bytes.length > 0) hash = h = hash(bytes);
        return h;
    }

    /**
     * A hash of {@code bytes} for hash tables: every byte moves every bit. {@link Arrays#hashCode(byte[])} does not
     * do for keys: its multiplier 31 is smaller than a byte's range, so keys that differ in their last bytes collide
     * (100,000 consecutive bigint partition keys behind one table id share 9,122 values, up to 18 keys each), and a
     * map of partitions degrades into long collision chains. A polynomial over 64 bits with an odd multiplier far
     * from any power of two, then a finalizer that spreads the high bits down.
     */
    public static int hash(byte[] bytes) {
        long h = bytes.length;
        for (byte b : bytes) h = (h + (b & 0xff)) * 0x9e3779b97f4a7c15L;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return (int) h;
    }

    @Override
    public int compareTo(Bytes o) {
        return Arrays.compareUnsigned(bytes, o.bytes);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("0x");
        int shown = Math.min(bytes.length, 16);
        for (int i = 0; i < shown; i++) s.append(String.format("%02x", bytes[i]));
        if (shown < bytes.length) s.append("…(").append(bytes.length).append(" bytes)");
        return s.toString();
    }
}
