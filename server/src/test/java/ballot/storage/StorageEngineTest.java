package ballot.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.admission.StorageHealth;
import ballot.cql.data.Cell;
import ballot.cql.data.Clustering;
import ballot.cql.data.ClusteringBound;
import ballot.cql.data.CounterContext;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.LivenessInfo;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.RangeTombstone;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Row;
import ballot.cql.data.Slice;
import ballot.cql.data.TokenRange;
import ballot.cql.schema.TableMetadata;
import ballot.cql.schema.TableParams;
import ballot.cql.statement.SchemaDefinitions;
import ballot.cql.type.CqlTypes;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The storage engine on a real RocksDB in a temporary directory: Cassandra's merge, deletion and TTL semantics. */
class StorageEngineTest {
    private static final int NOW = 1_700_000_000;

    @TempDir
    Path directory;
    private StorageEngine storage;
    private TableMetadata table;
    private int column;
    private WriteId ids;
    private TableMetadata sets;

    @BeforeEach
    void open() {
        storage = StorageEngine.open(new StorageOptions(directory, false, 10_000, 8L << 20, 0));
        table = SchemaDefinitions.table("ks", "CREATE TABLE t (k int, c int, v text, n bigint, PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c DESC)",
                UUID.randomUUID()).withParams(TableParams.DEFAULT.with(Map.of("gc_grace_seconds", "100")));
        // n holds counter cells: storage merges by the cell's counter flag, not by the column type
        column = table.column("v").id();
        storage.ensureTable(table);
        sets = SchemaDefinitions.table("ks", "CREATE TABLE s (k int PRIMARY KEY, tokens set<int>)", UUID.randomUUID());
        storage.ensureTable(sets);
        ids = new WriteId(1);
    }

    @AfterEach
    void close() {
        storage.close();
    }

    @Test
    void higherTimestampWinsWhateverTheArrivalOrder() {
        write(row(1, 1, Cell.live(column, null, text("new"), 10)));
        write(row(1, 1, Cell.live(column, null, text("old"), 5)));
        assertThat(values(1)).containsExactly("1=new");
    }

    @Test
    void onEqualTimestampsATombstoneBeatsALiveCellAndTheGreaterValueBeatsTheSmaller() {
        write(row(1, 1, Cell.live(column, null, text("a"), 7)));
        write(row(1, 1, Cell.live(column, null, text("b"), 7)));
        assertThat(values(1)).containsExactly("1=b");
        write(row(1, 2, Cell.live(column, null, text("x"), 7)));
        write(row(1, 2, Cell.tombstone(column, null, 7, NOW)));
        assertThat(values(1)).containsExactly("1=b");
    }

    /**
     * A set element written differently at one path (the decimals 2.5 and 2.50) is stored and merged with the bytes
     * it was written as: the later write's, and on equal timestamps the greater, whatever order the writes came in,
     * so replicas agree.
     */
    @Test
    void anElementKeepsTheBytesItWasWrittenAsAndReplicasAgreeOnThem() {
        int tokens = sets.column("tokens").id();
        ByteBuffer path = integer(1);
        ByteBuffer greater = ByteBuffer.wrap(new byte[] {0, 0, 0, 0, 1});
        ByteBuffer smaller = ByteBuffer.wrap(new byte[] {0, 0, 0, 0, 0, 1});
        for (int k : new int[] {1, 2}) {
            ByteBuffer first = k == 1 ? greater : smaller;
            ByteBuffer second = k == 1 ? smaller : greater;
            for (ByteBuffer written : List.of(first, second)) {
                Row row = new Row(Clustering.EMPTY, LivenessInfo.EMPTY, DeletionTime.LIVE,
                        List.of(Cell.live(tokens, path, ByteBuffer.allocate(0), 7).writtenAs(written)), List.of());
                storage.apply(List.of(new Mutation(new PartitionUpdate(sets.id(), key(k), DeletionTime.LIVE, List.of(), null, List.of(row)), ids.next(7))));
            }
            Cell merged = storage.read(sets, key(k), ReadSpec.all(NOW)).rows().get(0).cells().get(0);
            assertThat(merged.path()).isEqualTo(path);
            assertThat(merged.pathAsWritten()).as("either arrival order").isEqualTo(greater);
        }
        Row later = new Row(Clustering.EMPTY, LivenessInfo.EMPTY, DeletionTime.LIVE,
                List.of(Cell.live(tokens, path, ByteBuffer.allocate(0), 8).writtenAs(path)), List.of());
        storage.apply(List.of(new Mutation(new PartitionUpdate(sets.id(), key(1), DeletionTime.LIVE, List.of(), null, List.of(later)), ids.next(8))));
        Cell merged = storage.read(sets, key(1), ReadSpec.all(NOW)).rows().get(0).cells().get(0);
        assertThat(merged.writtenPath()).as("written as its path: nothing kept").isNull();
        assertThat(merged.pathAsWritten()).isEqualTo(path);
    }

