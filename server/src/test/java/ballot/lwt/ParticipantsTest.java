package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cluster.NodeInfo;
import ballot.cluster.NodeStatus;
import ballot.cql.ConsistencyLevel;
import ballot.cql.error.UnavailableException;
import ballot.paxos.NodeId;
import ballot.paxos.coordinator.CommitLevel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Electorates and commit levels per serial and commit consistency, by Cassandra's rules (docs/paxos.md §12). */
class ParticipantsTest {
    /** Three replicas in dc1, three in dc2, the coordinator in dc1. */
    private static final List<NodeInfo> REPLICAS = List.of(node("dc1", 1), node("dc2", 4), node("dc1", 2), node("dc2", 5),
            node("dc1", 3), node("dc2", 6));
    private static final List<NodeId> DC1 = ids(REPLICAS, "dc1"), DC2 = ids(REPLICAS, "dc2"), ALL = ids(REPLICAS, null);

    @Test
    void serialVotesInEveryDataCenter() {
        Participants p = Participants.of(REPLICAS, "dc1", ConsistencyLevel.SERIAL, ConsistencyLevel.QUORUM);
        assertThat(p.electorate().voters()).containsExactlyElementsOf(ALL);
        assertThat(p.electorate().learners()).isEmpty();
        assertThat(p.electorate().quorum()).isEqualTo(4);
        assertThat(p.commitLevel()).isEqualTo(CommitLevel.of(4, ALL));
    }

    @Test
    void localSerialVotesInTheCoordinatorsDataCenterAndTheOthersLearn() {
        Participants p = Participants.of(REPLICAS, "dc1", ConsistencyLevel.LOCAL_SERIAL, ConsistencyLevel.LOCAL_QUORUM);
        assertThat(p.electorate().voters()).containsExactlyElementsOf(DC1);
        assertThat(p.electorate().learners()).containsExactlyElementsOf(DC2);
        assertThat(p.electorate().quorum()).isEqualTo(2);
        assertThat(p.electorate().replicas()).containsExactlyInAnyOrderElementsOf(ALL); // the commit goes everywhere
        assertThat(p.commitLevel()).isEqualTo(CommitLevel.of(2, DC1));
        assertThat(Participants.of(REPLICAS, "dc2", ConsistencyLevel.LOCAL_SERIAL, ConsistencyLevel.LOCAL_ONE).commitLevel())
                .isEqualTo(CommitLevel.of(1, DC2));
    }

    @Test
    void commitLevelsCountAsCassandrasPaxosCommitDoes() {
        for (ConsistencyLevel serial : List.of(ConsistencyLevel.SERIAL, ConsistencyLevel.LOCAL_SERIAL)) {
            assertThat(level(serial, ConsistencyLevel.ANY)).isEqualTo(CommitLevel.ANY);
            assertThat(level(serial, ConsistencyLevel.ONE)).isEqualTo(CommitLevel.of(1, ALL));
            assertThat(level(serial, ConsistencyLevel.TWO)).isEqualTo(CommitLevel.of(2, ALL));
            assertThat(level(serial, ConsistencyLevel.THREE)).isEqualTo(CommitLevel.of(3, ALL));
            assertThat(level(serial, ConsistencyLevel.QUORUM)).isEqualTo(CommitLevel.of(4, ALL));
            assertThat(level(serial, ConsistencyLevel.ALL)).isEqualTo(CommitLevel.of(6, ALL));
            assertThat(level(serial, ConsistencyLevel.LOCAL_ONE)).isEqualTo(CommitLevel.of(1, DC1));
            assertThat(level(serial, ConsistencyLevel.LOCAL_QUORUM)).isEqualTo(CommitLevel.of(2, DC1));
            // The sum of the data centers' quorums, from any of them: no EACH_SERIAL to go with it.
            assertThat(level(serial, ConsistencyLevel.EACH_QUORUM)).isEqualTo(CommitLevel.of(4, ALL));
        }
        List<NodeInfo> uneven = List.of(node("dc1", 1), node("dc1", 2), node("dc2", 3), node("dc2", 4));
        assertThat(Participants.of(uneven, "dc1", ConsistencyLevel.SERIAL, ConsistencyLevel.EACH_QUORUM).commitLevel().acks()).isEqualTo(4);
        assertThat(Participants.of(uneven, "dc1", ConsistencyLevel.SERIAL, ConsistencyLevel.QUORUM).commitLevel().acks()).isEqualTo(3);
        // A SERIAL read answers once what it read is applied at its serial level's quorum (docs/paxos.md §4.4).
        assertThat(Participants.of(REPLICAS, "dc1", ConsistencyLevel.LOCAL_SERIAL, null).commitLevel()).isEqualTo(CommitLevel.of(2, DC1));
        assertThat(Participants.of(REPLICAS, "dc1", ConsistencyLevel.SERIAL, null).commitLevel()).isEqualTo(CommitLevel.of(4, ALL));
        assertThatThrownBy(() -> level(ConsistencyLevel.SERIAL, ConsistencyLevel.SERIAL)).hasMessageContaining("not a commit consistency");
    }

