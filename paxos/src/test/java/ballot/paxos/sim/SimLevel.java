package ballot.paxos.sim;

import ballot.paxos.Electorate;
import ballot.paxos.NodeId;
import ballot.paxos.coordinator.CommitLevel;
import java.util.List;

/**
 * The CQL commit levels the simulation's clients ask for, mapped onto the core's {@link CommitLevel} by Cassandra's
 * rules for a Paxos commit, as the server maps them (docs/paxos.md §12): LOCAL_* count the client's data center only,
 * EACH_QUORUM is the sum of the data centers' quorums counted anywhere.
 */
enum SimLevel {
    ANY, ONE, QUORUM, ALL, LOCAL_ONE, LOCAL_QUORUM, EACH_QUORUM;

    /** In a cluster of one data center. */
    CommitLevel resolve(Electorate electorate) {
        return resolve(electorate, electorate.replicas(), List.of(electorate.replicas()));
    }

    /**
     * @param local the partition's replicas in the client's data center
     * @param dataCenters the partition's replicas in each data center
     */
    CommitLevel resolve(Electorate electorate, List<NodeId> local, List<List<NodeId>> dataCenters) {
        return switch (this) {
            case ANY -> CommitLevel.ANY;
            case ONE -> CommitLevel.anyOf(1, electorate);
            case QUORUM -> CommitLevel.quorum(electorate);
            case ALL -> CommitLevel.all(electorate);
            case LOCAL_ONE -> CommitLevel.of(1, local);
            case LOCAL_QUORUM -> CommitLevel.of(local.size() / 2 + 1, local);
            case EACH_QUORUM -> CommitLevel.anyOf(dataCenters.stream().mapToInt(dc -> dc.size() / 2 + 1).sum(), electorate);
        };
    }
}
