package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.data.Cell;
import ballot.cql.data.Clustering;
import ballot.cql.data.ClusteringBound;
import ballot.cql.data.ComplexDeletion;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.LivenessInfo;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.RangeTombstone;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Row;
import ballot.cql.data.Slice;
import ballot.cql.schema.TableMetadata;
import ballot.cql.statement.SchemaDefinitions;
import ballot.paxos.Ballot;
import ballot.paxos.Bytes;
import ballot.paxos.Decree;
import ballot.paxos.PaxosKey;
import ballot.paxos.acceptor.AcceptorState;
import ballot.storage.Mutation;
import ballot.storage.StorageEngine;
import ballot.storage.StorageOptions;
import ballot.storage.WriteId;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read model against real storage as the reference (docs/paxos.md §5.3): merging replicas' reads equals reading a
 * replica that has every write, in any order; applying a decree entry to a read equals reading after the entry is
 * written. Random writes over rows, statics, collections, row, range and partition deletions; the seed is printed.
 */
class CqlReadModelTest {
    /**
     * The reads' time. It is the real time because the storage's background sweep purges by the real clock: a time in
     * the past would let it drop tombstones (gc_grace over) between two reads the test compares; TTLs are an hour so
     * that nothing expires under a sweep either.
     */
    private static final int NOW = (int) (System.currentTimeMillis() / 1000);

    @TempDir
    Path directory;
    private final List<StorageEngine> engines = new ArrayList<>();
    private final List<GroupCommit> groupCommits = new ArrayList<>();
    private final TableMetadata table = SchemaDefinitions.table("ks",
            "CREATE TABLE t (k int, c int, s int static, v int, m map<int, int>, PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c DESC)",
            UUID.randomUUID());
    private final PartitionKey partition = PartitionKey.of(CqlValuesTest.i(1));
    private final PaxosKey key = CqlValues.key(table.id(), partition);
    private final CqlReadModel model = new CqlReadModel(id -> table);
    private final List<Bytes> queries = List.of(
            query(List.of(Slice.ALL), false),
            query(List.of(Slice.ALL), true),
            query(List.of(), false), // the static row only
            query(List.of(Slice.of(CqlValuesTest.i(2))), false),
            query(List.of(new Slice(new ClusteringBound(new ByteBuffer[] {CqlValuesTest.i(4)}, true),
                    new ClusteringBound(new ByteBuffer[] {CqlValuesTest.i(1)}, false))), false));
    private long writeCounter;

    @AfterEach
    void close() throws InterruptedException {
        for (GroupCommit g : groupCommits) g.close();
        for (StorageEngine e : engines) e.close();
    }

    private Bytes query(List<Slice> slices, boolean reversed) {
        return CqlValues.Query.of(table.id(), new ReadSpec(slices, reversed, Integer.MAX_VALUE, Integer.MAX_VALUE, NOW), false).encode();
    }

    private RocksPaxosStore replica(String name) {
        StorageEngine e = StorageEngine.open(new StorageOptions(directory.resolve(name), false, 10_000, 8L << 20, 0));
        engines.add(e);
        e.ensureTable(table);
        GroupCommit groupCommit = new GroupCommit(e, 16, true);
        groupCommits.add(groupCommit);
        return new RocksPaxosStore(e, id -> table, () -> NOW, groupCommit);
    }

    private void write(RocksPaxosStore store, PartitionUpdate update) {
        engines.get(List.of(stores).indexOf(store)).apply(List.of(new Mutation(update, new WriteId(1).next(writeCounter++))));
    }

    private RocksPaxosStore[] stores;

    /** A canonical, readable form to compare reads by: the join of a read with itself, described. */
    private String canonical(Bytes query, Bytes result) {
        return describe(CqlValues.decodeResult(model.merge(query, List.of(result, result))));
    }

