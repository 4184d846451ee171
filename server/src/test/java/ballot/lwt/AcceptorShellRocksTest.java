package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.data.PartitionKey;
import ballot.cql.data.ReadSpec;
import ballot.cql.schema.TableMetadata;
import ballot.cql.statement.SchemaDefinitions;
import ballot.paxos.Ballot;
import ballot.paxos.Bytes;
import ballot.paxos.Decree;
import ballot.paxos.NodeId;
import ballot.paxos.PaxosKey;
import ballot.paxos.Proposal;
import ballot.paxos.acceptor.AcceptorShell;
import ballot.paxos.message.Accepted;
import ballot.paxos.message.Prepare;
import ballot.paxos.message.Promise;
import ballot.paxos.message.Propose;
import ballot.paxos.message.Rejected;
import ballot.paxos.message.Reply;
import ballot.paxos.message.Request;
import ballot.paxos.spi.Observer;
import ballot.storage.StorageEngine;
import ballot.storage.StorageOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The acceptor shell as the server runs it, over RocksDB and the group commit: durable steps reach the store before
 * their reply (docs/paxos.md §4.12), and the sole replica's own coordinator gets its promise from memory, written
 * with the partition's next step (§4.2.5).
 */
class AcceptorShellRocksTest {
    private static final int NOW = 1_700_000_000;
    private static final NodeId SELF = NodeId.of(1);

    @TempDir
    Path directory;
    private StorageEngine storage;
    private RocksPaxosStore store;
    private GroupCommit groupCommit;
    private final ExecutorService lane = Executors.newSingleThreadExecutor();
    private final TableMetadata table = SchemaDefinitions.table("ks", "CREATE TABLE t (k int PRIMARY KEY, v int)", UUID.randomUUID());
    private final Bytes query = CqlValues.Query.of(table.id(), ReadSpec.all(NOW), false).encode();

    @BeforeEach
    void open() {
        storage = StorageEngine.open(new StorageOptions(directory, false, 10_000, 8L << 20, 0));
        storage.ensureTable(table);
        groupCommit = new GroupCommit(storage, 16, true);
        store = new RocksPaxosStore(storage, id -> table, () -> NOW, groupCommit);
    }

    @AfterEach
    void close() throws Exception {
        lane.shutdownNow();
        groupCommit.close();
        storage.close();
    }

    private PaxosKey key(int k) {
        return CqlValues.key(table.id(), PartitionKey.of(CqlValuesTest.i(k)));
    }

    private static Ballot ballot(long micros) {
        return new Ballot(micros, 0, SELF.id(), 1);
    }

    private Reply send(AcceptorShell acceptor, Request request) throws Exception {
        CompletableFuture<Reply> reply = new CompletableFuture<>();
        lane.execute(() -> acceptor.receive(request, AcceptorShell.Answer.completing(reply, failure -> {})));
        return reply.get(10, TimeUnit.SECONDS);
    }

    private AcceptorShell acceptor(int deferredMax) {
        return new AcceptorShell(SELF, store, lane, Observer.NONE, key -> false, 8, deferredMax);
    }

    @Test
    void aPromiseToAnotherCoordinatorIsDurableBeforeTheReply() throws Exception {
        AcceptorShell acceptor = acceptor(8);
        assertThat(send(acceptor, new Prepare(key(1), ballot(100), List.of(query)))).isInstanceOf(Promise.class);
        assertThat(store.load(key(1)).promised()).isEqualTo(ballot(100));
    }

    /** The group commit counts what it made durable: the steps-per-LWT and fsync meters read these. */
    @Test
    void theGroupCommitCountsStepsAndSyncs() throws Exception {
        AcceptorShell acceptor = acceptor(8);
        send(acceptor, new Prepare(key(1), ballot(100), List.of(query)));
        send(acceptor, new Prepare(key(2), ballot(100), List.of(query)));
        assertThat(groupCommit.stepsSynced()).isEqualTo(2);
        assertThat(groupCommit.syncs()).isBetween(1L, 2L);
    }

    /** {@code paxos_sync: commitlog}: votes are in the log before their reply, and the storage's own syncs cover them. */
    @Test
    void withVotesFollowingTheCommitLogAPromiseIsWrittenButNotSyncedBeforeItsReply() throws Exception {
        groupCommit.close();
        groupCommit = new GroupCommit(storage, 16, false);
        store = new RocksPaxosStore(storage, id -> table, () -> NOW, groupCommit);
        AcceptorShell acceptor = acceptor(8);
        assertThat(send(acceptor, new Prepare(key(1), ballot(100), List.of(query)))).isInstanceOf(Promise.class);
        assertThat(store.load(key(1)).promised()).isEqualTo(ballot(100));
        assertThat(groupCommit.stepsSynced()).isZero();
        assertThat(groupCommit.syncs()).isZero();
        assertThat(groupCommit.stepsWritten()).isEqualTo(1);
    }

    @Test
    void theSoleReplicasOwnCoordinatorIsPromisedFromMemoryAndTheAcceptWritesItOut() throws Exception {
        AcceptorShell acceptor = acceptor(8);
        assertThat(send(acceptor, new Prepare(key(1), ballot(100), List.of(query), true))).isInstanceOf(Promise.class);
        assertThat(store.load(key(1)).promised()).as("not written").isEqualTo(Ballot.ZERO);
        assertThat(send(acceptor, new Prepare(key(1), ballot(90), List.of(query))))
                .as("the promise in memory holds").isInstanceOfSatisfying(Rejected.class,
                        r -> assertThat(r.promised()).isEqualTo(ballot(100)));

        Proposal proposal = new Proposal(ballot(100), ballot(100), List.of(), Decree.NONE, null);
        assertThat(send(acceptor, new Propose(key(1), proposal, ballot(200), null, Propose.Decides.SOLE))).isInstanceOf(Accepted.class);
        assertThat(store.load(key(1)).promised()).as("the accept's write carries it").isEqualTo(ballot(200));
        assertThat(store.load(key(1)).accepted()).isEqualTo(proposal);
    }

    @Test
    void deferredPromisesBeyondTheLimitAreWrittenOutOldestFirst() throws Exception {
        AcceptorShell acceptor = acceptor(1);
        send(acceptor, new Prepare(key(1), ballot(100), List.of(query), true));
        send(acceptor, new Prepare(key(2), ballot(101), List.of(query), true));
        // The write-out of key 1 is in flight; a request behind it on the same partition waits for it.
        send(acceptor, new Prepare(key(1), ballot(100), List.of(query)));
        assertThat(store.load(key(1)).promised()).isEqualTo(ballot(100));
        assertThat(store.load(key(2)).promised()).as("within the limit: still in memory").isEqualTo(Ballot.ZERO);
    }
}
