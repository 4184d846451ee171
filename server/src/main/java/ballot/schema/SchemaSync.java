package ballot.schema;

import ballot.cluster.Membership;
import ballot.cluster.MembershipListener;
import ballot.cluster.NodeInfo;
import ballot.cql.schema.Schema;
import ballot.net.Codec;
import ballot.net.Codecs;
import ballot.net.Messaging;
import ballot.net.Verb;
import io.netty.buffer.ByteBuf;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps every node's schema the same: a node that changes its schema pushes its keyspace entries to every live node
 * and waits (bounded) for them, so the client's schema-agreement check passes when its DDL returns; a node that sees
 * a peer gossip another schema version pulls that peer's entries. Both sides merge by last change wins.
 */
public final class SchemaSync implements MembershipListener {
    private static final Logger log = LoggerFactory.getLogger(SchemaSync.class);

    static final Codec<List<LocalSchema.Entry>> ENTRIES = new Codec<>() {
        public void encode(List<LocalSchema.Entry> value, ByteBuf out) {
            out.writeInt(value.size());
            for (LocalSchema.Entry e : value) {
                Codecs.writeShortString(out, e.name());
                out.writeLong(e.changedAt());
                if (e.definition() == null) {
                    out.writeInt(-1);
                } else {
                    out.writeInt(e.definition().length);
                    out.writeBytes(e.definition());
                }
            }
        }

        public List<LocalSchema.Entry> decode(ByteBuf in) {
            int n = in.readInt();
            if (n < 0 || n > 100_000) throw new IllegalArgumentException("bad schema entry count " + n);
            List<LocalSchema.Entry> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                String name = Codecs.readShortString(in);
                long changedAt = in.readLong();
                int length = in.readInt();
                byte[] definition = null;
                if (length >= 0) {
                    if (length > in.readableBytes()) throw new IllegalArgumentException("truncated schema entry " + name);
                    definition = new byte[length];
                    in.readBytes(definition);
                }
                out.add(new LocalSchema.Entry(name, changedAt, definition));
            }
            return out;
        }
    };

    static final Verb<List<LocalSchema.Entry>, Void> PUSH = new Verb<>(200, "SCHEMA_PUSH", ENTRIES, Codecs.EMPTY);
    static final Verb<Void, List<LocalSchema.Entry>> PULL = new Verb<>(201, "SCHEMA_PULL", Codecs.EMPTY, ENTRIES);

    private final LocalSchema schema;
    private final Messaging messaging;
    private final Membership membership;
    private final Duration timeout;
    private final Map<UUID, CompletableFuture<?>> pulls = new ConcurrentHashMap<>();

    public SchemaSync(LocalSchema schema, Messaging messaging, Membership membership, Duration timeout) {
        this.schema = schema;
        this.messaging = messaging;
        this.membership = membership;
        this.timeout = timeout;
    }

    /** Installs the handlers of schema pushes and pulls (before the node joins, so no peer finds them missing). */
    public static void handle(Messaging messaging, LocalSchema schema) {
        messaging.handle(PUSH, (entries, from) -> {
            schema.merge(entries);
            return CompletableFuture.completedFuture(null);
        });
        messaging.handle(PULL, (nothing, from) -> CompletableFuture.completedFuture(schema.entries()));
    }

    /** Starts spreading local schema changes and following the versions other nodes gossip. */
    public void start() {
        schema.onNewVersion(this::spread);
        membership.listen(this);
        for (NodeInfo n : membership.members()) pullIfDifferent(n);
    }

    /** Tells the cluster about a new local schema; waits up to the timeout for the live nodes to take it. */
    private void spread(Schema next) {
        membership.schemaVersionChanged(next.version());
        List<LocalSchema.Entry> entries = schema.entries();
        List<CompletableFuture<Void>> pushes = new ArrayList<>();
        for (NodeInfo n : membership.members()) {
            if (n.hostId().equals(membership.self().hostId()) || !membership.isAlive(n.hostId())) continue;
            pushes.add(messaging.request(n.internode(), PUSH, entries, timeout).exceptionally(e -> {
                log.warn("schema push to {} failed ({}); it will pull the schema when it sees the new version", n.internode(), e.getMessage());
                return null;
            }));
        }
        try {
            CompletableFuture.allOf(pushes.toArray(new CompletableFuture[0])).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            log.warn("schema version {} not confirmed by every live node within {} ms", next.version(), timeout.toMillis());
        }
    }

    @Override
    public void up(NodeInfo node) {
        pullIfDifferent(node);
    }

    @Override
    public void joined(NodeInfo node) {
        pullIfDifferent(node);
    }

    @Override
    public void changed(NodeInfo node) {
        pullIfDifferent(node);
    }

    private void pullIfDifferent(NodeInfo node) {
        if (node.hostId().equals(membership.self().hostId()) || node.schemaVersion() == null) return;
        if (node.schemaVersion().equals(schema.schema().version()) || !membership.isAlive(node.hostId())) return;
        pulls.computeIfAbsent(node.hostId(), id -> messaging.request(node.internode(), PULL, null, timeout)
                .thenAccept(entries -> {
                    Schema merged = schema.merge(entries);
                    log.info("pulled schema from {} version now {}", node.internode(), merged.version());
                })
                .whenComplete((ok, e) -> {
                    pulls.remove(node.hostId());
                    if (e != null) log.warn("schema pull from {} failed: {}", node.internode(), e.getMessage());
                }));
    }
}