    /** docs/txn.md §10: a transaction step commits at SERIAL's electorate and at a quorum of the replicas at least. */
    @Test
    void transactionStepsCommitAtTheirLevelButNeverBelowAQuorum() {
        assertThat(Participants.ofTransactionStep(REPLICAS, "dc1", ConsistencyLevel.ALL).commitLevel()).isEqualTo(CommitLevel.of(6, ALL));
        assertThat(Participants.ofTransactionStep(REPLICAS, "dc1", ConsistencyLevel.QUORUM).commitLevel()).isEqualTo(CommitLevel.of(4, ALL));
        assertThat(Participants.ofTransactionStep(REPLICAS, "dc1", ConsistencyLevel.ANY).commitLevel()).as("a decision alone").isEqualTo(CommitLevel.ANY);
        assertThat(Participants.ofTransactionStep(REPLICAS, "dc1", ConsistencyLevel.THREE).commitConsistency())
                .as("three of six is below a quorum").isEqualTo(ConsistencyLevel.QUORUM);
        List<NodeInfo> three = REPLICAS.subList(0, 3);
        Participants allThree = Participants.ofTransactionStep(three, "dc2", ConsistencyLevel.THREE);
        assertThat(allThree.commitConsistency()).isEqualTo(ConsistencyLevel.THREE);
        assertThat(allThree.commitLevel().acks()).as("three of three is more than a quorum").isEqualTo(3);
        assertThat(allThree.electorate().voters()).as("SERIAL's electorate, whichever the data center").hasSize(3);
        assertThat(Participants.ofTransactionStep(three, "dc1", ConsistencyLevel.TWO).commitLevel().acks()).isEqualTo(2);
    }

    @Test
    void localSerialWithoutAReplicaInTheDataCenterIsUnavailable() {
        assertThatThrownBy(() -> Participants.of(REPLICAS, "dc3", ConsistencyLevel.LOCAL_SERIAL, ConsistencyLevel.LOCAL_QUORUM))
                .isInstanceOf(UnavailableException.class)
                .hasMessage("Cannot achieve consistency level LOCAL_SERIAL").hasFieldOrPropertyWithValue("required", 1)
                .hasFieldOrPropertyWithValue("alive", 0);
    }

    @Test
    void refusesTwoReplicasWithOneNodeNumber() {
        List<NodeInfo> twins = List.of(node("dc1", 1), node("dc2", 1));
        assertThatThrownBy(() -> Participants.of(twins, "dc1", ConsistencyLevel.SERIAL, ConsistencyLevel.QUORUM))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("share Paxos node id");
    }

    private static CommitLevel level(ConsistencyLevel serial, ConsistencyLevel commit) {
        return Participants.of(REPLICAS, "dc1", serial, commit).commitLevel();
    }

    private static NodeInfo node(String dc, int n) {
        InetAddress address = InetAddress.getLoopbackAddress();
        return new NodeInfo(new UUID(0, n), new InetSocketAddress(address, 7000 + n), address, 9042, dc, "rack1", List.of(),
                NodeStatus.NORMAL, null, "5.0.0");
    }

    private static List<NodeId> ids(List<NodeInfo> nodes, String dc) {
        List<NodeId> out = new ArrayList<>();
        for (NodeInfo n : nodes) if (dc == null || n.dataCenter().equals(dc)) out.add(NodeIds.of(n.hostId()));
        return out;
    }
}
