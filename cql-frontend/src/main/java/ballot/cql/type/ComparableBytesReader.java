package ballot.cql.type;

/**
 * Reads encodings written by {@link ComparableBytesWriter}, one component at a time, through
 * {@link CqlType#decodeComparable}. For a DESC component, set {@link #inverted(boolean)} before decoding it: the
 * reader then flips bits as it reads. Encodings are prefix-free, so each decode stops exactly at its component's end.
 */
public final class ComparableBytesReader {
    private final byte[] bytes;
    private final int limit;
    private int position;
    private int mask;

    public ComparableBytesReader(byte[] bytes) {
        this(bytes, 0, bytes.length);
    }

    public ComparableBytesReader(byte[] bytes, int offset, int length) {
        if (offset < 0 || length < 0 || offset + length > bytes.length)
            throw new IndexOutOfBoundsException("[" + offset + ", " + (offset + length) + ") of " + bytes.length);
        this.bytes = bytes;
        this.position = offset;
        this.limit = offset + length;
    }

    public int position() {
        return position;
    }

    public boolean hasRemaining() {
        return position < limit;
    }

    /** Whether the bytes ahead belong to a DESC component and must be bit-inverted as they are read. */
    public void inverted(boolean inverted) {
        mask = inverted ? 0xFF : 0;
    }

    /** The next byte, unsigned. */
    public int read() {
        if (position >= limit)
            throw malformed("unexpected end of encoding");
        return (bytes[position++] ^ mask) & 0xFF;
    }

    public int peek() {
        if (position >= limit)
            throw malformed("unexpected end of encoding");
        return (bytes[position] ^ mask) & 0xFF;
    }

    void readFully(byte[] dst, int offset, int count) {
        if (limit - position < count)
            throw malformed("unexpected end of encoding");
        for (int i = 0; i < count; i++)
            dst[offset + i] = (byte) (bytes[position++] ^ mask);
    }

    long readBigEndian(int count) {
        long v = 0;
        for (int i = 0; i < count; i++)
            v = (v << 8) | read();
        return v;
    }

    /** Reverses {@link ComparableBytesWriter#writeEscaped}. */
    byte[] readEscaped() {
        byte[] out = new byte[16];
        int n = 0;
        for (int b = read(); b != 0; b = read()) {
            if (b == 1) {
                int next = read();
                if (next != 1 && next != 2)
                    throw malformed("bad escape byte " + next);
                b = next - 1;
            }
            if (n == out.length)
                out = java.util.Arrays.copyOf(out, n * 2);
            out[n++] = (byte) b;
        }
        return java.util.Arrays.copyOf(out, n);
    }

    /** Reverses {@link ComparableBytesWriter#writeOrderedLong}. */
    long readOrderedLong() {
        int header = read();
        if (header >= 0x40 && header < 0xC0)
            return header - 0x80;
        if (header >= 0xC0 && header <= 0xC7)
            return readBigEndian(header - 0xC0 + 1);
        if (header >= 0x38 && header <= 0x3F) {
            int n = 0x3F - header + 1;
            long low = readBigEndian(n);
            return n == 8 ? low : low - (1L << (8 * n));
        }
        throw malformed("bad integer header " + header);
    }

    IllegalArgumentException malformed(String why) {
        return new IllegalArgumentException("Malformed byte-comparable encoding at byte " + position + ": " + why);
    }
}
