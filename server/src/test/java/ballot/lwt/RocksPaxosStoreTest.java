package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.data.Cell;
import ballot.cql.data.Clustering;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.LivenessInfo;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Row;
import ballot.cql.data.Slice;
import ballot.cql.schema.TableMetadata;
import ballot.cql.statement.SchemaDefinitions;
import ballot.paxos.Ballot;
import ballot.paxos.Bytes;
import ballot.paxos.Decree;
import ballot.paxos.PaxosKey;
import ballot.paxos.Proposal;
import ballot.paxos.RecentDecrees;
import ballot.paxos.acceptor.Acceptor;
import ballot.paxos.acceptor.AcceptorState;
import ballot.paxos.acceptor.Step;
import ballot.paxos.message.Commit;
import ballot.paxos.spi.LocalRead;
import ballot.storage.Mutation;
import ballot.storage.StorageEngine;
import ballot.storage.StorageOptions;
import ballot.storage.WriteId;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The acceptor's store on a real RocksDB (docs/paxos.md §9): durability, atomicity, and plain-write versions. */
class RocksPaxosStoreTest {
    private static final int NOW = 1_700_000_000;

    @TempDir
    Path directory;
    private StorageEngine storage;
    private GroupCommit groupCommit;
    private RocksPaxosStore store;
    private final TableMetadata table = SchemaDefinitions.table("ks", "CREATE TABLE t (k int, c int, v int, tokens set<int>, PRIMARY KEY (k, c))", UUID.randomUUID());
    private final PartitionKey partition = PartitionKey.of(CqlValuesTest.i(1));
    private final PaxosKey key = CqlValues.key(table.id(), partition);
    private final Bytes query = CqlValues.Query.of(table.id(), ReadSpec.all(NOW), false).encode();
    private int v;

    @BeforeEach
    void open() {
        storage = StorageEngine.open(new StorageOptions(directory, false, 10_000, 8L << 20, 0));
        storage.ensureTable(table);
        groupCommit = new GroupCommit(storage, 16, true);
        store = new RocksPaxosStore(storage, id -> table, () -> NOW, groupCommit);
        v = table.column("v").id();
    }

    @AfterEach
    void close() throws InterruptedException {
        groupCommit.close();
        storage.close();
    }

    private void reopen() throws InterruptedException {
        storage.close();
        open();
    }

    /** An entry setting v of row c, as a conditional statement evaluated at some timestamp would produce it. */
    private Bytes setV(int c, int value) {
        long evaluatedAt = 123;
        PartitionUpdate u = new PartitionUpdate(table.id(), partition, DeletionTime.LIVE, List.of(), null,
                List.of(Row.of(Clustering.of(CqlValuesTest.i(c)), LivenessInfo.EMPTY, List.of(Cell.live(v, null, CqlValuesTest.i(value), evaluatedAt)))));
        return CqlValues.encodeEntry(u, evaluatedAt);
    }

    private void plainWrite(int c, int value, long timestamp) {
        PartitionUpdate u = new PartitionUpdate(table.id(), partition, DeletionTime.LIVE, List.of(), null,
                List.of(Row.of(Clustering.of(CqlValuesTest.i(c)), LivenessInfo.EMPTY, List.of(Cell.live(v, null, CqlValuesTest.i(value), timestamp)))));
        storage.apply(List.of(new Mutation(u, new WriteId(1).next(timestamp))));
    }

    /** An entry adding {@code token} to the set of row c=1, as {@code SET tokens = tokens + {token}} produces it. */
    private Bytes addToken(int token) {
        long evaluatedAt = 123;
        Cell element = Cell.live(table.column("tokens").id(), CqlValuesTest.i(token), java.nio.ByteBuffer.allocate(0), evaluatedAt);
        PartitionUpdate u = new PartitionUpdate(table.id(), partition, DeletionTime.LIVE, List.of(), null,
                List.of(Row.of(Clustering.of(CqlValuesTest.i(1)), LivenessInfo.EMPTY, List.of(element))));
        return CqlValues.encodeEntry(u, evaluatedAt);
    }

