package ballot.transactions;

import static ballot.lwt.EngineCluster.TABLE;
import static ballot.lwt.EngineCluster.key;
import static ballot.lwt.EngineCluster.read;
import static ballot.lwt.EngineCluster.setIf;
import static ballot.lwt.EngineCluster.value;
import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.ConsistencyLevel;
import ballot.cql.spi.CasResult;
import ballot.cql.spi.TransactionResult;
import ballot.lwt.EngineCluster;
import ballot.txn.Attempt;
import ballot.txn.Record;
import ballot.txn.TxnId;
import ballot.txn.step.Inspect;
import ballot.txn.step.Place;
import ballot.txn.step.ReadRecord;
import ballot.txn.step.Reply;
import ballot.txn.step.Stage;
import ballot.txn.step.Step;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's transactions over three Paxos engines on real RocksDB (docs/txn.md §11.1): atomic commits across
 * partitions, and single-partition statements that honour the intents an abandoned transaction left, which they
 * recover: rolled back when the transaction cannot have committed, forward when every intent was in place.
 */
class TransactionHostTest {
    private static final Duration EPOCH = Duration.ofMillis(300);

    @TempDir
    Path directory;
    private EngineCluster cluster;
    private final List<TransactionHost> hosts = new ArrayList<>();
    private final List<TransactionalLwt> lwts = new ArrayList<>();

    @BeforeEach
    void start() {
        cluster = new EngineCluster(directory, 3, Duration.ofSeconds(1));
        for (EngineCluster.Member m : cluster.members) {
            TransactionHost host = new TransactionHost(m.engine, m.storage, id -> TABLE, TransactionHostTest::now,
                    new TransactionHost.Options(1, Duration.ofSeconds(5), EPOCH, Duration.ofSeconds(2), Duration.ofSeconds(3),
                            Duration.ofMillis(200)), new SimpleMeterRegistry());
            hosts.add(host);
            lwts.add(new TransactionalLwt(m.engine, host));
        }
    }

    @AfterEach
    void stop() {
        for (TransactionHost h : hosts) h.close();
        cluster.close();
    }

    private static long now() {
        return System.currentTimeMillis() * 1000;
    }

    private Integer valueOf(int k) throws Exception {
        return value(lwts.get(2).cas(read(k), ConsistencyLevel.SERIAL, ConsistencyLevel.ONE).get(10, TimeUnit.SECONDS).current());
    }

    private void set(int k, int v) throws Exception {
        assertThat(cluster.cas(0, setIf(k, null, v), ConsistencyLevel.QUORUM).get(5, TimeUnit.SECONDS).applied()).isTrue();
    }

    @Test
    void aTransactionWritesEveryPartitionOrNone() throws Exception {
        set(1, 100);
        set(2, 50);
        TransactionResult moved = hosts.get(0).run(List.of(setIf(1, 100, 90), setIf(2, 50, 60)), ConsistencyLevel.SERIAL,
                ConsistencyLevel.QUORUM, null).get(10, TimeUnit.SECONDS);
        assertThat(moved.applied()).isTrue();
        assertThat(moved.reads()).extracting(EngineCluster::value).containsExactly(100, 50);
        assertThat(valueOf(1)).isEqualTo(90);
        assertThat(valueOf(2)).isEqualTo(60);

        TransactionResult refused = hosts.get(1).run(List.of(setIf(1, 90, 80), setIf(2, 59, 70)), ConsistencyLevel.SERIAL,
                ConsistencyLevel.QUORUM, null).get(10, TimeUnit.SECONDS);
        assertThat(refused.applied()).as("one condition fails: nothing is written").isFalse();
        assertThat(valueOf(1)).isEqualTo(90);
        assertThat(valueOf(2)).isEqualTo(60);
    }

