package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.ConsistencyLevel;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.ReadSpec;
import ballot.cql.schema.TableMetadata;
import ballot.cql.spi.CasRequest;
import ballot.cql.spi.CasResult;
import ballot.paxos.message.Prepare;
import ballot.paxos.message.Propose;
import ballot.paxos.message.Request;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which class the engine gives a partition's lane tasks (docs/admission.md, "Paxos lanes"): a background keyspace's
 * rounds wait for the other partitions' work queued on their lane, which a FIFO lane would run in arrival order.
 */
class PaxosLanesTest {
    @TempDir
    Path directory;
    private EngineCluster cluster;

    @AfterEach
    void close() {
        if (cluster != null) cluster.close();
    }

    /**
     * One node, one lane, held by a step of a third partition. A background partition's request arrives first, then a
     * normal one; once the lane is free the normal request is evaluated first. The order of evaluation is read from
     * the requests themselves, on the lane's one thread.
     */
    @Test
    void aBackgroundKeyspacesRoundWaitsForWorkQueuedAfterIt() throws Exception {
        assertThat(evaluationOrder(Set.of("bulk"))).containsExactly("normal", "bulk");
    }

    /** The same arrivals without a background keyspace: the lane runs them in arrival order. */
    @Test
    void withoutABackgroundKeyspaceTheLaneRunsRoundsInArrivalOrder() throws Exception {
        assertThat(evaluationOrder(Set.of())).containsExactly("bulk", "normal");
    }

    /**
     * A peer's acceptor steps take their partition's class too. Node 1's one lane is held by its own round on a third
     * partition while node 0 decides a background partition, then a normal one, with nodes 0 and 2. Once node 1's lane
     * is free, its replica votes on the normal partition before the background one, though that arrived first.
     */
    @Test
    void aPeersStepsForABackgroundKeyspaceWaitForTheOtherSteps() throws Exception {
        cluster = new EngineCluster(directory, 3, Duration.ofSeconds(10), Set.of("bulk"), 1);
        EngineCluster.Member peer = cluster.members.get(1);
        LaneHold hold = new LaneHold(peer);
        CompletableFuture<CasResult> holder = hold.take(1);

        assertThat(join(cluster.cas(0, EngineCluster.setIf(EngineCluster.BULK, 2, null, 1), ConsistencyLevel.QUORUM)).applied()).isTrue();
        awaitReceived(peer, EngineCluster.BULK);
        assertThat(join(cluster.cas(0, EngineCluster.setIf(3, null, 1), ConsistencyLevel.QUORUM)).applied()).isTrue();
        awaitReceived(peer, EngineCluster.TABLE);
        hold.release.countDown();
        assertThat(join(holder).applied()).isTrue();

        List<UUID> order = hold.voted.stream().filter(id -> !id.equals(EngineCluster.OTHER.id())).distinct().toList();
        assertThat(order).containsExactly(EngineCluster.TABLE.id(), EngineCluster.BULK.id());
    }

    private static CasResult join(CompletableFuture<CasResult> f) {
        return f.orTimeout(30, TimeUnit.SECONDS).join();
    }

    /** Waits until a vote (prepare or proposal) on {@code table} was handed to {@code member}'s lane. */
    private static void awaitReceived(EngineCluster.Member member, TableMetadata table) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (member.received.stream().noneMatch(r -> (r instanceof Prepare || r instanceof Propose)
                && CqlValues.tableId(((Request) r).key()).equals(table.id()))) {
            assertThat(System.nanoTime()).as("a vote on " + table.name() + " reached node " + member.info.internode()).isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    private List<String> evaluationOrder(Set<String> background) throws Exception {
        cluster = new EngineCluster(directory, 1, Duration.ofSeconds(10), background, 1);
        LaneHold hold = new LaneHold(cluster.members.get(0));
        CompletableFuture<CasResult> holder = hold.take(0);

        List<String> evaluated = new CopyOnWriteArrayList<>();
        CompletableFuture<CasResult> bulk = cluster.cas(0, recorded("bulk", EngineCluster.setIf(EngineCluster.BULK, 2, null, 1), evaluated),
                ConsistencyLevel.QUORUM);
        CompletableFuture<CasResult> normal = cluster.cas(0, recorded("normal", EngineCluster.setIf(3, null, 1), evaluated),
                ConsistencyLevel.QUORUM);
        hold.release.countDown();
        for (CompletableFuture<CasResult> f : List.of(holder, bulk, normal)) assertThat(join(f).applied()).isTrue();
        return evaluated;
    }

    /** {@code request}, noting {@code name} in {@code evaluated} each time the coordinator evaluates it. */
    private static CasRequest recorded(String name, CasRequest request, List<String> evaluated) {
        return new CasRequest() {
            public TableMetadata table() {
                return request.table();
            }

            public PartitionKey key() {
                return request.key();
            }

            public ReadSpec read() {
                return request.read();
            }

            public PartitionUpdate apply(PartitionData current, long timestampMicros) {
                evaluated.add(name);
                return request.apply(current, timestampMicros);
            }
        };
    }

    /**
     * Holds a node's lane: the replica's abstention check runs on the lane's thread for every prepare and proposal, and
     * for table OTHER it waits for {@link #release}. Notes every table the replica was asked to vote on, in order.
     */
    private final class LaneHold {
        final CountDownLatch held = new CountDownLatch(1), release = new CountDownLatch(1);
        final List<UUID> voted = new CopyOnWriteArrayList<>();
        private final EngineCluster.Member member;

        LaneHold(EngineCluster.Member member) {
            this.member = member;
            member.engine.abstainFrom(tableId -> {
                voted.add(tableId);
                if (tableId.equals(EngineCluster.OTHER.id()) && release.getCount() > 0) {
                    held.countDown();
                    try {
                        release.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return false;
            });
        }

        /** Starts a round on OTHER coordinated by {@code coordinator}, and returns once its prepare holds the lane. */
        CompletableFuture<CasResult> take(int coordinator) throws InterruptedException {
            CompletableFuture<CasResult> holder = cluster.cas(coordinator, EngineCluster.setIf(EngineCluster.OTHER, 1, null, 1), ConsistencyLevel.QUORUM);
            assertThat(held.await(30, TimeUnit.SECONDS)).as("the lane of " + member.info.internode() + " is held").isTrue();
            return holder;
        }
    }
}