    /** RocksDB's slowdown signals are read from it (level 0 files is a string property), not defaulted. */
    @Test
    void healthReadsRocksDbsSlowdownSignals() throws Exception {
        StorageHealth health = storage.readHealth();
        assertThat(health.l0Files()).isZero();
        assertThat(health.l0SlowdownTrigger()).isEqualTo(20);
        assertThat(health.pendingCompactionBytes()).isZero();
        assertThat(health.pendingCompactionSoftLimit()).isEqualTo(64L << 30);
        assertThat(health.writesDelayed()).isFalse();
        assertThat(health.overloaded()).isFalse();
    }

    @Test
    void rowDeletionShadowsOlderDataOnly() {
        write(row(1, 1, Cell.live(column, null, text("before"), 10)));
        write(update(1, List.of(), List.of(Row.deletion(clustering(1), new DeletionTime(10, NOW)))));
        assertThat(values(1)).isEmpty();
        write(row(1, 1, Cell.live(column, null, text("after"), 11)));
        assertThat(values(1)).containsExactly("1=after");
    }

    @Test
    void rangeTombstoneDeletesOnlyItsSliceAndPartitionDeletionEverything() {
        for (int c = 1; c <= 5; c++) write(row(1, c, Cell.live(column, null, text("v" + c), 10)));
        Slice middle = new Slice(new ClusteringBound(new ByteBuffer[] {integer(4)}, true), new ClusteringBound(new ByteBuffer[] {integer(2)}, false));
        write(new PartitionUpdate(table.id(), key(1), DeletionTime.LIVE, List.of(new RangeTombstone(middle, new DeletionTime(20, NOW))), null, List.of()));
        assertThat(values(1)).containsExactly("5=v5", "2=v2", "1=v1");
        write(new PartitionUpdate(table.id(), key(1), new DeletionTime(30, NOW), List.of(), null, List.of()));
        assertThat(values(1)).isEmpty();
    }

    @Test
    void expiredCellsAreNotLive() {
        write(row(1, 1, Cell.expiring(column, null, text("brief"), 10, 60, NOW)));
        assertThat(read(1, ReadSpec.all(NOW + 59)).rows().get(0).hasLiveData(NOW + 59)).isTrue();
        assertThat(read(1, ReadSpec.all(NOW + 60)).rows().get(0).hasLiveData(NOW + 60)).isFalse();
    }

    @Test
    void rowsComeInClusteringOrderAndSlicesAndReversedReadsFollowIt() {
        for (int c : new int[] {3, 1, 5, 2, 4}) write(row(1, c, Cell.live(column, null, text("v" + c), 10)));
        assertThat(values(1)).containsExactly("5=v5", "4=v4", "3=v3", "2=v2", "1=v1");
        Slice from4to2 = new Slice(new ClusteringBound(new ByteBuffer[] {integer(4)}, true), new ClusteringBound(new ByteBuffer[] {integer(2)}, true));
        assertThat(values(read(1, new ReadSpec(List.of(from4to2), false, 10, 10, NOW)))).containsExactly("4=v4", "3=v3", "2=v2");
        assertThat(values(read(1, new ReadSpec(List.of(from4to2), true, 2, 10, NOW)))).containsExactly("2=v2", "3=v3");
    }