    /** Runs {@code step} on {@code k} through node 0's Paxos, as a coordinator that then vanishes would have. */
    private Reply plant(int k, Step<TxnValue> step) throws Exception {
        CompletableFuture<Reply> reply = new CompletableFuture<>();
        new PaxosPartitionCas(cluster.members.get(0).engine, id -> TABLE, Runnable::run, () -> PaxosPartitionCas.Route.LOCAL, id -> null).apply(TxnKeys.of(TABLE.id(), key(k)), step, reply::complete);
        return reply.get(5, TimeUnit.SECONDS);
    }

    private static Place<TxnValue> place(TxnId id, int home, long deadline, ballot.cql.spi.CasRequest operation) {
        return new Place<>(new Attempt(id, 0), TxnKeys.of(TABLE.id(), key(home)), now(), deadline, new CqlOperation(operation, 0, null, ballot.cql.ConsistencyLevel.QUORUM), List.of(), 50_000);
    }

    @Test
    void anLwtWaitsForAnAbandonedIntentAndRollsItBack() throws Exception {
        set(1, 100);
        TxnId abandoned = new TxnId(UUID.randomUUID());
        // The coordinator placed one intent and vanished: no record, so the transaction can never have committed.
        Reply placed = plant(1, place(abandoned, 1, now() + EPOCH.toNanos() / 1000, setIf(1, 100, 0)));
        assertThat(placed).isInstanceOfSatisfying(Reply.Placement.class, p -> assertThat(p.outcome()).isEqualTo(Reply.Placement.Outcome.PLACED));

        CasResult lwt = lwts.get(1).cas(setIf(1, 100, 101), ConsistencyLevel.SERIAL, ConsistencyLevel.QUORUM).get(10, TimeUnit.SECONDS);
        assertThat(lwt.applied()).as("the abandoned intent is rolled back, then the LWT applies").isTrue();
        assertThat(valueOf(1)).isEqualTo(101);
        assertThat(plant(1, new Inspect<>(0))).isInstanceOfSatisfying(Reply.Inspection.class, i -> assertThat(i.intent()).isNull());
        assertThat(plant(1, new ReadRecord<>(abandoned))).as("recovered: aborted in a record of its own")
                .isInstanceOfSatisfying(Reply.RecordSeen.class, r -> assertThat(r.record().status()).isEqualTo(Record.Status.ABORTED));
    }

    @Test
    void anLwtRollsForwardAnAbandonedTransactionWhoseIntentsWereAllInPlace() throws Exception {
        set(1, 100);
        set(2, 50);
        TxnId abandoned = new TxnId(UUID.randomUUID());
        long deadline = now() + EPOCH.toNanos() / 1000;
        List<ballot.txn.PartitionKey> participants = List.of(TxnKeys.of(TABLE.id(), key(1)), TxnKeys.of(TABLE.id(), key(2)));
        // Staged and placed everywhere (implicitly committed), then the coordinator vanished before finishing.
        plant(1, new Stage<>(Record.staging(abandoned, 0, now(), deadline, participants)));
        plant(1, place(abandoned, 1, deadline, setIf(1, 100, 0)));
        plant(2, place(abandoned, 1, deadline, setIf(2, 50, 150)));

        CasResult lwt = lwts.get(2).cas(setIf(2, 150, 151), ConsistencyLevel.SERIAL, ConsistencyLevel.QUORUM).get(10, TimeUnit.SECONDS);
        assertThat(lwt.applied()).as("the LWT sees the transfer rolled forward").isTrue();
        assertThat(valueOf(2)).isEqualTo(151);
        CasResult serialRead = lwts.get(0).cas(read(1), ConsistencyLevel.SERIAL, ConsistencyLevel.ONE).get(10, TimeUnit.SECONDS);
        assertThat(value(serialRead.current())).as("and its other half").isEqualTo(0);
        assertThat(plant(1, new ReadRecord<>(abandoned))).isInstanceOfSatisfying(Reply.RecordSeen.class,
                r -> assertThat(r.record().status()).isEqualTo(Record.Status.COMMITTED));
    }
}
