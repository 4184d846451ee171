package ballot.cql.type;

import java.nio.ByteBuffer;

/** Position-preserving reads of serialized values and construction of fresh ones. */
final class Buffers {
    static final ByteBuffer EMPTY = ByteBuffer.allocate(0).asReadOnlyBuffer();

    private Buffers() {}

    static ByteBuffer empty() {
        return ByteBuffer.allocate(0);
    }

    static byte[] toArray(ByteBuffer value) {
        byte[] bytes = new byte[value.remaining()];
        value.duplicate().get(bytes);
        return bytes;
    }

    /** The {@code length} bytes at {@code offset} from the value's position, sharing content. */
    static ByteBuffer slice(ByteBuffer value, int offset, int length) {
        return value.duplicate().position(value.position() + offset).limit(value.position() + offset + length).slice();
    }

    static int compareUnsigned(ByteBuffer left, ByteBuffer right) {
        int i = left.mismatch(right);
        if (i < 0)
            return 0;
        if (i >= left.remaining() || i >= right.remaining())
            return Integer.compare(left.remaining(), right.remaining());
        return Integer.compare(left.get(left.position() + i) & 0xFF, right.get(right.position() + i) & 0xFF);
    }

    static ByteBuffer ofByte(byte v) {
        return ByteBuffer.allocate(1).put(0, v);
    }

    static ByteBuffer ofShort(short v) {
        return ByteBuffer.allocate(2).putShort(0, v);
    }

    static ByteBuffer ofInt(int v) {
        return ByteBuffer.allocate(4).putInt(0, v);
    }

    static ByteBuffer ofLong(long v) {
        return ByteBuffer.allocate(8).putLong(0, v);
    }

    static ByteBuffer copy(ByteBuffer value) {
        return ByteBuffer.wrap(toArray(value));
    }

    static int getInt(ByteBuffer value, int offset) {
        return value.getInt(value.position() + offset);
    }

    static long getLong(ByteBuffer value, int offset) {
        return value.getLong(value.position() + offset);
    }
}