    private void commit(Decree decree) {
        Step step = Acceptor.onCommit(store.load(key), new Commit(key, decree));
        Durably.persist(store, key, step.next(), step.apply());
    }

    private PartitionData read() {
        return CqlValues.decodeResult(store.read(key, List.of(query)).results().get(0));
    }

    private static Cell cell(PartitionData data, int c) {
        for (Row r : data.rows()) if (r.clustering().equals(Clustering.of(CqlValuesTest.i(c)))) return r.cells().get(0);
        return null;
    }

    @Test
    void registersSurviveReopening() throws Exception {
        Ballot b1 = new Ballot(1_000, 0, 7, 1);
        Ballot b2 = new Ballot(2_000, 0, 7, 1);
        Decree committed = new Decree(b1, b1, List.of(setV(1, 10)));
        AcceptorState state = new AcceptorState(new Ballot(3_000, 0, 8, 2), new Proposal(b2, b2, List.of(setV(1, 20)), committed, null),
                committed, 2_000, RecentDecrees.NONE.with(committed));
        assertThat(store.load(key)).isEqualTo(AcceptorState.EMPTY);
        Durably.persist(store, key, state, List.of(committed));
        reopen();
        assertThat(store.load(key)).isEqualTo(state);
        assertThat(cell(read(), 1).value()).isEqualTo(CqlValuesTest.i(10));
        PaxosKey other = CqlValues.key(table.id(), PartitionKey.of(CqlValuesTest.i(2)));
        assertThat(store.load(other)).as("registers are per partition").isEqualTo(AcceptorState.EMPTY);
    }

    /** docs/paxos.md §4.13: purged registers are deleted, and read back as the durable ballot floor's state. */
    @Test
    void purgedRegistersAreDeletedAndReadAsTheFloorAcrossRestarts() throws Exception {
        Ballot b = new Ballot(1_000, 0, 7, 1);
        Decree decree = new Decree(b, b, List.of(setV(1, 10)));
        Decree pruned = new Decree(b, b, null); // every replica applied it (only pruned decrees are purged)
        Durably.persist(store, key, new AcceptorState(b, null, pruned, decree.spanEndMicros(), RecentDecrees.NONE.with(decree)), List.of(decree));
        store.raiseFloor(5_000);
        store.raiseFloor(4_000); // never lowered
        Step purge = Acceptor.onPurge(store.load(key), store.floorMicros());
        Durably.persist(store, key, purge.next(), purge.apply());
        int[] registers = {0};
        storage.forEachPaxosState(s -> registers[0]++);
        assertThat(registers[0]).as("the register is gone from the paxos table").isZero();
        reopen();
        assertThat(store.floorMicros()).isEqualTo(5_000);
        assertThat(store.load(key)).isEqualTo(AcceptorState.floor(5_000));
        assertThat(cell(read(), 1).value()).as("the decree's data stays in the table").isEqualTo(CqlValuesTest.i(10));
    }

    /** The purge pass walks the registers page by page: every partition once, in key order, none skipped. */
    @Test
    void registersArePagedInKeyOrderWithoutGapsOrRepeats() throws Exception {
        Ballot b = new Ballot(1_000, 0, 7, 1);
        List<PartitionKey> written = new java.util.ArrayList<>();
        for (int k = 0; k < 7; k++) {
            written.add(PartitionKey.of(CqlValuesTest.i(k)));
            Durably.persist(store, CqlValues.key(table.id(), written.get(k)), new AcceptorState(b, null, Decree.NONE, 0, RecentDecrees.NONE), List.of());
        }
        List<PartitionKey> walked = new java.util.ArrayList<>();
        int pages = 0;
        for (var page = storage.paxosStates(null, 3); !page.isEmpty(); page = storage.paxosStates(page.get(page.size() - 1), 3)) {
            assertThat(page).hasSizeLessThanOrEqualTo(3);
            pages++;
            page.forEach(s -> walked.add(s.key()));
        }
        List<PartitionKey> all = new java.util.ArrayList<>();
        storage.forEachPaxosState(s -> all.add(s.key()));
        assertThat(walked).containsExactlyElementsOf(all).containsExactlyInAnyOrderElementsOf(written);
        assertThat(pages).isEqualTo(3);
    }

