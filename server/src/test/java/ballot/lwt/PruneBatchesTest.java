package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.paxos.Ballot;
import ballot.paxos.NodeId;
import ballot.paxos.PaxosKey;
import ballot.paxos.message.Prune;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Prunes for one peer leave together: when a batch is full at once, otherwise after the delay, one batch per peer. */
class PruneBatchesTest {
    private record Sent(NodeId peer, List<Prune> batch) {}

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final List<Sent> sent = new CopyOnWriteArrayList<>();
    private final PruneBatches batches = new PruneBatches(scheduler, (peer, batch) -> sent.add(new Sent(peer, batch)));

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    @Test
    void prunesForOnePeerLeaveTogetherAfterTheDelayAndEachPeerGetsItsOwn() throws Exception {
        NodeId a = NodeId.of(1);
        NodeId b = NodeId.of(2);
        batches.add(a, prune(1));
        batches.add(b, prune(2));
        batches.add(a, prune(3));
        assertThat(sent).as("nothing leaves before the delay").isEmpty();
        awaitSent(2);
        assertThat(sent).containsExactlyInAnyOrder(new Sent(a, List.of(prune(1), prune(3))), new Sent(b, List.of(prune(2))));
    }

    @Test
    void aFullBatchLeavesAtOnce() throws Exception {
        NodeId a = NodeId.of(1);
        for (int i = 0; i < PruneBatches.BATCH_MAX; i++) batches.add(a, prune(i));
        assertThat(sent).as("sent by the add that filled it").hasSize(1);
        assertThat(sent.get(0).batch()).hasSize(PruneBatches.BATCH_MAX);
        batches.add(a, prune(-1));
        awaitSent(2);
        assertThat(sent.get(1).batch()).containsExactly(prune(-1));
    }

    private void awaitSent(int batches) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (sent.size() < batches && System.nanoTime() < deadline) Thread.sleep(1);
        assertThat(sent).hasSize(batches);
    }

    private static Prune prune(int partition) {
        return new Prune(PaxosKey.of("partition-" + partition), new Ballot(1_000_000 + partition, 0, 1, 1));
    }
}
