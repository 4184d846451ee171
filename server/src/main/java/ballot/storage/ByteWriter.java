package ballot.storage;

import java.nio.ByteBuffer;
import java.util.Arrays;

/** A growable big-endian byte array writer with unsigned varints, for storage keys and values. */
final class ByteWriter {
    private byte[] bytes;
    private int length;

    ByteWriter(int capacity) {
        bytes = new byte[Math.max(16, capacity)];
    }

    ByteWriter writeByte(int b) {
        ensure(1);
        bytes[length++] = (byte) b;
        return this;
    }

    ByteWriter writeShort(int v) {
        ensure(2);
        bytes[length++] = (byte) (v >>> 8);
        bytes[length++] = (byte) v;
        return this;
    }

    ByteWriter writeInt(int v) {
        ensure(4);
        bytes[length++] = (byte) (v >>> 24);
        bytes[length++] = (byte) (v >>> 16);
        bytes[length++] = (byte) (v >>> 8);
        bytes[length++] = (byte) v;
        return this;
    }

    ByteWriter writeLong(long v) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) bytes[length++] = (byte) (v >>> shift);
        return this;
    }

    ByteWriter writeVInt(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            bytes[length++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        bytes[length++] = (byte) v;
        return this;
    }

    ByteWriter writeBytes(byte[] src) {
        return writeBytes(src, 0, src.length);
    }

    ByteWriter writeBytes(byte[] src, int offset, int count) {
        ensure(count);
        System.arraycopy(src, offset, bytes, length, count);
        length += count;
        return this;
    }

    ByteWriter writeBytes(ByteBuffer src) {
        int count = src.remaining();
        ensure(count);
        src.duplicate().get(bytes, length, count);
        length += count;
        return this;
    }

    /** A varint length followed by the bytes. */
    ByteWriter writeSized(ByteBuffer src) {
        writeVInt(src.remaining());
        return writeBytes(src);
    }

    ByteWriter writeSized(byte[] src) {
        writeVInt(src.length);
        return writeBytes(src);
    }

    int length() {
        return length;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, length);
    }

    private void ensure(int extra) {
        if (length + extra > bytes.length) bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + extra));
    }
}
