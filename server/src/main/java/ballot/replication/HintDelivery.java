package ballot.replication;

import ballot.cluster.Membership;
import ballot.cluster.MembershipListener;
import ballot.cluster.NodeInfo;
import ballot.net.Messaging;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays hints to a replica once it is up again: when membership says so, and every few seconds for live replicas
 * that still have hints. Each hint is deleted only after the replica acknowledged it, so a failed replay is retried;
 * a hint of a table this node no longer has is deleted unsent, as Cassandra discards hints of dropped tables (the
 * replica would refuse it, and, hints going oldest first, hold back every later one).
 */
final class HintDelivery implements MembershipListener, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(HintDelivery.class);
    private static final int BATCH = 128;

    private final HintStore hints;
    private final Messaging messaging;
    private final Membership membership;
    private final Duration timeout;
    private final Predicate<UUID> tableExists;
    private final ScheduledExecutorService executor;
    private final java.util.Set<UUID> delivering = ConcurrentHashMap.newKeySet();

    HintDelivery(HintStore hints, Messaging messaging, Membership membership, Duration timeout, Predicate<UUID> tableExists) {
        this.hints = hints;
        this.messaging = messaging;
        this.membership = membership;
        this.timeout = timeout;
        this.tableExists = tableExists;
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hint-delivery");
            t.setDaemon(true);
            return t;
        });
        executor.scheduleWithFixedDelay(this::deliverToLiveReplicas, 5, 5, TimeUnit.SECONDS);
    }

    @Override
    public void up(NodeInfo node) {
        executor.execute(() -> deliver(node));
    }

    private void deliverToLiveReplicas() {
        for (NodeInfo n : membership.members()) {
            if (!n.hostId().equals(membership.self().hostId()) && membership.isAlive(n.hostId()) && hints.count(n.hostId()) > 0) deliver(n);
        }
    }

    private void deliver(NodeInfo node) {
        if (!delivering.add(node.hostId())) return;
        int delivered = 0;
        int discarded = 0;
        try {
            while (membership.isAlive(node.hostId())) {
                List<HintStore.Hint> batch = hints.pending(node.hostId(), BATCH);
                if (batch.isEmpty()) break;
                for (HintStore.Hint hint : batch) {
                    if (tableExists.test(hint.mutation().update().tableId())) {
                        messaging.request(node.internode(), ReplicationVerbs.MUTATION, List.of(hint.mutation()), timeout).join();
                        delivered++;
                    } else {
                        discarded++;
                    }
                    hints.delivered(node.hostId(), hint);
                }
            }
        } catch (RuntimeException e) {
            log.info("hint delivery to {} paused after {} hints: {}", node.internode(), delivered, e.getMessage());
        } finally {
            delivering.remove(node.hostId());
        }
        if (delivered > 0) log.info("delivered {} hints to {}", delivered, node.internode());
        if (discarded > 0) log.info("discarded {} hints to {} of tables dropped since", discarded, node.internode());
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
