package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.ConsistencyLevel;
import ballot.cql.WriteType;
import ballot.cql.error.UnavailableException;
import ballot.cql.error.WriteTimeoutException;
import ballot.cql.spi.CasResult;
import ballot.paxos.acceptor.AcceptorState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three engines over real storage and a loopback network that loses messages on purpose (EngineCluster): the answers
 * the client gets when the outcome is unknown, had no effect, or could not even start (docs/paxos.md §4.10), the next
 * round finishing what an abandoned one left, pruning, and an acceptor's restart.
 */
class PaxosEngineFaultTest {
    @TempDir
    Path directory;
    private EngineCluster cluster;

    @AfterEach
    void close() {
        if (cluster != null) cluster.close();
    }

    private EngineCluster cluster(Duration contention) {
        cluster = new EngineCluster(directory, 3, contention);
        return cluster;
    }

    private static CasResult join(CompletableFuture<CasResult> f) {
        return f.orTimeout(30, TimeUnit.SECONDS).join();
    }

    private static Throwable failure(CompletableFuture<CasResult> f) {
        try {
            f.orTimeout(30, TimeUnit.SECONDS).join();
        } catch (CompletionException e) {
            return e.getCause();
        }
        throw new AssertionError("expected a failure, got an answer");
    }

    private Integer serialRead(int coordinator, int k) {
        return EngineCluster.value(join(cluster.cas(coordinator, EngineCluster.read(k), ConsistencyLevel.ONE)).current());
    }

    @Test
    void everyCoordinatorSeesWhatAnotherDecided() {
        cluster(Duration.ofSeconds(5));
        assertThat(join(cluster.cas(0, EngineCluster.setIf(1, null, 1), ConsistencyLevel.QUORUM)).applied()).isTrue();
        assertThat(join(cluster.cas(1, EngineCluster.setIf(1, 1, 2), ConsistencyLevel.QUORUM)).applied()).isTrue();
        CasResult stale = join(cluster.cas(2, EngineCluster.setIf(1, 1, 3), ConsistencyLevel.QUORUM));
        assertThat(stale.applied()).isFalse();
        assertThat(EngineCluster.value(stale.current())).isEqualTo(2);
        assertThat(serialRead(2, 1)).isEqualTo(2);
        assertThat(cluster.delivered.get()).as("the replicas talked through the codecs").isPositive();
    }

    @Test
    void aLostAcceptReplyIsUnknownAndTheNextRoundFinishesTheProposal() {
        cluster(Duration.ofMillis(400));
        cluster.lose(PaxosVerbs.PROPOSE, EngineCluster.Loss.RESPONSE);
        Throwable unknown = failure(cluster.cas(0, EngineCluster.setIf(2, null, 5), ConsistencyLevel.QUORUM));
        assertThat(unknown).isInstanceOf(WriteTimeoutException.class);
        assertThat(((WriteTimeoutException) unknown).writeType()).as("outcome unknown: CAS").isEqualTo(WriteType.CAS);
        assertThat(((WriteTimeoutException) unknown).consistency()).isEqualTo(ConsistencyLevel.SERIAL);
        cluster.heal();
        // The replicas accepted it; a later prepare finds it incomplete and finishes it before reading.
        assertThat(serialRead(1, 2)).isEqualTo(5);
        assertThat(join(cluster.cas(2, EngineCluster.setIf(2, null, 9), ConsistencyLevel.QUORUM)).applied()).isFalse();
    }

    /**
     * A background keyspace's partitions (admission_background_keyspaces) run their lane tasks and the lanes' ticks
     * behind other work: they still decide, and the tick still retransmits and finishes a proposal whose accept
     * replies were lost.
     */
    @Test
    void backgroundPartitionsDecideAndFinishWhatALostReplyLeft() {
        cluster = new EngineCluster(directory, 3, Duration.ofMillis(400), java.util.Set.of("ks"), 2);
        assertThat(join(cluster.cas(0, EngineCluster.setIf(7, null, 1), ConsistencyLevel.QUORUM)).applied()).isTrue();
        assertThat(join(cluster.cas(1, EngineCluster.setIf(7, 1, 2), ConsistencyLevel.QUORUM)).applied()).isTrue();
        cluster.lose(PaxosVerbs.PROPOSE, EngineCluster.Loss.RESPONSE);
        Throwable unknown = failure(cluster.cas(2, EngineCluster.setIf(7, 2, 3), ConsistencyLevel.QUORUM));
        assertThat(unknown).isInstanceOf(WriteTimeoutException.class);
        cluster.heal();
        assertThat(serialRead(0, 7)).as("the accepted proposal is finished by the next round").isEqualTo(3);
    }

    @Test
    void noQuorumOfPromisesIsATimeoutWithoutEffect() {
        cluster(Duration.ofMillis(300));
        cluster.lose(PaxosVerbs.PREPARE, EngineCluster.Loss.REQUEST);
        Throwable timeout = failure(cluster.cas(0, EngineCluster.setIf(3, null, 7), ConsistencyLevel.QUORUM));
        assertThat(timeout).isInstanceOf(WriteTimeoutException.class);
        assertThat(((WriteTimeoutException) timeout).writeType()).isEqualTo(WriteType.CAS);
        assertThat(((WriteTimeoutException) timeout).blockFor()).isEqualTo(2);
        cluster.heal();
        assertThat(serialRead(1, 3)).as("nothing was proposed").isNull();
    }

