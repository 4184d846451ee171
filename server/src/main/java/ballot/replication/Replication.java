package ballot.replication;

import ballot.cluster.Membership;
import ballot.cluster.MembershipListener;
import ballot.cluster.NodeInfo;
import ballot.cql.schema.Schema;
import ballot.cql.spi.DataCoordinator;
import ballot.net.Messaging;
import ballot.storage.StorageEngine;
import ballot.storage.WriteId;
import ballot.system.SystemKeyspaces;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Assembles the read and write paths of a node: the local replica, the verbs other nodes call on it, and, once the
 * node has joined, the coordinator with hints and their delivery. Conditional statements go to the node's Paxos
 * ({@code ballot.lwt}), which the node assembles beside this.
 */
public final class Replication implements AutoCloseable {
    /** Hints kept per replica at most; beyond it the replica catches up through read repair. */
    private static final int HINTS_PER_REPLICA_MAX = 1_000_000;

    private final Supplier<Schema> schema;
    private final SystemKeyspaces system;
    private final LocalReplica local;
    private final HintStore hints;
    private final ReplicatedCoordinator.Timeouts timeouts;
    private final LongSupplier nowMicros;
    private final MeterRegistry metrics;
    /** A scan's steps after its first run here, off the messaging threads that deliver replicas' answers. */
    private final ExecutorService scans = Executors.newCachedThreadPool(new DefaultThreadFactory("range-scan", true));
    private volatile ReplicatedCoordinator coordinator;
    private HintDelivery delivery;

    /**
     * @param metrics the node's registry: hints and coordinator latency record there
     */
    public Replication(StorageEngine storage, Supplier<Schema> schema, SystemKeyspaces system, WriteId writeIds,
            LongSupplier nowMicros, UUID hostId, ReplicatedCoordinator.Timeouts timeouts, MeterRegistry metrics) {
        this.schema = schema;
        this.system = system;
        this.nowMicros = nowMicros;
        this.timeouts = timeouts;
        this.metrics = metrics;
        this.local = new LocalReplica(storage, schema, writeIds, nowMicros, hostId);
        this.hints = new HintStore(storage, HINTS_PER_REPLICA_MAX, metrics);
    }

    /** Installs the replica's verbs; give it to the cluster so they exist before the node joins. */
    public Consumer<Messaging> verbs() {
        return messaging -> ReplicaHandlers.register(messaging, local, () -> coordinator, schema);
    }

    /** Builds the coordinator once the node is a member; it follows membership to keep its ring current. */
    public ReplicatedCoordinator start(Membership membership, Messaging messaging) {
        ReplicatedCoordinator c = new ReplicatedCoordinator(membership, messaging, local, system, schema, hints, timeouts,
                () -> nowMicros.getAsLong() / 1000, System::nanoTime, new CoordinatorMetrics(metrics), scans);
        delivery = new HintDelivery(hints, messaging, membership, timeouts.write(), table -> schema.get().table(table) != null);
        membership.listen(new MembershipListener() {
            public void joined(NodeInfo node) { c.refreshRing(); }
            public void left(NodeInfo node) { c.refreshRing(); }
            public void changed(NodeInfo node) { c.refreshRing(); }
        });
        membership.listen(delivery);
        c.refreshRing();
        coordinator = c;
        return c;
    }

    /**
     * From now on this replica's answers to plain reads and scans carry the stamps of transaction states (docs/txn.md
     * §10); {@code holdsIntent} tells whether a stored state ({@code timestamp(8) · state}) holds an intent. Before the
     * node takes requests from peers: a replica that answered without stamps could hide an intent from a quorum.
     */
    public void reportIntents(Predicate<byte[]> holdsIntent) {
        local.honourLocks(holdsIntent);
    }

    /** From now on the coordinator (which must be started) reads a partition held by an intent through {@code held}. */
    public void readHeldThrough(HeldPartitions held) {
        coordinator.honourLocks(held);
    }

    @Override
    public void close() {
        if (delivery != null) delivery.close();
        scans.shutdown();
    }
}
