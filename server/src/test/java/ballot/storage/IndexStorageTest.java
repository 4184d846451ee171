package ballot.storage;

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
import ballot.cql.data.TokenRange;
import ballot.cql.index.IndexExpression;
import ballot.cql.index.IndexTerms;
import ballot.cql.schema.IndexMetadata;
import ballot.cql.schema.TableMetadata;
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

/** Index entries on a real RocksDB: written with the data, read back as candidates and checked against the rows. */
class IndexStorageTest {
    private static final int NOW = 1_700_000_000;

    @TempDir
    Path directory;
    private StorageEngine storage;
    private TableMetadata table;
    private IndexMetadata index;
    private int v;
    private final WriteId ids = new WriteId(1);

    @BeforeEach
    void open() {
        storage = StorageEngine.open(new StorageOptions(directory, false, 10_000, 8L << 20, 0));
        TableMetadata plain = SchemaDefinitions.table("ks", "CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c))", UUID.randomUUID());
        index = new IndexMetadata("t_v_idx", UUID.randomUUID(), Map.of("class_name", "sai", "target", "v"));
        table = plain.withIndexes(List.of(index));
        v = table.column("v").id();
        storage.ensureTable(table);
    }

    @AfterEach
    void close() {
        storage.close();
    }

    private void write(int k, int c, Cell cell) {
        Row row = new Row(Clustering.of(integer(c)), LivenessInfo.EMPTY, DeletionTime.LIVE, List.of(cell), List.of());
        PartitionUpdate update = new PartitionUpdate(table.id(), PartitionKey.of(integer(k)), DeletionTime.LIVE, List.of(), null, List.of(row));
        storage.apply(List.of(new Mutation(update, ids.next(cell.timestamp()))));
    }

    private static ByteBuffer integer(int i) {
        return CqlTypes.INT.decompose(i);
    }

    private IndexExpression equalTo(int value) {
        return IndexExpression.equalTo(index.name(), IndexTerms.of(table, index).term(integer(value)));
    }

    private List<String> matches(IndexExpression e, int rowLimit) {
        List<String> out = new ArrayList<>();
        ReadSpec spec = new ReadSpec(List.of(ballot.cql.data.Slice.ALL), false, rowLimit, Integer.MAX_VALUE, NOW);
        for (PartitionData p : storage.indexScan(table, e, List.of(index.name()), TokenRange.ALL, spec, Integer.MAX_VALUE)) {
            for (Row r : p.rows()) out.add(p.key().key().getInt(0) + ":" + r.clustering().get(0).getInt(0));
        }
        return out;
    }

    @Test
    void entriesPointAtRowsInTokenOrderAndStaleOnesAreDropped() {
        for (int k = 0; k < 20; k++) write(k, 1, Cell.live(v, null, integer(k % 3), 10));
        List<String> zeros = matches(equalTo(0), Integer.MAX_VALUE);
        assertThat(zeros).hasSize(7);
        List<Long> tokens = zeros.stream().map(s -> PartitionKey.of(integer(Integer.parseInt(s.split(":")[0]))).token()).toList();
        assertThat(tokens).isSorted();
        write(3, 1, Cell.live(v, null, integer(1), 20));
        write(6, 1, Cell.tombstone(v, null, 20, NOW));
        write(9, 1, Cell.expiring(v, null, integer(0), 20, 1, NOW - 5));
        assertThat(matches(equalTo(0), Integer.MAX_VALUE)).hasSize(4).doesNotContain("3:1", "6:1", "9:1");
        assertThat(matches(equalTo(1), Integer.MAX_VALUE)).contains("3:1");
        assertThat(matches(equalTo(0), 2)).hasSize(2);
    }

    @Test
    void theSweepDeletesStaleEntriesAndKeepsCurrentOnes() {
        write(1, 1, Cell.live(v, null, integer(5), 10));
        write(1, 1, Cell.live(v, null, integer(6), 20));
        write(2, 1, Cell.live(v, null, integer(5), 10));
        write(2, 1, Cell.live(v, null, integer(5), 30));
        write(3, 1, Cell.expiring(v, null, integer(7), 10, 1, NOW - 10));
        assertThat(storage.indexEntries(table.id(), index.name())).isEqualTo(5);
        storage.sweep(table.id(), NOW);
        // Row 1 keeps 6, row 2 keeps both writes of 5 (each is a current term), row 3 expired.
        assertThat(storage.indexEntries(table.id(), index.name())).isEqualTo(3);
        assertThat(matches(equalTo(5), Integer.MAX_VALUE)).containsExactly("2:1");
        assertThat(matches(equalTo(6), Integer.MAX_VALUE)).containsExactly("1:1");
    }

    @Test
    void rangesCollectEveryMatchingTerm() {
        for (int k = 0; k < 10; k++) write(k, k, Cell.live(v, null, integer(k - 5), 10));
        IndexTerms terms = IndexTerms.of(table, index);
        IndexExpression between = new IndexExpression(index.name(), terms.term(integer(-2)), true, terms.term(integer(2)), false);
        assertThat(matches(between, Integer.MAX_VALUE)).containsExactlyInAnyOrder("3:3", "4:4", "5:5", "6:6");
    }

    @Test
    void anIndexCreatedOverDataIsBuiltBeforeItAnswers() throws InterruptedException {
        for (int k = 0; k < 50; k++) write(k, 1, Cell.live(v, null, integer(k % 2), 10));
        IndexMetadata later = new IndexMetadata("later", UUID.randomUUID(), Map.of("class_name", "sai", "target", "v"));
        TableMetadata both = table.withIndexes(List.of(index, later));
        storage.ensureTable(both);
        storage.ensureTable(both.withParams(both.params()));
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!Boolean.TRUE.equals(storage.indexBuilt(table.id(), "later")) && System.nanoTime() < deadline) Thread.sleep(20);
        assertThat(storage.indexBuilt(table.id(), "later")).isTrue();
        IndexExpression ones = IndexExpression.equalTo("later", IndexTerms.of(both, later).term(integer(1)));
        ReadSpec spec = ReadSpec.all(NOW);
        assertThat(storage.indexScan(both, ones, List.of("later"), TokenRange.ALL, spec, Integer.MAX_VALUE)).hasSize(25);
    }

    @Test
    void aBuildThatEndsAfterTheTableChangedMarksTheIndexTheTableHolds() {
        IndexStore building = new IndexStore(IndexTerms.of(table, index), null, IndexStore.State.BUILDING);
        IndexStore afterAlter = building.retargeted(IndexTerms.of(table, index));
        building.built();
        assertThat(afterAlter.state()).isEqualTo(IndexStore.State.BUILT);
    }

    @Test
    void aReplicaWithoutABuiltIndexRefusesQueriesThatUseIt() {
        IndexMetadata other = new IndexMetadata("other", UUID.randomUUID(), Map.of("class_name", "sai", "target", "c"));
        for (int k = 0; k < 5; k++) write(k, 1, Cell.live(v, null, integer(1), 10));
        storage.close();
        storage = StorageEngine.open(new StorageOptions(directory, false, 10_000, 8L << 20, 0));
        storage.ensureTable(table);
        assertThat(storage.indexBuilt(table.id(), index.name())).isTrue();
        assertThatThrownBy(() -> storage.indexScan(table, equalTo(1), List.of(index.name(), other.name()), TokenRange.ALL, ReadSpec.all(NOW), 10))
                .isInstanceOf(IndexNotAvailableException.class).hasMessage("The secondary index 'other' is not yet available");
    }
}
