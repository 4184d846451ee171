package ballot.cluster;

import ballot.net.Messaging;
import ballot.net.MessagingOptions;
import ballot.net.NettyMessaging;
import ballot.storage.StorageEngine;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster layer of a node: internode messaging and gossip membership, started together (docs/membership.md).
 * The node calls {@link #start} once storage is open, registers its verbs on {@link #messaging()} (ids 1 to 15 are
 * membership's), reads and listens to {@link #membership()}, and {@link #close()}s it before storage.
 */
public final class Cluster implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Cluster.class);

    private final NettyMessaging messaging;
    private final ExecutorScheduler scheduler;
    private final Gossiper gossiper;
    private boolean closed;

    private Cluster(NettyMessaging messaging, ExecutorScheduler scheduler, Gossiper gossiper) {
        this.messaging = messaging;
        this.scheduler = scheduler;
        this.gossiper = gossiper;
    }

    /**
     * Listens on {@code options.listenAddress()}, loads the peers persisted in {@code storage}, joins through the seeds
     * and starts gossiping. Returns once this node is a member: at once for a node whose seeds are only itself, else
     * when a seed or known peer answered, within {@code options.joinTimeout()}.
     *
     * @throws ClusterStartException when no seed answers in time, this node's address or host id is taken, or it was
     *                               decommissioned; the message says what to do
     * @throws IllegalStateException when the listen address cannot be bound
     */
    public static Cluster start(ClusterOptions options, StorageEngine storage, UUID localSchemaVersion) {
        return start(options, storage, localSchemaVersion, messaging -> {});
    }

    /**
     * As {@link #start(ClusterOptions, StorageEngine, UUID)}, calling {@code registerVerbs} once messaging listens and
     * before this node joins, so that no peer's request finds a verb missing.
     */
    public static Cluster start(ClusterOptions options, StorageEngine storage, UUID localSchemaVersion, Consumer<Messaging> registerVerbs) {
        NettyMessaging messaging = NettyMessaging.start(MessagingOptions.builder(options.clusterName(), options.hostId(), options.listenAddress())
                .tls(options.internodeTls()).build());
        ExecutorScheduler scheduler = new ExecutorScheduler("gossip");
        Gossiper gossiper = null;
        try {
            registerVerbs.accept(messaging);
            gossiper = new Gossiper(options, localSchemaVersion, messaging, scheduler, new MetaPeerStore(storage), new SplittableRandom());
            messaging.peerValidator(gossiper::refusal);
            gossiper.start().get(options.joinTimeout().toMillis() + options.gossipInterval().toMillis() * 5, TimeUnit.MILLISECONDS);
            return new Cluster(messaging, scheduler, gossiper);
        } catch (ExecutionException e) {
            stop(messaging, scheduler, gossiper);
            throw e.getCause() instanceof ClusterStartException c ? c : new ClusterStartException("membership failed to start: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            stop(messaging, scheduler, gossiper);
            throw new ClusterStartException("membership did not start within " + options.joinTimeout().toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop(messaging, scheduler, gossiper);
            throw new ClusterStartException("interrupted while joining the cluster", e);
        } catch (RuntimeException e) {
            stop(messaging, scheduler, gossiper);
            throw e;
        }
    }

    private static void stop(NettyMessaging messaging, ExecutorScheduler scheduler, Gossiper gossiper) {
        if (gossiper != null) gossiper.shutdown();
        scheduler.close();
        messaging.close();
    }

    public Messaging messaging() {
        return messaging;
    }

    public Membership membership() {
        return gossiper;
    }

    /**
     * Decommissions this node: announces LEAVING, runs {@code handOver} (the data hand-over; may be a completed future),
     * then announces LEFT to every live node and stops gossiping. The node then refuses to start again on this data.
     * Completes exceptionally with {@link IllegalStateException} unless this node is NORMAL and another NORMAL node is
     * alive; if the hand-over fails the node goes back to NORMAL. {@code handOver} is called on a messaging thread.
     */
    public CompletableFuture<Void> decommission(Supplier<CompletableFuture<Void>> handOver) {
        return gossiper.decommission(handOver);
    }

    /** Tells live peers that this node stops (they mark it down at once), then stops gossip and messaging. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        try {
            gossiper.shutdown().get(5, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            log.warn("could not tell every peer that this node stops: {}", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        scheduler.close();
        messaging.close();
    }
}
