package ballot.node;

import ballot.cluster.Membership;
import ballot.cluster.NodeInfo;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import ballot.storage.StorageEngine;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tables whose LWT votes this node abstains from (docs/paxos.md §4.14): those the cluster already had when the
 * node first joined it, which it holds neither the data nor the Paxos history of. Fixed once, in the node's metadata:
 * a node that founds a cluster, or joins one without tables, abstains from none.
 */
final class AbstainedTables {
    private static final Logger log = LoggerFactory.getLogger(AbstainedTables.class);
    private static final String KEY = "paxos/abstained_tables";
    /** Set at a new node's first start, until its tables are recorded: a restart before that must not record none. */
    private static final String PENDING = "paxos/abstention_pending";

    private AbstainedTables() {}

    /** Marks a new node: its tables are to be fixed once it has joined. */
    static void pending(StorageEngine storage) {
        storage.putMeta(PENDING, new byte[] {1});
    }

    static boolean isPending(StorageEngine storage) {
        return storage.getMeta(PENDING) != null;
    }

    /** The recorded tables, or null if none were ever recorded (a first start, or a node older than the record). */
    static Set<UUID> recorded(StorageEngine storage) {
        byte[] bytes = storage.getMeta(KEY);
        if (bytes == null) return null;
        ByteBuffer in = ByteBuffer.wrap(bytes);
        Set<UUID> tables = new HashSet<>();
        while (in.hasRemaining()) tables.add(new UUID(in.getLong(), in.getLong()));
        return tables;
    }

    static void record(StorageEngine storage, Set<UUID> tables) {
        ByteBuffer out = ByteBuffer.allocate(16 * tables.size());
        for (UUID t : tables) out.putLong(t.getMostSignificantBits()).putLong(t.getLeastSignificantBits());
        storage.putMeta(KEY, out.array());
    }

    /**
     * The tables of the cluster's schema once this node has it: waits (at most {@code wait}) until it sees a live peer
     * and every live peer gossips the node's own schema version, then takes every table outside
     * {@code systemKeyspaces}. Null if the schema did not settle in time.
     */
    static Set<UUID> existingWhenJoined(Supplier<Schema> schema, Membership membership, Map<String, KeyspaceMetadata> systemKeyspaces,
            Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (!agreed(schema.get(), membership)) {
            if (System.nanoTime() > deadline) {
                log.warn("joined without schema agreement within {} s: abstaining from every table's LWT votes until the next "
                        + "start (docs/paxos.md 4.14)", wait.toSeconds());
                return null;
            }
            LockSupport.parkNanos(100_000_000L);
        }
        Set<UUID> tables = new HashSet<>();
        for (KeyspaceMetadata ks : schema.get().keyspaces().values()) {
            if (systemKeyspaces.containsKey(ks.name())) continue;
            for (TableMetadata t : ks.tables().values()) tables.add(t.id());
        }
        if (!tables.isEmpty()) {
            log.warn("joined a cluster that already has {} tables: this node abstains from their LWT votes, having none of their "
                    + "data or Paxos history (docs/paxos.md 4.14); tables created from now on count it fully", tables.size());
        }
        return tables;
    }

    /** At least one peer is seen alive (a node that just joined may see none yet), and every live one has our schema. */
    private static boolean agreed(Schema local, Membership membership) {
        int live = 0;
        for (NodeInfo n : membership.members()) {
            if (n.hostId().equals(membership.self().hostId()) || !membership.isAlive(n.hostId())) continue;
            if (n.schemaVersion() == null || !n.schemaVersion().equals(local.version())) return false;
            live++;
        }
        return live > 0;
    }
}
