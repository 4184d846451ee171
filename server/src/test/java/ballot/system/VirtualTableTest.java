package ballot.system;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Slice;
import ballot.cql.data.TokenRange;
import ballot.cql.schema.TableMetadata;
import ballot.cql.statement.SchemaDefinitions;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Scans of a virtual table over a source that returns only the partitions asked for, as system.paxos's does. */
class VirtualTableTest {
    private final TableMetadata metadata = SchemaDefinitions.table("system", "CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c))",
            UUID.randomUUID());

    /** Partitions k = 0..19, with one row each: c = k % 2. */
    private final List<Map<String, Object>> all = new ArrayList<>();
    private final List<Integer> asked = new ArrayList<>();

    {
        for (int k = 0; k < 20; k++) all.add(Map.of("k", k, "c", k % 2, "v", k));
    }

    /** Exactly the first {@code partitionsMax} partitions of the range, in token order: no extra rows. */
    private final VirtualTable.Source exact = new VirtualTable.Source() {
        @Override
        public List<Map<String, Object>> partition(PartitionKey key) {
            return all.stream().filter(r -> key(r).equals(key)).toList();
        }

        @Override
        public List<Map<String, Object>> partitions(TokenRange range, int partitionsMax) {
            asked.add(partitionsMax);
            return all.stream().filter(r -> range.contains(key(r))).sorted((x, y) -> key(x).compareTo(key(y))).limit(partitionsMax).toList();
        }
    };

    private static PartitionKey key(Map<String, Object> row) {
        return PartitionKey.of(ByteBuffer.allocate(4).putInt(0, (Integer) row.get("k")));
    }

    private static ByteBuffer i(int v) {
        return ByteBuffer.allocate(4).putInt(0, v);
    }

    @Test
    void asksAgainWhenSlicingLeftTooFewPartitions() {
        ReadSpec onlyC1 = ReadSpec.all(0).withSlices(List.of(Slice.of(i(1))));
        List<PartitionData> page = new VirtualTable(metadata, exact).scan(TokenRange.ALL, onlyC1, 4);
        assertThat(page).as("four partitions with a row at c = 1, though each answer of the source had only half").hasSize(4);
        assertThat(asked.size()).isGreaterThan(1);

        List<PartitionData> whole = new VirtualTable(metadata, VirtualTable.Source.of(() -> all)).scan(TokenRange.ALL, onlyC1, 4);
        assertThat(page).extracting(PartitionData::key).isEqualTo(whole.stream().map(PartitionData::key).toList());
    }

    @Test
    void pagesResumeAfterTheLastPartitionAndEnd() {
        VirtualTable table = new VirtualTable(metadata, exact);
        List<PartitionKey> seen = new ArrayList<>();
        TokenRange range = TokenRange.ALL;
        for (List<PartitionData> page; !(page = table.scan(range, ReadSpec.all(0), 3)).isEmpty(); ) {
            for (PartitionData p : page) seen.add(p.key());
            range = range.resumeAfter(page.get(page.size() - 1).key());
        }
        assertThat(seen).hasSize(20).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void readsOnePartitionByKey() {
        PartitionKey seven = PartitionKey.of(i(7));
        PartitionData p = new VirtualTable(metadata, exact).read(seven, ReadSpec.all(0));
        assertThat(p.rows()).hasSize(1);
        assertThat(p.key()).isEqualTo(seven);
    }
}