    private static String describe(PartitionData p) {
        StringBuilder s = new StringBuilder("deletion=").append(p.partitionDeletion().markedAt());
        for (RangeTombstone rt : p.rangeTombstones()) {
            s.append("\n rt ").append(rt.slice().start().inclusive() ? "[" : "(").append(rt.slice().start().prefix()[0].getInt(0))
                    .append(",").append(rt.slice().end().prefix()[0].getInt(0)).append(rt.slice().end().inclusive() ? "]" : ")")
                    .append("@").append(rt.deletion().markedAt());
        }
        if (p.staticRow() != null) s.append("\n static ").append(describe(p.staticRow()));
        for (Row r : p.rows()) s.append("\n row ").append(r.clustering().get(0).getInt(0)).append(' ').append(describe(r));
        return s.toString();
    }

    private static String describe(Row r) {
        StringBuilder s = new StringBuilder();
        if (!r.liveness().isEmpty()) s.append("live@").append(r.liveness().timestamp()).append(' ');
        if (!r.deletion().isLive()) s.append("deleted@").append(r.deletion().markedAt()).append(' ');
        for (ComplexDeletion d : r.complexDeletions()) s.append("c").append(d.column()).append("-deleted@").append(d.deletion().markedAt()).append(' ');
        for (Cell c : r.cells()) {
            s.append("c").append(c.column());
            if (c.path() != null) s.append('[').append(c.path().getInt(0)).append(']');
            s.append('=').append(c.value() == null ? "x" : String.valueOf(c.value().getInt(0))).append(c.ttl() > 0 ? "ttl" : "")
                    .append('@').append(c.timestamp()).append(' ');
        }
        return s.toString();
    }

    @Test
    void mergingReplicasReadsEqualsReadingTheirUnionInAnyOrder() {
        long seed = Long.getLong("ballot.seed", new Random().nextLong());
        Random random = new Random(seed);
        stores = new RocksPaxosStore[] {replica("a"), replica("b"), replica("all")};
        for (int i = 0; i < 300; i++) {
            PartitionUpdate u = randomUpdate(random, 1 + random.nextInt(1000));
            int where = random.nextInt(3);
            if (where != 1) write(stores[0], u);
            if (where != 0) write(stores[1], u);
            write(stores[2], u);
            if (i % 30 != 29) continue;
            List<Bytes> a = stores[0].read(key, queries).results();
            List<Bytes> b = stores[1].read(key, queries).results();
            List<Bytes> all = stores[2].read(key, queries).results();
            for (int q = 0; q < queries.size(); q++) {
                String expected = canonical(queries.get(q), all.get(q));
                Bytes ab = model.merge(queries.get(q), List.of(a.get(q), b.get(q)));
                assertThat(canonical(queries.get(q), ab)).as("seed %d query %d", seed, q).isEqualTo(expected);
                Bytes ba = model.merge(queries.get(q), List.of(b.get(q), a.get(q)));
                assertThat(ba).as("seed %d query %d, other order", seed, q).isEqualTo(ab);
                assertThat(model.merge(queries.get(q), List.of(ab, a.get(q)))).as("seed %d idempotent", seed).isEqualTo(ab);
            }
        }
    }