    @Test
    void decreeEntriesAreWrittenAtTheDecreesTimestampsLaterEntriesWinning() throws Exception {
        Ballot b = new Ballot(5_000, 0, 7, 1);
        Decree decree = new Decree(b, b, List.of(setV(1, 1), setV(1, 2), setV(2, 3)));
        Durably.persist(store, key, new AcceptorState(b, null, decree, decree.spanEndMicros(), RecentDecrees.NONE.with(decree)), List.of(decree));
        PartitionData data = read();
        assertThat(cell(data, 1).value()).isEqualTo(CqlValuesTest.i(2));
        assertThat(cell(data, 1).timestamp()).isEqualTo(5_001);
        assertThat(cell(data, 2).timestamp()).isEqualTo(5_002);
        // Applying the same decree again (a retransmitted commit) changes nothing.
        Durably.persist(store, key, store.load(key), List.of(decree));
        assertThat(CqlValues.encodeResult(read())).isEqualTo(CqlValues.encodeResult(data));
    }

    /**
     * docs/paxos.md §4.6: a commit of a decree older than the replica's latest is applied again (a retransmission, or a
     * replay's predecessor that a later commit overtook). After a sweep merged the row, that must not lose the other
     * decrees' entries: under concurrent coordinators it dropped acknowledged LWTs (PaxosClusterIT).
     */
    @Test
    void anOlderDecreeCommittedAgainAfterTheRowWasSweptLosesNothing() throws Exception {
        List<Decree> decrees = new java.util.ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            Ballot b = new Ballot(1_000L * i, 0, 7, 1);
            decrees.add(new Decree(b, b, List.of(addToken(i))));
        }
        for (Decree d : decrees.subList(0, 5)) commit(d);
        storage.sweep(table.id(), NOW);
        commit(decrees.get(5));
        commit(decrees.get(4));
        List<Integer> tokens = new java.util.ArrayList<>();
        for (Cell c : read().rows().get(0).cells()) if (c.path() != null) tokens.add(c.path().getInt(0));
        assertThat(tokens).containsExactly(1, 2, 3, 4, 5, 6);
    }

    @Test
    void aFailedPersistWritesNeitherRegistersNorEntries() throws Exception {
        Ballot b = new Ballot(5_000, 0, 7, 1);
        Decree good = new Decree(b, b, List.of(setV(1, 1)));
        Decree corrupt = new Decree(new Ballot(6_000, 0, 7, 1), new Ballot(6_000, 0, 7, 1), List.of(Bytes.wrap(new byte[] {9})));
        AcceptorState state = new AcceptorState(corrupt.ballot(), null, corrupt, 6_000, RecentDecrees.NONE);
        assertThatThrownBy(() -> Durably.persist(store, key, state, List.of(good, corrupt))).isInstanceOf(IllegalArgumentException.class);
        assertThat(store.load(key)).isEqualTo(AcceptorState.EMPTY);
        assertThat(read().rows()).isEmpty();
    }

    @Test
    void plainWritesChangeTheVersionAndPaxosDoesNot() throws Exception {
        assertThat(store.plainVersion(key)).isZero();
        plainWrite(1, 1, 100);
        long v1 = store.plainVersion(key);
        assertThat(v1).isPositive();
        Ballot b = new Ballot(5_000, 0, 7, 1);
        Decree decree = new Decree(b, b, List.of(setV(1, 2)));
        Durably.persist(store, key, new AcceptorState(b, null, decree, decree.spanEndMicros(), RecentDecrees.NONE), List.of(decree));
        assertThat(store.plainVersion(key)).as("a decree is not a plain write").isEqualTo(v1);
        LocalRead read = store.read(key, List.of(query));
        assertThat(read.plainVersion()).as("read with its version from one snapshot").isEqualTo(v1);
        plainWrite(1, 3, 200);
        long v2 = store.plainVersion(key);
        assertThat(v2).isNotEqualTo(v1);
        PaxosKey other = CqlValues.key(table.id(), PartitionKey.of(CqlValuesTest.i(2)));
        assertThat(store.plainVersion(other)).as("versions are per partition").isZero();
        storage.truncate(table.id());
        long v3 = store.plainVersion(key);
        assertThat(v3).as("truncation is a plain write of every partition").isNotIn(v1, v2);
        assertThat(store.plainVersion(other)).isNotZero();
        reopen();
        assertThat(store.plainVersion(key)).isEqualTo(v3);
        plainWrite(1, 4, 300);
        assertThat(store.plainVersion(key)).as("after a restart versions never come back").isGreaterThan(Math.max(v3, v2));
    }

    @Test
    void droppingATableDropsItsPaxosState() throws Exception {
        Ballot b = new Ballot(5_000, 0, 7, 1);
        Durably.persist(store, key, new AcceptorState(b, null, Decree.NONE, 0, RecentDecrees.NONE), List.of());
        plainWrite(1, 1, 100);
        storage.dropTable(table.id());
        storage.ensureTable(table);
        assertThat(store.load(key)).isEqualTo(AcceptorState.EMPTY);
        assertThat(store.plainVersion(key)).isZero();
    }

    private static final AcceptorState PROMISED = new AcceptorState(new Ballot(5_000, 0, 7, 1), null, Decree.NONE, 0, RecentDecrees.NONE);

    /** A table that had storage on this node and was dropped. */
    private TableMetadata droppedTable() {
        TableMetadata dropped = SchemaDefinitions.table("ks", "CREATE TABLE gone (k int PRIMARY KEY, v int)", UUID.randomUUID());
        storage.ensureTable(dropped);
        storage.dropTable(dropped.id());
        return dropped;
    }

    /**
     * A step of a table dropped meanwhile fails alone: the other steps of its group are written (the whole group
     * failed before, so one replica's votes for unrelated partitions were lost at every DROP during LWTs).
     */
    @Test
    void aStepOfADroppedTableFailsAloneNotItsGroup() throws Exception {
        TableMetadata dropped = droppedTable();
        byte[] state = PaxosCodec.encodeState(PROMISED);
        List<StorageEngine.PaxosWrite> refused = storage.persistPaxos(List.of(new StorageEngine.PaxosWrite(table.id(), partition, state, List.of()),
                new StorageEngine.PaxosWrite(dropped.id(), partition, state, List.of())), true);
        assertThat(refused).extracting(StorageEngine.PaxosWrite::tableId).containsExactly(dropped.id());
        assertThat(store.load(key)).isEqualTo(PROMISED);
        assertThatThrownBy(() -> Durably.persist(store, CqlValues.key(dropped.id(), partition), PROMISED, List.of()))
                .isInstanceOf(StorageEngine.TableDroppedException.class);
    }

    /** The same through the group commit: in a burst that shares its fsyncs, only the dropped table's step fails. */
    @Test
    void theGroupCommitFailsOnlyTheStepOfADroppedTable() throws Exception {
        TableMetadata dropped = droppedTable();
        byte[] state = PaxosCodec.encodeState(PROMISED);
        List<CompletableFuture<RuntimeException>> live = new ArrayList<>();
        CompletableFuture<RuntimeException> gone = new CompletableFuture<>();
        for (int k = 0; k < 40; k++) {
            CompletableFuture<RuntimeException> done = new CompletableFuture<>();
            groupCommit.persist(new StorageEngine.PaxosWrite(table.id(), PartitionKey.of(CqlValuesTest.i(k)), state, List.of()), true, done::complete);
            live.add(done);
            if (k == 20) groupCommit.persist(new StorageEngine.PaxosWrite(dropped.id(), partition, state, List.of()), true, gone::complete);
        }
        assertThat(gone.get(10, TimeUnit.SECONDS)).isInstanceOf(StorageEngine.TableDroppedException.class);
        for (int k = 0; k < 40; k++) {
            assertThat(live.get(k).get(10, TimeUnit.SECONDS)).as("step %d", k).isNull();
            assertThat(store.load(CqlValues.key(table.id(), PartitionKey.of(CqlValuesTest.i(k))))).isEqualTo(PROMISED);
        }
    }

    @Test
    void queriesReadWholeSlicesOfOnePartition() throws Exception {
        for (int c = 1; c <= 5; c++) plainWrite(c, c * 10, 100 + c);
        Bytes slice = CqlValues.Query.of(table.id(), new ReadSpec(List.of(Slice.of(CqlValuesTest.i(3))), false, 1, 1, NOW), false).encode();
        Bytes reversed = CqlValues.Query.of(table.id(), new ReadSpec(List.of(Slice.ALL), true, 1, 1, NOW), false).encode();
        LocalRead read = store.read(key, List.of(slice, reversed));
        assertThat(CqlValues.decodeResult(read.results().get(0)).rows()).hasSize(1);
        PartitionData all = CqlValues.decodeResult(read.results().get(1));
        assertThat(all.rows()).as("no limit: the query's whole slices").hasSize(5);
        assertThat(all.rows().get(0).clustering()).isEqualTo(Clustering.of(CqlValuesTest.i(5)));
    }

    /** An entry that writes v of row c and replaces the partition's transaction state with {@code state}. */
    private Bytes setVAndState(int c, int value, byte[] state) {
        PartitionUpdate u = new PartitionUpdate(table.id(), partition, DeletionTime.LIVE, List.of(), null,
                List.of(Row.of(Clustering.of(CqlValuesTest.i(c)), LivenessInfo.EMPTY, List.of(Cell.live(v, null, CqlValuesTest.i(value), 0)))));
        return CqlValues.encodeEntry(u, 0, state);
    }

    private TxnCell txnState() {
        Bytes withTxn = CqlValues.Query.of(table.id(), ReadSpec.all(NOW), true).encode();
        return CqlValues.decodeResultWithTxn(store.read(key, List.of(withTxn)).results().get(0)).txn();
    }

    /** docs/txn.md §11.1: a decree writes the transaction state with its rows, in the same batch, at its timestamp. */
    @Test
    void aDecreeWritesTheTransactionStateWithItsRowsAndOnlyQueriesThatAskReadIt() throws Exception {
        assertThat(txnState()).as("no state yet").isNull();
        Ballot b = new Ballot(5_000, 0, 7, 1);
        Decree decree = new Decree(b, b, List.of(setVAndState(1, 10, new byte[] {1, 2, 3})));
        commit(decree);
        assertThat(cell(read(), 1).value()).isEqualTo(CqlValuesTest.i(10));
        assertThat(txnState()).isEqualTo(new TxnCell(5_000, new byte[] {1, 2, 3}));
        assertThat(CqlValues.decodeResultWithTxn(store.read(key, List.of(query)).results().get(0)).txn())
                .as("a query that does not ask reads no state").isNull();
        reopen();
        assertThat(txnState()).as("durable").isEqualTo(new TxnCell(5_000, new byte[] {1, 2, 3}));
    }

    /** An older decree applied again (docs/paxos.md §4.6) never brings back an older state, tombstones included. */
    @Test
    void anOlderDecreeNeverReplacesANewerTransactionState() throws Exception {
        Ballot older = new Ballot(5_000, 0, 7, 1);
        Ballot newer = new Ballot(6_000, 0, 7, 1);
        Decree withIntent = new Decree(older, older, List.of(setVAndState(1, 10, new byte[] {9})));
        Decree emptied = new Decree(newer, newer, List.of(setVAndState(1, 11, new byte[0])));
        commit(withIntent);
        commit(emptied);
        Durably.persist(store, key, store.load(key), List.of(withIntent));
        assertThat(txnState()).isEqualTo(new TxnCell(6_000, new byte[0]));
        assertThat(txnState().isEmpty()).isTrue();
    }

    @Test
    void droppingATableDropsItsTransactionStates() throws Exception {
        Ballot b = new Ballot(5_000, 0, 7, 1);
        commit(new Decree(b, b, List.of(setVAndState(1, 10, new byte[] {1}))));
        assertThat(txnState()).isNotNull();
        storage.dropTable(table.id());
        storage.ensureTable(table);
        assertThat(txnState()).isNull();
    }
}
