package ballot.cql.data;

import java.nio.ByteBuffer;
import java.util.UUID;

/**
 * The stored value of a counter cell: one shard per node that has counted, {@code (hostId, clock, count)}, sorted by
 * host id. A node changes only its own shard, raising its clock each time; merging two contexts keeps, per shard, the
 * one with the higher clock. So merging is idempotent and commutative: replicas, sweeps and replays can merge in any
 * order without counting anything twice. The counter's value is the sum of the shards' counts.
 * <pre>n(4) · (hostId(16) · clock(8) · count(8))*n</pre>
 */
public final class CounterContext {
    private static final int SHARD_BYTES = 32;

    private CounterContext() {}

    public static ByteBuffer shard(UUID hostId, long clock, long count) {
        ByteBuffer out = ByteBuffer.allocate(4 + SHARD_BYTES);
        out.putInt(1).putLong(hostId.getMostSignificantBits()).putLong(hostId.getLeastSignificantBits()).putLong(clock).putLong(count);
        return out.flip();
    }

    public static boolean isContext(ByteBuffer value) {
        int n = value.remaining() >= 4 ? value.getInt(value.position()) : -1;
        return n >= 1 && value.remaining() == 4 + n * SHARD_BYTES;
    }

    public static long total(ByteBuffer context) {
        check(context);
        int n = context.getInt(context.position());
        long sum = 0;
        for (int i = 0; i < n; i++) sum += context.getLong(offset(context, i) + 24);
        return sum;
    }

    /** This host's {clock, count}, or {0, 0} if it has not counted yet. */
    public static long[] shardOf(ByteBuffer context, UUID hostId) {
        check(context);
        int n = context.getInt(context.position());
        for (int i = 0; i < n; i++) {
            int at = offset(context, i);
            if (context.getLong(at) == hostId.getMostSignificantBits() && context.getLong(at + 8) == hostId.getLeastSignificantBits()) {
                return new long[] {context.getLong(at + 16), context.getLong(at + 24)};
            }
        }
        return new long[] {0, 0};
    }

    /** Per shard, the version with the higher clock (on equal clocks the higher count, so merging stays symmetric). */
    public static ByteBuffer merge(ByteBuffer a, ByteBuffer b) {
        check(a);
        check(b);
        int na = a.getInt(a.position());
        int nb = b.getInt(b.position());
        ByteBuffer out = ByteBuffer.allocate(4 + SHARD_BYTES * (na + nb));
        out.putInt(0);
        int i = 0;
        int j = 0;
        int n = 0;
        while (i < na || j < nb) {
            int c = i >= na ? 1 : j >= nb ? -1 : compareHost(a, offset(a, i), b, offset(b, j));
            int from;
            ByteBuffer source;
            if (c < 0) {
                source = a;
                from = offset(a, i++);
            } else if (c > 0) {
                source = b;
                from = offset(b, j++);
            } else {
                int ai = offset(a, i++);
                int bj = offset(b, j++);
                long ca = a.getLong(ai + 16);
                long cb = b.getLong(bj + 16);
                boolean takeA = ca > cb || ca == cb && a.getLong(ai + 24) >= b.getLong(bj + 24);
                source = takeA ? a : b;
                from = takeA ? ai : bj;
            }
            for (int k = 0; k < SHARD_BYTES; k += 8) out.putLong(source.getLong(from + k));
            n++;
        }
        out.putInt(0, n);
        out.limit(4 + n * SHARD_BYTES);
        out.position(0);
        return out.slice();
    }

    private static int compareHost(ByteBuffer a, int ai, ByteBuffer b, int bj) {
        int c = Long.compare(a.getLong(ai), b.getLong(bj));
        return c != 0 ? c : Long.compare(a.getLong(ai + 8), b.getLong(bj + 8));
    }

    private static int offset(ByteBuffer context, int shard) {
        return context.position() + 4 + shard * SHARD_BYTES;
    }

    private static void check(ByteBuffer context) {
        if (!isContext(context)) throw new IllegalStateException("not a counter context: " + context.remaining() + " bytes");
    }
}
