package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import java.nio.ByteBuffer;

/**
 * Cassandra's variable-length integers ({@code VIntCoding}): the count of leading one bits in the first byte is the
 * count of extra bytes; signed values are zigzag-encoded first. Duration fields and vector element lengths use them.
 */
final class VInts {
    private VInts() {}

    static int unsignedSize(long value) {
        int magnitude = Long.numberOfLeadingZeros(value | 1);
        return (639 - magnitude * 9) >> 6;
    }

    static int signedSize(long value) {
        return unsignedSize(zigzag(value));
    }

    static long zigzag(long n) {
        return (n << 1) ^ (n >> 63);
    }

    static long unzigzag(long n) {
        return (n >>> 1) ^ -(n & 1);
    }

    /** Writes at the buffer's position and advances it. */
    static void writeUnsigned(ByteBuffer out, long value) {
        int size = unsignedSize(value);
        if (size == 1) {
            out.put((byte) value);
            return;
        }
        int extra = size - 1;
        byte[] bytes = new byte[size];
        long v = value;
        for (int i = size - 1; i >= 0; i--) {
            bytes[i] = (byte) v;
            v >>>= 8;
        }
        if (size == 9)
            bytes[0] = (byte) 0xFF;
        else
            bytes[0] |= (byte) ~(0xFF >> extra);
        out.put(bytes);
    }

    static void writeSigned(ByteBuffer out, long value) {
        writeUnsigned(out, zigzag(value));
    }

    /** A decoded vint and the offset just after it. */
    record Read(long value, int next) {}

    /** Reads the unsigned vint at {@code offset} from the value's position. */
    static Read readUnsigned(ByteBuffer value, int offset, String what) {
        int base = value.position();
        if (offset >= value.remaining())
            throw new InvalidRequestException("Not enough bytes to read " + what);
        int first = value.get(base + offset);
        if (first >= 0)
            return new Read(first, offset + 1);
        int extra = Integer.numberOfLeadingZeros(~first) - 24;
        if (offset + 1 + extra > value.remaining())
            throw new InvalidRequestException("Not enough bytes to read " + what);
        long result = first & (0xFF >> extra);
        for (int i = 1; i <= extra; i++)
            result = (result << 8) | (value.get(base + offset + i) & 0xFF);
        return new Read(result, offset + 1 + extra);
    }

    static Read readSigned(ByteBuffer value, int offset, String what) {
        Read r = readUnsigned(value, offset, what);
        return new Read(unzigzag(r.value()), r.next());
    }
}