    @Test
    void applyingAnEntryEqualsReadingAfterTheDecreeIsWritten() {
        long seed = Long.getLong("ballot.seed", new Random().nextLong());
        Random random = new Random(seed);
        stores = new RocksPaxosStore[] {replica("r")};
        RocksPaxosStore store = stores[0];
        for (int i = 0; i < 50; i++) write(store, randomUpdate(random, 1 + random.nextInt(1000)));
        List<Bytes> states = new ArrayList<>(store.read(key, queries).results());
        AcceptorState registers = AcceptorState.EMPTY;
        long micros = 2_000;
        for (int round = 0; round < 60; round++) {
            int entries = 1 + random.nextInt(3);
            Ballot ballot = new Ballot(micros, 0, 1, 1);
            List<Bytes> decreeEntries = new ArrayList<>();
            for (int i = 0; i < entries; i++) {
                long evaluatedAt = ballot.micros() + i;
                Bytes entry = CqlValues.encodeEntry(randomUpdate(random, evaluatedAt), evaluatedAt);
                decreeEntries.add(entry);
                for (int q = 0; q < queries.size(); q++) states.set(q, model.apply(queries.get(q), states.get(q), entry, evaluatedAt));
            }
            Decree decree = new Decree(ballot, ballot, decreeEntries);
            registers = new AcceptorState(ballot, null, decree, decree.spanEndMicros(), registers.recent().with(decree));
            Durably.persist(store, key, registers, List.of(decree));
            micros = decree.spanEndMicros() + 1 + random.nextInt(5);
            List<Bytes> read = store.read(key, queries).results();
            for (int q = 0; q < queries.size(); q++) {
                assertThat(canonical(queries.get(q), states.get(q))).as("seed %d round %d query %d", seed, round, q)
                        .isEqualTo(canonical(queries.get(q), read.get(q)));
            }
        }
    }

    /**
     * A held promise answers a narrower query from a wider one's state (docs/paxos.md §4.8): what {@link
     * CqlReadModel#narrow} makes of a read of the wider query equals reading the narrower one, with and without the
     * transaction state; a query whose rows the wider one does not read is not narrowed.
     */
    @Test
    void narrowingAWiderReadEqualsReadingTheNarrowerQuery() {
        long seed = Long.getLong("ballot.seed", new Random().nextLong());
        Random random = new Random(seed);
        stores = new RocksPaxosStore[] {replica("n")};
        RocksPaxosStore store = stores[0];
        Bytes staticOnlyWithState = CqlValues.Query.of(table.id(), new ReadSpec(List.of(), false, 1, 1, NOW), true).encode();
        Bytes allWithState = CqlValues.Query.of(table.id(), ReadSpec.all(NOW), true).encode();
        List<Bytes> all = new ArrayList<>(queries);
        all.add(staticOnlyWithState);
        all.add(allWithState);
        int narrowed = 0;
        for (int i = 0; i < 200; i++) {
            write(store, randomUpdate(random, 1 + random.nextInt(1000)));
            if (i % 20 != 19) continue;
            List<Bytes> reads = store.read(key, all).results();
            for (int q = 0; q < all.size(); q++) {
                for (int w = 0; w < all.size(); w++) {
                    Bytes narrow = model.narrow(all.get(q), all.get(w), reads.get(w));
                    if (narrow == null) continue;
                    narrowed++;
                    assertThat(canonical(all.get(q), narrow)).as("seed %d query %d from %d", seed, q, w)
                            .isEqualTo(canonical(all.get(q), reads.get(q)));
                }
            }
        }
        assertThat(narrowed).isPositive();
        assertThat(model.narrow(staticOnlyWithState, allWithState, store.read(key, List.of(allWithState)).results().get(0))).isNotNull();
        assertThat(model.narrow(staticOnlyWithState, queries.get(0), store.read(key, List.of(queries.get(0))).results().get(0)))
                .as("the wider query does not read the state").isNull();
        assertThat(model.narrow(queries.get(3), queries.get(4), store.read(key, List.of(queries.get(4))).results().get(0)))
                .as("other rows").isNull();
    }

