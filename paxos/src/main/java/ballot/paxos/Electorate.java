package ballot.paxos;

import java.util.ArrayList;
import java.util.List;

/**
 * The replicas of one partition as a round sees them (docs/paxos.md §1): the {@code voters}, any majority of whom is a
 * quorum, and the {@code learners}, the partition's other replicas, which apply decided decrees without voting. A
 * SERIAL round has every replica as a voter; a LOCAL_SERIAL round has its data center's replicas as voters and the
 * other data centers' as learners (§4.6). The server derives both from the token ring.
 */
public record Electorate(List<NodeId> voters, List<NodeId> learners) {
    public Electorate {
        voters = List.copyOf(voters);
        learners = List.copyOf(learners);
        if (voters.isEmpty()) throw new IllegalArgumentException("electorate has no voters");
        List<NodeId> all = new ArrayList<>(voters);
        all.addAll(learners);
        for (int i = 1; i < all.size(); i++) // a handful of replicas: pairwise beats hashing (one per LWT)
            if (all.subList(0, i).contains(all.get(i)))
                throw new IllegalArgumentException("electorate lists a replica twice: voters " + voters + " learners " + learners);
    }

    /** Every replica votes. */
    public Electorate(List<NodeId> voters) {
        this(voters, List.of());
    }

    public static Electorate of(NodeId... voters) {
        return new Electorate(List.of(voters));
    }

    /** Every replica of the partition, voters first: decided decrees go to all of them, and are pruned once all applied. */
    public List<NodeId> replicas() {
        if (learners.isEmpty()) return voters;
        List<NodeId> all = new ArrayList<>(voters.size() + learners.size());
        all.addAll(voters);
        all.addAll(learners);
        return all;
    }

    /** The number of voters. */
    public int size() {
        return voters.size();
    }

    /** A majority of the voters. */
    public int quorum() {
        return voters.size() / 2 + 1;
    }

    /** How many replies that are not acceptances make a quorum of acceptances impossible. */
    public int blocking() {
        return voters.size() - quorum() + 1;
    }

    public boolean isVoter(NodeId node) {
        return voters.contains(node);
    }

    public boolean isReplica(NodeId node) {
        return voters.contains(node) || learners.contains(node);
    }

    /**
     * The partition has one replica: its acceptance decides, and it applies and prunes the decree in the same write
     * (§4.6). One voter with learners is not sole: the learners still need the commit.
     */
    public boolean sole() {
        return voters.size() == 1 && learners.isEmpty();
    }
}
