package ballot.replication;

import ballot.cluster.Membership;
import ballot.cluster.MembershipListener;
import ballot.cluster.NodeInfo;
import ballot.cql.schema.Schema;
import ballot.cql.spi.DataCoordinator;
import ballot.net.Messaging;
import ballot.paxos.server.PaxosEngine;
import ballot.storage.StorageEngine;
import ballot.storage.WriteId;
import ballot.system.SystemKeyspaces;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Assembles the read and write paths of a node: the local replica, the verbs other nodes call on it, and, once the
 * node has joined, the coordinator with hints and their delivery, and Paxos for conditional statements.
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
    private final PaxosEngine paxos;
    private final MeterRegistry metrics;
    private volatile ReplicatedCoordinator coordinator;
    private HintDelivery delivery;

    /**
     * @param casContention how long a conditional statement may take, retries included (cas_contention_timeout_in_ms)
     * @param metrics the node's registry: hints, coordinator latency and Paxos record there
     */
    public Replication(StorageEngine storage, Supplier<Schema> schema, SystemKeyspaces system, WriteId writeIds,
            LongSupplier nowMicros, UUID hostId, ReplicatedCoordinator.Timeouts timeouts, Duration casContention, MeterRegistry metrics) {
        this.schema = schema;
        this.system = system;
        this.nowMicros = nowMicros;
        this.timeouts = timeouts;
        this.metrics = metrics;
        this.local = new LocalReplica(storage, schema, writeIds, nowMicros, hostId);
        this.hints = new HintStore(storage, HINTS_PER_REPLICA_MAX, metrics);
        this.paxos = new PaxosEngine(storage, schema, hostId, nowMicros, PaxosEngine.Options.defaults(casContention), metrics);
    }

    /** Installs the replica's verbs; give it to the cluster so they exist before the node joins. */
    public Consumer<Messaging> verbs() {
        return messaging -> {
            ReplicaHandlers.register(messaging, local, () -> coordinator, schema);
            paxos.handle(messaging);
        };
    }

    /** Builds the coordinator once the node is a member; it follows membership to keep its ring current. */
    public DataCoordinator start(Membership membership, Messaging messaging) {
        ReplicatedCoordinator c = new ReplicatedCoordinator(membership, messaging, local, system, schema, hints, timeouts,
                () -> nowMicros.getAsLong() / 1000, new CoordinatorMetrics(metrics));
        paxos.start(membership, messaging);
        c.casEngine(paxos);
        delivery = new HintDelivery(hints, messaging, membership, timeouts.write());
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

    /** This node's Paxos, for its counters. */
    public PaxosEngine paxos() {
        return paxos;
    }

    @Override
    public void close() {
        if (delivery != null) delivery.close();
        paxos.close();
    }
}
