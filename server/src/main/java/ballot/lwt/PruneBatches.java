package ballot.lwt;

import ballot.paxos.NodeId;
import ballot.paxos.message.Prune;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * Prunes on their way to one peer share one internode message (docs/paxos.md §4.7, §12). A prune changes only bytes
 * (entries every replica has applied), nobody waits for it, and losing it is harmless, so it may wait
 * {@link #DELAY_MILLIS} for others: every partition an LWT touches once (a new account registered) sends one to each
 * replica when its session is forgotten, and one message each was a third of the internode requests of such LWTs.
 * Any thread may add; a batch is sent when {@link #BATCH_MAX} wait for one peer, or {@link #DELAY_MILLIS} after the
 * first of them.
 */
final class PruneBatches {
    static final int BATCH_MAX = 512;
    static final long DELAY_MILLIS = 10;

    private final ScheduledExecutorService scheduler;
    private final BiConsumer<NodeId, List<Prune>> send;
    /** Guarded by this. */
    private final Map<NodeId, List<Prune>> waiting = new HashMap<>();

    /** @param send sends one batch to one peer; called on the adding thread or on {@code scheduler}'s */
    PruneBatches(ScheduledExecutorService scheduler, BiConsumer<NodeId, List<Prune>> send) {
        this.scheduler = scheduler;
        this.send = send;
    }

    void add(NodeId peer, Prune prune) {
        List<Prune> full = null;
        boolean first;
        synchronized (this) {
            List<Prune> batch = waiting.computeIfAbsent(peer, p -> new ArrayList<>());
            first = batch.isEmpty();
            batch.add(prune);
            if (batch.size() >= BATCH_MAX) full = waiting.remove(peer);
        }
        if (full != null) {
            send.accept(peer, full);
        } else if (first) {
            try {
                scheduler.schedule(() -> flush(peer), DELAY_MILLIS, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException stopping) {
                // the node is stopping: the prunes are lost, as any message may be
            }
        }
    }

    private void flush(NodeId peer) {
        List<Prune> batch;
        synchronized (this) {
            batch = waiting.remove(peer);
        }
        if (batch != null) send.accept(peer, batch);
    }
}