    /**
     * Reads, scans and sweeps racing a DROP TABLE get the table's data or an error, never a JVM crash: the dropped
     * column family's handle is closed only once no reader still uses it (a read on a closed handle dereferences
     * freed native memory). The sweeps write merged rows while the family may be dropped under them: RocksDB must skip
     * those writes, not take them for a background error that stops every later write (checked after each round).
     */
    @Test
    void readsRacingADropGetDataOrAnErrorNeverAClosedHandle() throws Exception {
        for (int round = 0; round < 30; round++) {
            TableMetadata dropped = SchemaDefinitions.table("ks", "CREATE TABLE d" + round + " (k int, c int, v text, PRIMARY KEY (k, c))",
                    UUID.randomUUID());
            storage.ensureTable(dropped);
            int v = dropped.column("v").id();
            for (int fragment = 1; fragment <= 3; fragment++) { // three fragments per row: every sweep writes a merge
                for (int k = 0; k < 50; k++)
                    storage.apply(List.of(new Mutation(new PartitionUpdate(dropped.id(), key(k), DeletionTime.LIVE, List.of(), null,
                            List.of(new Row(clustering(1), LivenessInfo.EMPTY, DeletionTime.LIVE, List.of(Cell.live(v, null, text("x" + fragment), fragment)),
                                    List.of()))), ids.next(1))));
            }
            java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(3);
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicLong served = new java.util.concurrent.atomic.AtomicLong();
            List<Thread> readers = new ArrayList<>();
            List<Throwable> unexpected = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int r = 0; r < 3; r++) {
                int kind = r;
                Thread t = new Thread(() -> {
                    started.countDown();
                    for (int i = 0; !stop.get() && i < 1_000_000; i++) {
                        try {
                            switch (kind) {
                                case 0 -> storage.read(dropped, key(i % 50), ReadSpec.all(NOW));
                                case 1 -> storage.scan(dropped, TokenRange.ALL, ReadSpec.all(NOW), 10);
                                default -> storage.sweep(dropped.id(), NOW);
                            }
                            served.incrementAndGet();
                        } catch (IllegalStateException gone) {
                            if (!String.valueOf(gone.getMessage()).contains("dropped")) unexpected.add(gone);
                        } catch (Throwable t2) {
                            unexpected.add(t2);
                        }
                    }
                });
                readers.add(t);
                t.start();
            }
            started.await();
            Thread.sleep(2);
            storage.dropTable(dropped.id());
            Thread.sleep(5);
            stop.set(true);
            for (Thread t : readers) t.join(10_000);
            assertThat(unexpected).isEmpty();
            assertThat(served.get()).isPositive();
            write(row(1, 1, Cell.live(column, null, text("round " + round), 100 + round)));
            assertThat(values(1)).as("a write after the drop").containsExactly("1=round " + round);
        }
    }

    /** A late writer (a background task the node did not stop) gets an error, not a JVM crash on closed handles. */
    @Test
    void aWriteAfterCloseIsRefused() {
        Mutation late = new Mutation(row(1, 1, Cell.live(column, null, text("late"), 1)), ids.next(1));
        storage.close();
        try {
            assertThatThrownBy(() -> storage.apply(List.of(late))).isInstanceOf(IllegalStateException.class).hasMessageContaining("storage is closed");
        } finally {
            storage = StorageEngine.open(new StorageOptions(directory, false, 10_000, 8L << 20, 0));
        }
    }

    /** The same for an acceptor step that lands while the node stops (a Paxos lane still draining). */
    @Test
    void aPaxosWriteAfterCloseIsRefused() {
        StorageEngine.PaxosWrite late = new StorageEngine.PaxosWrite(table.id(), key(1), new byte[] {1}, List.of());
        storage.close();
        try {
            assertThatThrownBy(() -> storage.persistPaxos(List.of(late), true)).isInstanceOf(IllegalStateException.class).hasMessageContaining("storage is closed");
        } finally {
            storage = StorageEngine.open(new StorageOptions(directory, false, 10_000, 8L << 20, 0));
        }
    }

    @Test
    void counterShardsMergeByClockSoReplaysAndOldVersionsCountOnce() {
        int n = table.column("n").id();
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        Mutation first = new Mutation(row(1, 1, Cell.counter(n, CounterContext.shard(a, 1, 5), 10)), ids.next(10));
        storage.apply(List.of(first));
        storage.apply(List.of(first));
        write(row(1, 1, Cell.counter(n, CounterContext.shard(a, 2, 3), 11)));
        write(row(1, 1, Cell.counter(n, CounterContext.shard(b, 1, 10), 12)));
        Row row = read(1, ReadSpec.all(NOW)).rows().get(0);
        assertThat(row.cells()).hasSize(1);
        assertThat(row.cells().get(0).counterValue()).isEqualTo(13);
    }

    /** A counter cell's tombstone wins over its increments, even newer ones, as in Cassandra 5.0.9 (checked). */
    @Test
    void aDeletedCounterStaysDeletedThroughLaterIncrements() {
        int n = table.column("n").id();
        UUID host = UUID.randomUUID();
        write(row(1, 1, Cell.counter(n, CounterContext.shard(host, 1, 5), 10)));
        write(row(1, 1, Cell.tombstone(n, null, 11, NOW)));
        write(row(1, 1, Cell.counter(n, CounterContext.shard(host, 2, 7), 12)));
        write(row(1, 2, Cell.tombstone(n, null, 11, NOW)));
        write(row(1, 2, Cell.counter(n, CounterContext.shard(host, 1, 2), 12)));
        for (Row row : read(1, ReadSpec.all(NOW)).rows()) {
            assertThat(row.cells()).as("row " + row.clustering()).noneMatch(c -> c.column() == n && !c.isTombstone());
        }
        // ... until a row deletion shadows the tombstone: then a newer increment shows
        write(row(2, 1, Cell.counter(n, CounterContext.shard(host, 1, 5), 10)));
        write(row(2, 1, Cell.tombstone(n, null, 11, NOW)));
        write(update(2, List.of(), List.of(Row.deletion(clustering(1), new DeletionTime(13, NOW)))));
        write(row(2, 1, Cell.counter(n, CounterContext.shard(host, 2, 9), 14)));
        assertThat(read(2, ReadSpec.all(NOW)).rows().get(0).cells().get(0).counterValue()).isEqualTo(9);
    }

    /**
     * A row or partition deletion shadows each counter shard by its own timestamp before shards merge: a shard written
     * after the deletion counts alone, whichever node wrote it and whether or not a sweep has dropped the deleted one.
     */
    @Test
    void aDeletionShadowsEachCounterShardBeforeTheyMerge() {
        int n = table.column("n").id();
        UUID host = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        write(row(1, 1, Cell.counter(n, CounterContext.shard(host, 1, 5), 10)));
        write(update(1, List.of(), List.of(Row.deletion(clustering(1), new DeletionTime(11, NOW)))));
        write(row(1, 1, Cell.counter(n, CounterContext.shard(host, 1, 2), 12)));
        write(row(2, 1, Cell.counter(n, CounterContext.shard(host, 3, 5), 10)));
        write(new PartitionUpdate(table.id(), key(2), new DeletionTime(11, NOW), List.of(), null, List.of()));
        write(row(2, 1, Cell.counter(n, CounterContext.shard(other, 1, 2), 12)));
        for (int k = 1; k <= 2; k++) {
            assertThat(read(k, ReadSpec.all(NOW)).rows().get(0).cells().get(0).counterValue()).as("partition " + k).isEqualTo(2);
        }
        storage.sweep(table.id(), NOW);
        for (int k = 1; k <= 2; k++) {
            assertThat(read(k, ReadSpec.all(NOW)).rows().get(0).cells().get(0).counterValue()).as("partition %d, swept", k).isEqualTo(2);
        }
    }

    @Test
    void sweepMergesFragmentsAndKeepsTheSameAnswers() {
        int n = table.column("n").id();
        UUID host = UUID.randomUUID();
        for (int i = 0; i < 20; i++) {
            write(row(1, 1, Cell.live(column, null, text("v" + i), 10 + i)));
            write(row(1, 1, Cell.counter(n, CounterContext.shard(host, i + 1, i + 1), 10 + i)));
        }
        assertThat(storage.sweep(table.id(), NOW)).isEqualTo(40);
        assertThat(storage.sweep(table.id(), NOW)).as("one fragment left").isEqualTo(1);
        Row row = read(1, ReadSpec.all(NOW)).rows().get(0);
        assertThat(CqlTypes.TEXT.compose(row.cells().get(0).value())).isEqualTo("v19");
        assertThat(row.cells().get(1).counterValue()).isEqualTo(20);
    }

    @Test
    void rowsWrittenOftenAreSweptOneRowAtATime() {
        for (int c = 0; c < 10; c++) write(row(1, c, Cell.live(column, null, text("other" + c), 10)));
        for (int i = 0; i < 16; i++) write(row(1, 42, Cell.live(column, null, text("v" + i), 10 + i)));
        storage.sweepRequested();
        assertThat(storage.sweep(table.id(), NOW)).as("16 fragments of row 42 merged into one, the 10 other rows untouched").isEqualTo(11);
        assertThat(values(read(1, new ReadSpec(List.of(Slice.of(integer(42))), false, 10, 10, NOW)))).containsExactly("42=v15");
    }

    /**
     * A clustering written in several forms (the decimal 2.50, stored at 2.5's key, and 2.5 itself) reads back in the
     * greatest of them by bytes whatever order the writes came in, read forwards or backwards, and after a sweep merged
     * the fragments: replicas and read repairs agree on it.
     */
    @Test
    void aClusteringWrittenInSeveralFormsReadsBackInTheGreatestWhateverTheOrder() {
        TableMetadata decimals = SchemaDefinitions.table("ks", "CREATE TABLE d (k int, c decimal, v text, PRIMARY KEY (k, c))", UUID.randomUUID());
        storage.ensureTable(decimals);
        int v = decimals.column("v").id();
        ByteBuffer written = CqlTypes.DECIMAL.fromString("2.50");
        ByteBuffer canonical = CqlTypes.DECIMAL.fromString("2.5");
        ReadSpec backwards = new ReadSpec(ReadSpec.all(NOW).slices(), true, 10, 10, NOW);
        for (int k : new int[] {1, 2}) {
            for (ByteBuffer c : k == 1 ? List.of(written, canonical, canonical) : List.of(canonical, canonical, written)) {
                Row row = new Row(Clustering.of(c), LivenessInfo.EMPTY, DeletionTime.LIVE, List.of(Cell.live(v, null, text("x"), 10)), List.of());
                storage.apply(List.of(new Mutation(new PartitionUpdate(decimals.id(), key(k), DeletionTime.LIVE, List.of(), null, List.of(row)), ids.next(10))));
            }
            for (ReadSpec spec : List.of(ReadSpec.all(NOW), backwards)) {
                assertThat(storage.read(decimals, key(k), spec).rows().get(0).clustering().values())
                        .as("partition %d, reversed: %s", k, spec.reversed()).containsExactly(written);
            }
        }
        assertThat(storage.sweep(decimals.id(), NOW)).isEqualTo(6);
        assertThat(storage.sweep(decimals.id(), NOW)).as("each row merged into one fragment").isEqualTo(2);
        for (int k : new int[] {1, 2})
            assertThat(storage.read(decimals, key(k), backwards).rows().get(0).clustering().values()).as("swept").containsExactly(written);
    }

    @Test
    void aReadOfAFragmentedRowWritesItBackMerged() {
        for (int i = 0; i < 5; i++) write(row(1, 7, Cell.live(column, null, text("v" + i), 10 + i)));
        assertThat(values(1)).containsExactly("7=v4");
        storage.sweepRequested();
        assertThat(storage.sweep(table.id(), NOW)).as("one fragment left after the write-back").isEqualTo(1);
        assertThat(values(1)).containsExactly("7=v4");
    }

    /**
     * A write applied again (a hint or retry of a write the replica already has; for Paxos, a decree committed again)
     * rewrites its own key. A sweep that stored a row's merge under that key would lose every other fragment then.
     */
    @Test
    void aWriteAppliedAgainAfterASweepKeepsWhatTheSweepMerged() {
        List<Mutation> adds = addElements(5);
        for (Mutation add : adds) storage.apply(List.of(add));
        storage.sweep(sets.id(), NOW);
        storage.apply(List.of(adds.get(4)));
        assertThat(elements()).as("every element after the newest write is applied again").containsExactly(0, 1, 2, 3, 4);
        storage.apply(List.of(adds.get(2)));
        assertThat(elements()).as("and after an older one").containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void aWriteAppliedAgainAfterAReadWroteItsRowBackKeepsTheMerge() {
        List<Mutation> adds = addElements(5);
        for (Mutation add : adds) storage.apply(List.of(add));
        assertThat(elements()).containsExactly(0, 1, 2, 3, 4);
        storage.sweepRequested(); // the read's write-back
        storage.apply(List.of(adds.get(4)));
        assertThat(elements()).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void aPartitionDeletionAppliedAgainAfterASweepDoesNotWeakenTheStrongerOne() {
        write(new PartitionUpdate(table.id(), key(1), new DeletionTime(50, NOW), List.of(), null, List.of()));
        Mutation weaker = new Mutation(new PartitionUpdate(table.id(), key(1), new DeletionTime(20, NOW), List.of(), null, List.of()), ids.next(1));
        storage.apply(List.of(weaker));
        storage.sweep(table.id(), NOW);
        storage.apply(List.of(weaker));
        write(row(1, 1, Cell.live(column, null, text("late"), 30)));
        assertThat(values(1)).as("the deletion at 50 shadows a cell at 30 that arrives late").isEmpty();
    }

    @Test
    void sweepDropsDeletionsAndWhatTheyShadowOnceGcGraceHasPassed() {
        write(row(1, 1, Cell.live(column, null, text("gone"), 10)));
        write(new PartitionUpdate(table.id(), key(1), new DeletionTime(20, NOW), List.of(), null, List.of()));
        storage.sweep(table.id(), NOW + 50);
        assertThat(storage.sweep(table.id(), NOW + 50)).as("deletion kept within gc_grace").isEqualTo(1);
        storage.sweep(table.id(), NOW + 101);
        assertThat(storage.sweep(table.id(), NOW + 101)).as("nothing left after gc_grace").isZero();
    }

    @Test
    void scanReturnsPartitionsInTokenOrderAndResumesAfterAKey() {
        for (int k = 0; k < 20; k++) write(row(k, 1, Cell.live(column, null, text("v"), 10)));
        List<PartitionData> all = storage.scan(table, TokenRange.ALL, ReadSpec.all(NOW), 100);
        assertThat(all).hasSize(20);
        for (int i = 1; i < all.size(); i++) assertThat(all.get(i).key().token()).isGreaterThan(all.get(i - 1).key().token());
        List<PartitionData> rest = storage.scan(table, TokenRange.ALL.resumeAfter(all.get(9).key()), ReadSpec.all(NOW), 100);
        assertThat(rest).hasSize(10);
        assertThat(rest.get(0).key()).isEqualTo(all.get(10).key());
    }

    @Test
    void dataSurvivesReopening() {
        write(row(7, 1, Cell.live(column, null, text("kept"), 10)));
        storage.close();
        storage = StorageEngine.open(new StorageOptions(directory, false, 10_000, 8L << 20, 0));
        storage.ensureTable(table);
        assertThat(values(7)).containsExactly("1=kept");
    }

    /** A snapshot holds the data of the instant it was taken, opens as a database of its own, and clears. */
    @Test
    void aSnapshotKeepsTheDataOfItsInstant(@TempDir Path snapshotsDirectory) {
        write(row(1, 1, Cell.live(column, null, text("before"), 10)));
        Snapshots snapshots = new Snapshots(snapshotsDirectory, storage);
        Snapshots.Snapshot taken = snapshots.take("nightly-1.0");
        write(row(1, 1, Cell.live(column, null, text("after"), 11)));
        write(row(2, 1, Cell.live(column, null, text("new"), 11)));
        assertThat(taken.sizeBytes()).isPositive();
        assertThatThrownBy(() -> snapshots.take("nightly-1.0")).hasMessage("Snapshot nightly-1.0 already exists.");
        for (String bad : List.of("", "../up", ".hidden", "a/b", "-rf"))
            assertThatThrownBy(() -> snapshots.take(bad)).as(bad).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("invalid snapshot name");
        assertThat(snapshots.list()).extracting(Snapshots.Snapshot::tag).containsExactly("nightly-1.0");

        storage.close();
        storage = StorageEngine.open(new StorageOptions(snapshotsDirectory.resolve("nightly-1.0"), false, 10_000, 8L << 20, 0));
        storage.ensureTable(table);
        assertThat(values(1)).containsExactly("1=before");
        assertThat(values(2)).isEmpty();
        storage.close();

        storage = StorageEngine.open(new StorageOptions(directory, false, 10_000, 8L << 20, 0));
        storage.ensureTable(table);
        assertThat(values(1)).containsExactly("1=after");
        Snapshots reopened = new Snapshots(snapshotsDirectory, storage);
        assertThatThrownBy(() -> reopened.clear("nope")).hasMessage("no snapshot named 'nope'");
        assertThat(reopened.clear(null)).containsExactly("nightly-1.0");
        assertThat(reopened.list()).isEmpty();
    }

    /** A running compaction is reported with its table, kind and byte progress (system_views.sstable_tasks), then gone. */
    @Test
    void aRunningCompactionIsATaskOfItsTable() throws Exception {
        java.util.Random random = new java.util.Random(7);
        byte[] value = new byte[2000];
        for (int file = 0; file < 3; file++) {
            for (int k = 0; k < 4000; k++) {
                random.nextBytes(value);
                write(row(k, file, Cell.live(column, null, ByteBuffer.wrap(value.clone()), 10)));
            }
            storage.flush(table.id());
        }
        Thread compaction = new Thread(() -> storage.compact(table.id()));
        compaction.start();
        // Until RocksDB has sized the compaction's input its task shows a total of 0 (a loaded machine can see that
        // first): sample until the total is known.
        List<StorageTask> seen = List.of();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while ((seen.isEmpty() || seen.get(0).total() == 0) && compaction.isAlive() && System.nanoTime() < deadline) {
            List<StorageTask> now = storage.tasks().stream().filter(t -> table.id().equals(t.table())).toList();
            if (!now.isEmpty()) seen = now;
        }
        compaction.join();
        assertThat(seen).as("the compaction was seen while it ran").isNotEmpty();
        StorageTask task = seen.get(0);
        assertThat(task.kind()).isEqualTo("compaction");
        assertThat(task.systemTable()).isNull();
        assertThat(task.total()).isGreaterThan(3L << 20);
        assertThat(task.progress()).isBetween(0L, task.total());
        assertThat(task.id().version()).isEqualTo(1);
        assertThat(storage.tasks()).noneMatch(t -> table.id().equals(t.table()));
    }

    /** {@code n} writes adding one element each (0, 1, ...) to the set of row k=1 of {@code sets}, at increasing timestamps. */
    private List<Mutation> addElements(int n) {
        int tokens = sets.column("tokens").id();
        List<Mutation> adds = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Row row = new Row(Clustering.EMPTY, LivenessInfo.EMPTY, DeletionTime.LIVE,
                    List.of(Cell.live(tokens, integer(i), ByteBuffer.allocate(0), 10 + i)), List.of());
            adds.add(new Mutation(new PartitionUpdate(sets.id(), key(1), DeletionTime.LIVE, List.of(), null, List.of(row)), ids.next(10 + i)));
        }
        return adds;
    }

    private List<Integer> elements() {
        List<Integer> out = new ArrayList<>();
        for (Row row : storage.read(sets, key(1), ReadSpec.all(NOW)).rows())
            for (Cell cell : row.cells()) if (cell.isLive(NOW)) out.add(cell.path().getInt(0));
        return out;
    }

    @Test
    void paxosLookupsFindWhatIsInMemoryOnDiskOrDeletedAndNothingForAbsentKeys() {
        byte[] registers = {1, 2, 3};
        byte[] txnState = {0, 0, 0, 0, 0, 0, 0, 9, 4};
        storage.persistPaxos(List.of(new StorageEngine.PaxosWrite(table.id(), key(1), registers, List.of(), txnState)), true);
        write(row(1, 1, Cell.live(column, null, text("plain"), 5)));
        long version = storage.plainVersion(table.id(), key(1));
        assertThat(version).isPositive();
        assertThat(storage.paxosState(table.id(), key(1))).containsExactly(registers); // in the memtable
        assertThat(storage.paxosState(table.id(), key(2))).isNull();
        assertThat(storage.plainVersion(table.id(), key(2))).isZero();

        // on disk, with an empty block cache: a lookup that memory cannot settle reads the file
        storage.flushAll();
        storage.close();
        storage = StorageEngine.open(new StorageOptions(directory, false, 10_000, 8L << 20, 0));
        storage.ensureTable(table);
        assertThat(storage.paxosState(table.id(), key(1))).containsExactly(registers);
        assertThat(storage.txnState(table.id(), key(1))).containsExactly(txnState);
        assertThat(storage.plainVersion(table.id(), key(1))).isEqualTo(version);
        StorageEngine.VersionedRead read = storage.readVersioned(table, key(1), List.of(), true); // under a snapshot
        assertThat(read.txnState()).containsExactly(txnState);
        assertThat(read.plainVersion()).isEqualTo(version);
        assertThat(storage.paxosState(table.id(), key(2))).isNull();
        assertThat(storage.txnState(table.id(), key(2))).isNull();

        // deleted in the memtable over the value on disk
        storage.persistPaxos(List.of(new StorageEngine.PaxosWrite(table.id(), key(1), null, List.of())), true);
        assertThat(storage.paxosState(table.id(), key(1))).isNull();
    }

    /**
     * docs/txn.md §10: plain reads of a table whose partitions hold transaction states find the states, read no later
     * than the rows; the tables known to hold states, and the partitions held by an intent, are found again when the
     * node starts and tracks intents; other tables cost nothing.
     */
    @Test
    void plainReadsOfATableWithTransactionStatesReadThem() {
        byte[] txnState = {0, 0, 0, 0, 0, 0, 0, 9, 4};
        assertThat(storage.holdsTxnStates(table.id())).isFalse();
        storage.persistPaxos(List.of(new StorageEngine.PaxosWrite(table.id(), key(1), null, List.of(), txnState)), true);
        // A transaction's insert into a new partition: an intent, no rows.
        storage.persistPaxos(List.of(new StorageEngine.PaxosWrite(table.id(), key(3), null, List.of(), txnState)), true);
        write(row(1, 1, Cell.live(column, null, text("held"), 5)));
        write(row(2, 1, Cell.live(column, null, text("free"), 5)));
        assertThat(storage.holdsTxnStates(table.id())).isTrue();
        assertThat(storage.holdsTxnStates(sets.id())).isFalse();

        storage.close();
        storage = StorageEngine.open(new StorageOptions(directory, false, 10_000, 8L << 20, 0));
        storage.ensureTable(table);
        storage.ensureTable(sets);
        // Here a stored state holds an intent when its first byte after the timestamp is 4.
        storage.trackTxnStates(stored -> stored.length > 8 && stored[8] == 4, stored -> false);
        assertThat(storage.holdsTxnStates(table.id())).as("found again at start").isTrue();
        assertThat(storage.holdsTxnStates(sets.id())).isFalse();
        StorageEngine.ReadWithTxnState read = storage.readWithTxnState(table, key(1), ReadSpec.all(NOW));
        assertThat(read.txnState()).containsExactly(txnState);
        assertThat(read.data().rows()).hasSize(1);
        assertThat(storage.readWithTxnState(table, key(2), ReadSpec.all(NOW)).txnState()).isNull();
        Map<PartitionKey, byte[]> states = new java.util.HashMap<>();
        assertThat(storage.scanWithTxnStates(table, ballot.cql.data.TokenRange.ALL, ReadSpec.all(NOW), 10, 0, states)).hasSize(2);
        assertThat(states).as("key 3 has no rows, but its intent was found at start").containsOnlyKeys(key(1), key(3));
        assertThat(states.get(key(1))).containsExactly(txnState);

        // Intents placed after the start are followed too, and a partition resolved is no longer reported.
        storage.persistPaxos(List.of(new StorageEngine.PaxosWrite(table.id(), key(4), null, List.of(), txnState)), true);
        storage.persistPaxos(List.of(new StorageEngine.PaxosWrite(table.id(), key(3), null, List.of(), new byte[] {0, 0, 0, 0, 0, 0, 0, 10, 5})), true);
        states.clear();
        assertThat(storage.scanWithTxnStates(table, ballot.cql.data.TokenRange.ALL, ReadSpec.all(NOW), 10, 0, states)).hasSize(2);
        assertThat(states).as("key 3, resolved, has no rows").containsOnlyKeys(key(1), key(4));
        // What an index query's replica reports: the partitions of a range held by an intent now, not those resolved.
        assertThat(storage.heldByIntents(table, ballot.cql.data.TokenRange.ALL)).containsExactlyInAnyOrder(key(1), key(4));
        PartitionKey last = java.util.stream.Stream.of(key(1), key(4)).max(PartitionKey::compareTo).orElseThrow();
        PartitionKey first = java.util.stream.Stream.of(key(1), key(4)).min(PartitionKey::compareTo).orElseThrow();
        assertThat(storage.heldByIntents(table, new ballot.cql.data.TokenRange(last.token(), null, Long.MAX_VALUE)))
                .as("a range that starts at the later one's token").containsExactly(last);
        assertThat(storage.heldByIntents(table, new ballot.cql.data.TokenRange(first.token(), first, Long.MAX_VALUE)))
                .as("resuming after the first").containsExactly(last);

        storage.dropTable(table.id());
        assertThat(storage.holdsTxnStates(table.id())).as("dropped with its table").isFalse();
    }

    /**
     * The transaction sweep reads only the states that may need it (docs/txn.md §11.1): found at start, then followed
     * through writes; a state emptied to its tombstone (a timestamp alone) leaves, and tombstones are never read.
     */
    @Test
    void theStatesAwaitingTheSweepAreFollowedNotScanned() {
        byte[] intent = {0, 0, 0, 0, 0, 0, 0, 9, 4};
        byte[] records = {0, 0, 0, 0, 0, 0, 0, 9, 5};
        byte[] markers = {0, 0, 0, 0, 0, 0, 0, 9, 6};
        byte[] tombstone = {0, 0, 0, 0, 0, 0, 0, 10};
        storage.persistPaxos(List.of(new StorageEngine.PaxosWrite(table.id(), key(1), null, List.of(), intent),
                new StorageEngine.PaxosWrite(table.id(), key(2), null, List.of(), records),
                new StorageEngine.PaxosWrite(table.id(), key(3), null, List.of(), markers),
                new StorageEngine.PaxosWrite(table.id(), key(4), null, List.of(), tombstone)), true);
        assertThat(storage.txnStatesAwaitingSweep()).as("nothing is followed before the node says how to tell").isEmpty();

        storage.close();
        storage = StorageEngine.open(new StorageOptions(directory, false, 10_000, 8L << 20, 0));
        storage.ensureTable(table);
        // Here a stored state may need the sweep when its first byte after the timestamp is 4 (an intent) or 5 (records).
        storage.trackTxnStates(stored -> stored.length > 8 && stored[8] == 4, stored -> stored.length > 8 && (stored[8] == 4 || stored[8] == 5));
        assertThat(awaitingSweep()).as("found at start").containsOnlyKeys(key(1), key(2));
        assertThat(storage.partitionsAwaitingSweep()).as("neither the markers nor the tombstone is followed").isEqualTo(2);
        assertThat(awaitingSweep().get(key(2))).containsExactly(records);

        storage.persistPaxos(List.of(new StorageEngine.PaxosWrite(table.id(), key(3), null, List.of(), records),
                new StorageEngine.PaxosWrite(table.id(), key(1), null, List.of(), tombstone)), true);
        assertThat(awaitingSweep()).as("a new record is followed, an emptied state is not").containsOnlyKeys(key(2), key(3));
        assertThat(storage.partitionsAwaitingSweep()).isEqualTo(2);
        storage.persistPaxos(List.of(new StorageEngine.PaxosWrite(table.id(), key(2), null, List.of(), markers)), true);
        assertThat(awaitingSweep()).containsOnlyKeys(key(3));
        assertThat(storage.partitionsAwaitingSweep()).isEqualTo(1);

        storage.dropTable(table.id());
        assertThat(storage.txnStatesAwaitingSweep()).as("dropped with its table").isEmpty();
        assertThat(storage.partitionsAwaitingSweep()).isZero();
    }

    private Map<PartitionKey, byte[]> awaitingSweep() {
        Map<PartitionKey, byte[]> states = new java.util.HashMap<>();
        for (StorageEngine.PaxosState state : storage.txnStatesAwaitingSweep()) {
            assertThat(state.tableId()).isEqualTo(table.id());
            states.put(state.key(), state.state());
        }
        return states;
    }

    private void write(PartitionUpdate update) {
        storage.apply(List.of(new Mutation(update, ids.next(1))));
    }

    private PartitionUpdate row(int k, int c, Cell cell) {
        return update(k, List.of(), List.of(new Row(clustering(c), LivenessInfo.EMPTY, DeletionTime.LIVE, List.of(cell), List.of())));
    }

    private PartitionUpdate update(int k, List<RangeTombstone> rangeTombstones, List<Row> rows) {
        return new PartitionUpdate(table.id(), key(k), DeletionTime.LIVE, rangeTombstones, null, rows);
    }

    private PartitionData read(int k, ReadSpec spec) {
        return storage.read(table, key(k), spec);
    }

    private List<String> values(int k) {
        return values(read(k, ReadSpec.all(NOW)));
    }

    private List<String> values(PartitionData data) {
        List<String> out = new ArrayList<>();
        for (Row row : data.rows()) {
            if (!row.hasLiveData(NOW)) continue;
            int c = row.clustering().get(0).getInt(0);
            for (Cell cell : row.cells()) if (cell.column() == column && cell.isLive(NOW)) out.add(c + "=" + CqlTypes.TEXT.compose(cell.value()));
        }
        return out;
    }

    private static PartitionKey key(int k) {
        return PartitionKey.of(integer(k));
    }

    private static Clustering clustering(int c) {
        return Clustering.of(integer(c));
    }

    private static ByteBuffer integer(int v) {
        return ByteBuffer.allocate(4).putInt(0, v);
    }

    private static ByteBuffer text(String s) {
        return CqlTypes.TEXT.decompose(s);
    }
}