    @Test
    void tooFewLiveReplicasIsUnavailableBeforeAnythingIsSent() {
        cluster(Duration.ofSeconds(5));
        cluster.markDown(2, true);
        assertThatThrownBy(() -> join(cluster.cas(0, EngineCluster.setIf(4, null, 1), ConsistencyLevel.ALL)))
                .hasCauseInstanceOf(UnavailableException.class).cause().hasMessage("Cannot achieve consistency level ALL")
                .hasFieldOrPropertyWithValue("required", 3).hasFieldOrPropertyWithValue("alive", 2);
        assertThat(join(cluster.cas(0, EngineCluster.setIf(4, null, 1), ConsistencyLevel.QUORUM)).applied()).isTrue();
        cluster.markDown(1, true);
        assertThatThrownBy(() -> join(cluster.cas(0, EngineCluster.setIf(4, 1, 2), ConsistencyLevel.ONE)))
                .hasCauseInstanceOf(UnavailableException.class).cause().hasMessage("Cannot achieve consistency level SERIAL")
                .hasFieldOrPropertyWithValue("required", 2).hasFieldOrPropertyWithValue("alive", 1);
    }

    /** docs/paxos.md §4.7: once every replica applied a decree its entries leave the registers, however many rounds. */
    @Test
    void finishedRoundsArePrunedSoRegistersStaySmall() {
        cluster(Duration.ofSeconds(5));
        for (int i = 0; i < 100; i++) {
            assertThat(join(cluster.cas(i % 3, EngineCluster.setIf(5, i == 0 ? null : i, i + 1), ConsistencyLevel.QUORUM)).applied()).isTrue();
        }
        // Each decree is pruned by the proposal after it (docs/paxos.md §4.7): only the last one keeps its entries.
        PaxosCluster.await("every replica applied the last decree", () -> cluster.members.stream().map(m ->
                PaxosCodec.decodeState(m.storage.paxosState(EngineCluster.TABLE.id(), EngineCluster.key(5))).committed().ballot())
                .distinct().count() == 1);
        for (EngineCluster.Member m : cluster.members) {
            byte[] registers = m.storage.paxosState(EngineCluster.TABLE.id(), EngineCluster.key(5));
            assertThat(PaxosCodec.decodeState(registers).accepted()).as("node %d holds no uncommitted proposal", m.index).isNull();
            assertThat(registers.length).as("registers of node %d after 100 rounds", m.index).isLessThan(600);
        }
        assertThat(serialRead(1, 5)).isEqualTo(100);
    }

    @Test
    void anAcceptorKeepsItsRegistersAndDataAcrossARestart() {
        cluster(Duration.ofSeconds(5));
        assertThat(join(cluster.cas(0, EngineCluster.setIf(6, null, 1), ConsistencyLevel.ALL)).applied()).isTrue();
        EngineCluster.Member restarted = cluster.members.get(2);
        // Quiet first: the commit that follows a decision may still be on its way.
        PaxosCluster.await("the decree is applied on node 3", () -> !PaxosCodec.decodeState(
                restarted.storage.paxosState(EngineCluster.TABLE.id(), EngineCluster.key(6))).committed().ballot().isZero());
        AcceptorState before = PaxosCodec.decodeState(restarted.storage.paxosState(EngineCluster.TABLE.id(), EngineCluster.key(6)));
        restarted.stop();
        restarted.start();
        AcceptorState after = PaxosCodec.decodeState(restarted.storage.paxosState(EngineCluster.TABLE.id(), EngineCluster.key(6)));
        assertThat(after).isEqualTo(before);
        assertThat(join(cluster.cas(2, EngineCluster.setIf(6, 1, 2), ConsistencyLevel.ALL)).applied()).isTrue();
        assertThat(serialRead(0, 6)).isEqualTo(2);
    }

    /**
     * Increments from three coordinators at once while 10% of all messages are lost: each applied increment moves the
     * register by one, so the final value is at least the applied count and at most that plus the unknown outcomes.
     */
    @Test
    void concurrentIncrementsOverALossyNetworkLoseNoUpdate() throws Exception {
        cluster(Duration.ofSeconds(2));
        assertThat(join(cluster.cas(0, EngineCluster.setIf(7, null, 0), ConsistencyLevel.QUORUM)).applied()).isTrue();
        cluster.lossRate = 0.1;
        AtomicInteger applied = new AtomicInteger();
        AtomicInteger unknown = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(3);
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            int coordinator = c;
            done.add(clients.submit(() -> {
                Integer current = null;
                for (int n = 0; n < 20; ) {
                    try {
                        if (current == null) current = serialRead(coordinator, 7);
                        CasResult r = join(cluster.cas(coordinator, EngineCluster.setIf(7, current, current + 1), ConsistencyLevel.QUORUM));
                        if (r.applied()) {
                            applied.incrementAndGet();
                            n++;
                            current = current + 1;
                        } else {
                            current = EngineCluster.value(r.current());
                        }
                    } catch (CompletionException e) {
                        if (e.getCause() instanceof WriteTimeoutException w && w.writeType() == WriteType.CAS) unknown.incrementAndGet();
                        else if (!(e.getCause() instanceof ballot.cql.error.ReadTimeoutException)) throw e;
                        current = null;
                    }
                }
                return null;
            }));
        }
        clients.shutdown();
        for (Future<?> f : done) f.get(120, TimeUnit.SECONDS);
        cluster.lossRate = 0;
        int value = serialRead(0, 7);
        assertThat(applied.get()).isEqualTo(60);
        assertThat(value).as("applied %d, unknown %d", applied.get(), unknown.get()).isBetween(applied.get(), applied.get() + unknown.get());
    }
}
