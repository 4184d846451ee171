package ballot.cql.data;

import java.nio.ByteBuffer;

/**
 * A serialized partition key with its Murmur3 token. Composite keys use Cassandra's composite encoding
 * ({@code <u16 length><bytes><0x00>} per component), which is also what drivers hash for token-aware routing.
 * Ordered by token, then length, then unsigned bytes: the order partitions have in storage. The token is hashed on
 * first use: many keys (decoded from Paxos state and messages) are only ever compared by their bytes.
 */
public final class PartitionKey implements Comparable<PartitionKey> {
    private final ByteBuffer key;
    private long token;
    /** Set after {@code token} is written; its volatile write publishes the token to other threads. */
    private volatile boolean hashed;

    private PartitionKey(ByteBuffer key) {
        this.key = key;
    }

    public static PartitionKey of(ByteBuffer key) {
        return new PartitionKey(key.slice());
    }

    /**
     * The lowest key of {@code token}, below every partition of that token: a bound for searches of ordered keys,
     * never a partition's key.
     */
    public static PartitionKey lowestOf(long token) {
        PartitionKey bound = new PartitionKey(ByteBuffer.allocate(0));
        bound.token = token;
        bound.hashed = true;
        return bound;
    }

    /** Encodes the components of a composite partition key. A single-column key is just its value. */
    public static ByteBuffer compose(ByteBuffer... components) {
        if (components.length == 1) return components[0].duplicate();
        int size = 0;
        for (ByteBuffer c : components) size += 3 + c.remaining();
        ByteBuffer out = ByteBuffer.allocate(size);
        for (ByteBuffer c : components) {
            out.putShort((short) c.remaining());
            out.put(c.duplicate());
            out.put((byte) 0);
        }
        return out.flip();
    }

    /** Splits a composite key into its {@code count} components. */
    public static ByteBuffer[] split(ByteBuffer key, int count) {
        if (count == 1) return new ByteBuffer[] {key.duplicate()};
        ByteBuffer in = key.duplicate();
        ByteBuffer[] components = new ByteBuffer[count];
        for (int i = 0; i < count; i++) {
            int length = in.getShort() & 0xffff;
            ByteBuffer component = in.slice();
            component.limit(length);
            components[i] = component;
            in.position(in.position() + length + 1);
        }
        return components;
    }

    public ByteBuffer key() {
        return key.duplicate();
    }

    public long token() {
        if (!hashed) {
            token = Murmur3.token(key);
            hashed = true;
        }
        return token;
    }

    @Override
    public int compareTo(PartitionKey other) {
        int c = Long.compare(token(), other.token());
        if (c != 0) return c;
        c = Integer.compare(key.remaining(), other.key.remaining());
        return c != 0 ? c : Cell.unsignedCompare(key, other.key);
    }

    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof PartitionKey other && key.equals(other.key);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(token());
    }

    @Override
    public String toString() {
        return "PartitionKey(token=" + token() + ", bytes=" + key.remaining() + ")";
    }
}