    /** Something a statement could write to the partition at {@code timestamp}. */
    private PartitionUpdate randomUpdate(Random random, long timestamp) {
        int s = table.column("s").id(), v = table.column("v").id(), m = table.column("m").id();
        DeletionTime partitionDeletion = random.nextInt(40) == 0 ? new DeletionTime(timestamp, NOW) : DeletionTime.LIVE;
        List<RangeTombstone> rts = new ArrayList<>();
        if (random.nextInt(15) == 0) {
            int from = random.nextInt(5);
            rts.add(new RangeTombstone(new Slice(new ClusteringBound(new ByteBuffer[] {CqlValuesTest.i(from + 2)}, random.nextBoolean()),
                    new ClusteringBound(new ByteBuffer[] {CqlValuesTest.i(from)}, random.nextBoolean())), new DeletionTime(timestamp, NOW)));
        }
        Row staticRow = random.nextInt(4) == 0
                ? Row.of(Clustering.STATIC, LivenessInfo.EMPTY, List.of(random.nextInt(5) == 0 ? Cell.tombstone(s, null, timestamp, NOW)
                        : Cell.live(s, null, CqlValuesTest.i(random.nextInt(100)), timestamp)))
                : null;
        List<Row> rows = new ArrayList<>();
        int n = random.nextInt(3);
        for (int r = 0; r < n; r++) {
            Clustering c = Clustering.of(CqlValuesTest.i(random.nextInt(6)));
            switch (random.nextInt(6)) {
                case 0 -> rows.add(Row.deletion(c, new DeletionTime(timestamp, NOW)));
                case 1 -> rows.add(new Row(c, LivenessInfo.EMPTY, DeletionTime.LIVE,
                        List.of(Cell.live(m, CqlValuesTest.i(random.nextInt(3)), CqlValuesTest.i(random.nextInt(9)), timestamp)),
                        List.of(new ComplexDeletion(m, new DeletionTime(timestamp - 1, NOW)))));
                case 2 -> rows.add(Row.of(c, LivenessInfo.EMPTY, List.of(Cell.tombstone(v, null, timestamp, NOW))));
                case 3 -> rows.add(Row.of(c, LivenessInfo.of(timestamp, 0, NOW),
                        List.of(Cell.expiring(v, null, CqlValuesTest.i(random.nextInt(100)), timestamp, 3600 + random.nextInt(3), NOW))));
                default -> rows.add(Row.of(c, LivenessInfo.of(timestamp, 0, NOW), List.of(Cell.live(v, null, CqlValuesTest.i(random.nextInt(100)), timestamp))));
            }
        }
        return new PartitionUpdate(table.id(), partition, partitionDeletion, rts, staticRow, rows);
    }

    /**
     * docs/txn.md §11.1: replicas' transaction states merge to the newest whatever the order, and an entry that writes
     * one replaces the state of the result it advances, at the entry's timestamp; one that does not leaves it.
     */
    @Test
    void transactionStatesMergeToTheNewestAndEntriesReplaceThem() {
        Bytes withTxn = CqlValues.Query.of(table.id(), ReadSpec.all(NOW), true).encode();
        PartitionData empty = new PartitionData(partition, DeletionTime.LIVE, List.of(), null, List.of());
        Bytes older = CqlValues.encodeResult(empty, true, new TxnCell(10, new byte[] {1}));
        Bytes newer = CqlValues.encodeResult(empty, true, new TxnCell(20, new byte[0]));
        Bytes none = CqlValues.encodeResult(empty, true, null);
        for (List<Bytes> results : List.of(List.of(older, newer, none), List.of(none, newer, older), List.of(newer, older))) {
            assertThat(CqlValues.decodeResultWithTxn(model.merge(withTxn, results)).txn()).isEqualTo(new TxnCell(20, new byte[0]));
        }
        PartitionUpdate nothing = new PartitionUpdate(table.id(), partition, DeletionTime.LIVE, List.of(), null, List.of());
        Bytes advanced = model.apply(withTxn, older, CqlValues.encodeEntry(nothing, 0, new byte[] {7}), 30);
        assertThat(CqlValues.decodeResultWithTxn(advanced).txn()).isEqualTo(new TxnCell(30, new byte[] {7}));
        Bytes untouched = model.apply(withTxn, older, CqlValues.encodeEntry(nothing, 0), 30);
        assertThat(CqlValues.decodeResultWithTxn(untouched).txn()).isEqualTo(new TxnCell(10, new byte[] {1}));
    }
}
