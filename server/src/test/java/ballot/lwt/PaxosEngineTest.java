package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.data.Cell;
import ballot.cql.data.Clustering;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.LivenessInfo;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Row;
import ballot.cql.data.Slice;
import ballot.paxos.NodeId;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The engine's pure pieces: the limits of SERIAL reads, node numbers. */
class PaxosEngineTest {
    @Test
    void aSerialReadKeepsItsLimitOfLiveRowsAndTheDeletionsBeforeThem() {
        int now = 1_000;
        List<Row> rows = List.of(live(1, now), Row.deletion(Clustering.of(CqlValuesTest.i(2)), new DeletionTime(5, now)), live(3, now), live(4, now));
        PartitionData data = new PartitionData(PartitionKey.of(CqlValuesTest.i(0)), DeletionTime.LIVE, List.of(), null, rows);
        PartitionData limited = PaxosEngine.limit(data, new ReadSpec(List.of(Slice.ALL), false, 2, Integer.MAX_VALUE, now));
        assertThat(limited.rows()).extracting(r -> r.clustering().get(0).getInt(0)).containsExactly(1, 2, 3);
        assertThat(PaxosEngine.limit(data, ReadSpec.all(now))).isSameAs(data);
        assertThat(PaxosEngine.limit(data, new ReadSpec(List.of(Slice.ALL), false, 9, 1, now)).rows()).hasSize(1);
    }

    @Test
    void nodeNumbersAreStableNonNegativeAndSpread() {
        UUID host = UUID.fromString("3f0f8f4e-4f5b-4c57-9d3e-0b5c9a0f1e2d");
        assertThat(NodeIds.of(host)).isEqualTo(NodeIds.of(UUID.fromString(host.toString())));
        java.util.Set<NodeId> seen = new java.util.HashSet<>();
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < 10_000; i++) {
            NodeId id = NodeIds.of(new UUID(random.nextLong(), random.nextLong()));
            assertThat(id.id()).isNotNegative();
            seen.add(id);
        }
        assertThat(seen).as("no collisions among 10,000 random hosts (expected about 0.02)").hasSize(10_000);
    }

    private static Row live(int c, int now) {
        return Row.of(Clustering.of(CqlValuesTest.i(c)), LivenessInfo.of(1, 0, now), List.of(Cell.live(1, null, CqlValuesTest.i(c), 1)));
    }
}
