package ballot.cql.data;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Version-1 (time-based) UUIDs as Cassandra's timeuuid: 100 ns intervals since 1582-10-15, a random clock sequence and
 * node (multicast bit set, as RFC 4122 asks for a random node). Ids made here are unique and increasing in time.
 */
public final class TimeUuids {
    /** 100 ns intervals between the UUID epoch (1582-10-15) and the Unix epoch. */
    private static final long UUID_EPOCH_OFFSET = 0x01b21dd213814000L;
    private static final long CLOCK_SEQ_AND_NODE = makeClockSeqAndNode();
    private static final AtomicLong LAST = new AtomicLong();

    private TimeUuids() {}

    /** A fresh timeuuid for the current time, later than every one made before in this process. */
    public static UUID next(long nowMillis) {
        long candidate = nowMillis * 10_000 + UUID_EPOCH_OFFSET;
        long timestamp = LAST.updateAndGet(last -> Math.max(last + 1, candidate));
        return new UUID(mostSignificantBits(timestamp), CLOCK_SEQ_AND_NODE);
    }

    /** The smallest timeuuid of {@code millis} (Cassandra's minTimeuuid). */
    public static UUID min(long millis) {
        return new UUID(mostSignificantBits(millis * 10_000 + UUID_EPOCH_OFFSET), 0x8080808080808080L);
    }

    /** The largest timeuuid of {@code millis} (Cassandra's maxTimeuuid). */
    public static UUID max(long millis) {
        return new UUID(mostSignificantBits(millis * 10_000 + UUID_EPOCH_OFFSET + 9_999), 0x7f7f7f7f7f7f7f7fL);
    }

    /** Unix millis of a version-1 UUID. */
    public static long unixMillis(UUID uuid) {
        if (uuid.version() != 1) throw new IllegalArgumentException("not a time-based UUID: " + uuid);
        return (uuid.timestamp() - UUID_EPOCH_OFFSET) / 10_000;
    }

    public static ByteBuffer bytes(UUID uuid) {
        return ByteBuffer.allocate(16).putLong(0, uuid.getMostSignificantBits()).putLong(8, uuid.getLeastSignificantBits());
    }

    public static UUID uuid(ByteBuffer bytes) {
        return new UUID(bytes.getLong(bytes.position()), bytes.getLong(bytes.position() + 8));
    }

    private static long mostSignificantBits(long timestamp) {
        long timeLow = timestamp & 0xFFFFFFFFL;
        long timeMid = (timestamp >>> 32) & 0xFFFFL;
        long timeHigh = (timestamp >>> 48) & 0x0FFFL;
        return timeLow << 32 | timeMid << 16 | 0x1000L | timeHigh;
    }

    private static long makeClockSeqAndNode() {
        SecureRandom random = new SecureRandom();
        long clockSeq = random.nextInt(0x4000);
        long node = random.nextLong() & 0xFFFFFFFFFFFFL | 0x010000000000L;
        return 0x8000000000000000L | clockSeq << 48 | node;
    }
}
