package ballot.storage;

import java.nio.ByteBuffer;

/** Reads what {@link ByteWriter} wrote. Reading past the end throws: stored data is checked, never trusted blindly. */
final class ByteReader {
    private final byte[] bytes;
    private int position;
    private final int limit;

    ByteReader(byte[] bytes) {
        this(bytes, 0, bytes.length);
    }

    ByteReader(byte[] bytes, int offset, int length) {
        this.bytes = bytes;
        this.position = offset;
        this.limit = offset + length;
    }

    boolean hasRemaining() {
        return position < limit;
    }

    int position() {
        return position;
    }

    int readByte() {
        check(1);
        return bytes[position++] & 0xFF;
    }

    int readShort() {
        check(2);
        int v = (bytes[position] & 0xFF) << 8 | bytes[position + 1] & 0xFF;
        position += 2;
        return v;
    }

    int readInt() {
        check(4);
        int v = (bytes[position] & 0xFF) << 24 | (bytes[position + 1] & 0xFF) << 16
                | (bytes[position + 2] & 0xFF) << 8 | bytes[position + 3] & 0xFF;
        position += 4;
        return v;
    }

    long readLong() {
        check(8);
        long v = 0;
        for (int i = 0; i < 8; i++) v = v << 8 | bytes[position + i] & 0xFF;
        position += 8;
        return v;
    }

    long readVInt() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = readByte();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) return v;
        }
        throw new IllegalStateException("corrupt varint at " + position);
    }

    /** A varint length followed by that many bytes, as a buffer sharing this reader's array. */
    ByteBuffer readSized() {
        int length = (int) readVInt();
        check(length);
        ByteBuffer b = ByteBuffer.wrap(bytes, position, length).slice();
        position += length;
        return b;
    }

    private void check(int n) {
        if (n < 0 || position + n > limit) {
            throw new IllegalStateException("corrupt stored value: need " + n + " bytes at " + position + ", limit " + limit);
        }
    }
}
