package ballot.storage;

import ballot.paxos.Bytes;
import java.util.Arrays;

/** A byte array (an encoded clustering or partition key) usable as a hash map key; the caller must not modify it. */
record ByteKey(byte[] bytes) {
    @Override
    public boolean equals(Object o) {
        return o instanceof ByteKey other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Bytes.hash(bytes);
    }
}
