package ballot.paxos;

import java.util.List;

/** The replicas of one partition; any majority of them is a quorum. The server derives it from the token ring. */
public record Electorate(List<NodeId> replicas) {
    public Electorate {
        replicas = List.copyOf(replicas);
        if (replicas.isEmpty()) throw new IllegalArgumentException("electorate has no replicas");
        for (int i = 1; i < replicas.size(); i++) // a handful of replicas: pairwise beats hashing (one per LWT)
            if (replicas.subList(0, i).contains(replicas.get(i)))
                throw new IllegalArgumentException("electorate lists a replica twice: " + replicas);
    }

    public static Electorate of(NodeId... replicas) {
        return new Electorate(List.of(replicas));
    }

    public int size() {
        return replicas.size();
    }

    public int quorum() {
        return replicas.size() / 2 + 1;
    }

    /** How many replies that are not acceptances make a quorum of acceptances impossible. */
    public int blocking() {
        return replicas.size() - quorum() + 1;
    }

    public boolean contains(NodeId node) {
        return replicas.contains(node);
    }
}
