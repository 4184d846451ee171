package ballot.cql.type;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A growable byte array that {@link CqlType#encodeComparable} appends to. Storage builds a clustering key by encoding
 * each component in turn and {@linkplain #invert inverting} the bytes of each DESC component:
 *
 * <pre>{@code
 * int start = out.length();
 * type.encodeComparable(value, out);
 * if (descending) out.invert(start, out.length());
 * }</pre>
 *
 * Not thread-safe; reusable after {@link #reset()}.
 */
public final class ComparableBytesWriter {
    private byte[] bytes;
    private int length;

    public ComparableBytesWriter() {
        this(64);
    }

    public ComparableBytesWriter(int initialCapacity) {
        bytes = new byte[Math.max(16, initialCapacity)];
    }

    public int length() {
        return length;
    }

    /** The backing array; its first {@link #length()} bytes are the encoding. Valid until the next write. */
    public byte[] array() {
        return bytes;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(bytes, length);
    }

    public void reset() {
        length = 0;
    }

    /** Flips every bit of bytes {@code [from, to)}, turning an ascending encoding into a descending one. */
    public void invert(int from, int to) {
        if (from < 0 || to > length || from > to)
            throw new IndexOutOfBoundsException("invert [" + from + ", " + to + ") of " + length + " bytes");
        for (int i = from; i < to; i++)
            bytes[i] = (byte) ~bytes[i];
    }

    public void write(int b) {
        ensure(1);
        bytes[length++] = (byte) b;
    }

    public void write(byte[] src, int offset, int count) {
        ensure(count);
        System.arraycopy(src, offset, bytes, length, count);
        length += count;
    }

    /** Copies {@code count} bytes starting {@code offset} past the value's position. */
    void write(ByteBuffer value, int offset, int count) {
        ensure(count);
        value.duplicate().position(value.position() + offset).get(bytes, length, count);
        length += count;
    }

    /** Writes the low {@code count} bytes of {@code v}, most significant first. */
    void writeBigEndian(long v, int count) {
        ensure(count);
        for (int i = count - 1; i >= 0; i--)
            bytes[length++] = (byte) (v >>> (8 * i));
    }

    /**
     * Writes bytes so that they sort as they compare unsigned, shorter first, and end unambiguously: {@code 00}
     * becomes {@code 01 01}, {@code 01} becomes {@code 01 02}, and a {@code 00} terminates.
     */
    void writeEscaped(ByteBuffer value, int offset, int count) {
        ensure(count + 1);
        int base = value.position() + offset;
        for (int i = 0; i < count; i++) {
            int b = value.get(base + i) & 0xFF;
            if (b <= 1) {
                ensure(2);
                bytes[length++] = 1;
                bytes[length++] = (byte) (b + 1);
            } else {
                ensure(1);
                bytes[length++] = (byte) b;
            }
        }
        write(0);
    }

    /**
     * Writes a signed long so that encodings sort numerically and none is a prefix of another: one byte
     * {@code 0x80 + v} for {@code -64 <= v < 64}, otherwise a header {@code 0xC0 + n - 1} (positive) or
     * {@code 0x3F - (n - 1)} (negative) and the low {@code n} bytes of {@code v}, for the least {@code n} that holds it.
     */
    void writeOrderedLong(long v) {
        if (v >= -64 && v < 64) {
            write((int) (0x80 + v));
            return;
        }
        // least n with v < 2^(8n) when positive, v >= -2^(8n) when negative
        int n = (71 - Long.numberOfLeadingZeros(v > 0 ? v : ~v)) / 8;
        write(v > 0 ? 0xC0 + n - 1 : 0x3F - (n - 1));
        writeBigEndian(v, n);
    }

    private void ensure(int extra) {
        if (length + extra > bytes.length)
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + extra));
    }
}
