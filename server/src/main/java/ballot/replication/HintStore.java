package ballot.replication;

import ballot.storage.Mutation;
import ballot.storage.StorageEngine;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hints: writes a replica missed (it was down or did not answer), kept on the coordinator in local metadata and
 * replayed when the replica is back. Bounded per replica; beyond the bound a replica gets no more hints and must be
 * repaired by reads (read repair) instead, as in Cassandra. Counts hints stored, delivered and dropped at the bound, and
 * gauges the hints waiting.
 */
final class HintStore {
    private static final Logger log = LoggerFactory.getLogger(HintStore.class);
    private static final String PREFIX = "hints/";

    /** A stored hint and the key to delete once delivered. */
    record Hint(String key, Mutation mutation) {}

    private final StorageEngine storage;
    private final int hintsPerReplicaMax;
    private final Map<UUID, AtomicInteger> counts = new ConcurrentHashMap<>();
    private final AtomicInteger sequence = new AtomicInteger();
    private final Counter stored;
    private final Counter delivered;
    private final Counter dropped;

    HintStore(StorageEngine storage, int hintsPerReplicaMax, MeterRegistry metrics) {
        this.storage = storage;
        this.hintsPerReplicaMax = hintsPerReplicaMax;
        storage.forEachMeta(PREFIX, (key, value) -> counts.computeIfAbsent(target(key), t -> new AtomicInteger()).incrementAndGet());
        stored = Counter.builder("ballot.hints.stored").description("Hints stored for replicas that missed a write").register(metrics);
        delivered = Counter.builder("ballot.hints.delivered").description("Hints replayed to their replica and deleted").register(metrics);
        dropped = Counter.builder("ballot.hints.dropped")
                .description("Writes a replica missed while it already had the most hints allowed: it catches up through read repair")
                .register(metrics);
        Gauge.builder("ballot.hints.pending", counts, HintStore::pending).strongReference(true)
                .description("Hints waiting for their replicas, all replicas together").register(metrics);
    }

    private static double pending(Map<UUID, AtomicInteger> counts) {
        long n = 0;
        for (AtomicInteger c : counts.values()) n += c.get();
        return n;
    }

    /** Stores a hint for {@code target}; false if the replica already has the most hints allowed. */
    boolean store(UUID target, Mutation mutation, long nowMillis) {
        AtomicInteger count = counts.computeIfAbsent(target, t -> new AtomicInteger());
        if (count.get() >= hintsPerReplicaMax) {
            log.warn("hints for replica {} reached the limit of {}; it will catch up through read repair", target, hintsPerReplicaMax);
            dropped.increment();
            return false;
        }
        ByteBuf buf = Unpooled.buffer();
        try {
            WireFormat.writeMutation(buf, mutation);
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            String key = PREFIX + target + "/" + String.format("%016x", nowMillis) + "/" + String.format("%08x", sequence.getAndIncrement())
                    + HexFormat.of().formatHex(mutation.writeId());
            storage.putMetaUnsynced(key, bytes);
            count.incrementAndGet();
            stored.increment();
            return true;
        } finally {
            buf.release();
        }
    }

    /** Up to {@code limit} hints for {@code target}, oldest first. */
    List<Hint> pending(UUID target, int limit) {
        List<Hint> out = new ArrayList<>();
        storage.forEachMeta(PREFIX + target + "/", (key, value) -> {
            if (out.size() < limit) out.add(new Hint(key, WireFormat.readMutation(Unpooled.wrappedBuffer(value))));
        });
        return out;
    }

    void delivered(UUID target, Hint hint) {
        storage.deleteMeta(hint.key());
        AtomicInteger count = counts.get(target);
        if (count != null) count.decrementAndGet();
        delivered.increment();
    }

    int count(UUID target) {
        AtomicInteger count = counts.get(target);
        return count == null ? 0 : count.get();
    }

    private static UUID target(String key) {
        return UUID.fromString(key.substring(PREFIX.length(), PREFIX.length() + 36));
    }
}
