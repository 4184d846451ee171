package ballot.lwt;

import ballot.cluster.NodeInfo;
import ballot.cql.ConsistencyLevel;
import ballot.cql.error.UnavailableException;
import ballot.paxos.Electorate;
import ballot.paxos.NodeId;
import ballot.paxos.coordinator.CommitLevel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Who takes part in one conditional statement or SERIAL read, by Cassandra's rules for Paxos (docs/paxos.md §12):
 * <ul>
 *   <li>the electorate: at SERIAL every replica of the partition votes; at LOCAL_SERIAL the replicas in the
 *       coordinator's data center vote and the others are learners, which get the commit and never vote (whatever
 *       the replication strategy, as in Cassandra);
 *   <li>the commit level: every replica gets the commit, and the client hears APPLIED once enough of the counted ones
 *       applied it. ONE, TWO, THREE, QUORUM and ALL count every replica; LOCAL_ONE and LOCAL_QUORUM only those in
 *       the coordinator's data center; EACH_QUORUM, as in Cassandra's Paxos commit, needs the sum of the data
 *       centers' quorums counted anywhere, not a quorum in each.
 * </ul>
 */
record Participants(Electorate electorate, CommitLevel commitLevel, ConsistencyLevel commitConsistency) {

    /**
     * @param replicas the partition's replicas, primary first
     * @param commit the commit consistency; null for a SERIAL read, which commits nothing of its own but answers once
     *     the decree it read is applied at a quorum (QUORUM, or LOCAL_QUORUM at LOCAL_SERIAL), so that a read at that
     *     level afterwards sees it, as Cassandra repairs the most recent commit before a SERIAL read
     *     (docs/paxos.md §4.4)
     * @throws UnavailableException at LOCAL_SERIAL when this data center holds no replica of the partition
     */
    static Participants of(List<NodeInfo> replicas, String localDc, ConsistencyLevel serial, ConsistencyLevel commit) {
        List<NodeId> voters = new ArrayList<>(replicas.size());
        List<NodeId> learners = new ArrayList<>();
        List<NodeId> local = new ArrayList<>(replicas.size());
        Map<String, Integer> perDc = new HashMap<>();
        List<NodeId> all = new ArrayList<>(replicas.size());
        for (NodeInfo n : replicas) {
            NodeId id = NodeIds.of(n.hostId());
            if (all.contains(id))
                throw new IllegalStateException("two replicas share Paxos node id " + id + " (host " + n.hostId() + "); replace one host id");
            all.add(id);
            boolean inLocalDc = n.dataCenter().equals(localDc);
            if (inLocalDc) local.add(id);
            perDc.merge(n.dataCenter(), 1, Integer::sum);
            if (serial == ConsistencyLevel.LOCAL_SERIAL && !inLocalDc) learners.add(id);
            else voters.add(id);
        }
        if (voters.isEmpty()) throw new UnavailableException(serial, 1, 0); // no replica in this data center
        Electorate electorate = new Electorate(voters, learners);
        ConsistencyLevel level = commit != null ? commit : serial == ConsistencyLevel.LOCAL_SERIAL ? ConsistencyLevel.LOCAL_QUORUM
                : ConsistencyLevel.QUORUM;
        return new Participants(electorate, commitLevel(level, all, local, perDc), level);
    }

    /**
     * Those of a transaction step (docs/txn.md §11.1): at SERIAL, committed at {@code commit}, except that TWO or THREE
     * where that is fewer than a quorum of the replicas is raised to QUORUM: a step that changes what plain reads see
     * commits at a quorum at least (§10).
     */
    static Participants ofTransactionStep(List<NodeInfo> replicas, String localDc, ConsistencyLevel commit) {
        int quorum = replicas.size() / 2 + 1;
        boolean belowQuorum = commit == ConsistencyLevel.TWO && quorum > 2 || commit == ConsistencyLevel.THREE && quorum > 3;
        return of(replicas, localDc, ConsistencyLevel.SERIAL, belowQuorum ? ConsistencyLevel.QUORUM : commit);
    }

    private static CommitLevel commitLevel(ConsistencyLevel commit, List<NodeId> all, List<NodeId> local, Map<String, Integer> perDc) {
        return switch (commit) {
            case ANY -> CommitLevel.ANY;
            case ONE -> CommitLevel.of(1, all);
            case TWO -> CommitLevel.of(2, all);
            case THREE -> CommitLevel.of(3, all);
            case QUORUM -> CommitLevel.of(all.size() / 2 + 1, all);
            case ALL -> CommitLevel.of(all.size(), all);
            case LOCAL_ONE -> CommitLevel.of(1, local);
            case LOCAL_QUORUM -> CommitLevel.of(local.size() / 2 + 1, local);
            case EACH_QUORUM -> CommitLevel.of(perDc.values().stream().mapToInt(n -> n / 2 + 1).sum(), all);
            case SERIAL, LOCAL_SERIAL -> throw new IllegalArgumentException(commit + " is not a commit consistency");
        };
    }
}
