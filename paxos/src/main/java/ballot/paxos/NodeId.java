package ballot.paxos;

/** A node of the cluster as the protocol addresses it: a small integer the server assigns and never reuses. */
public record NodeId(int id) implements Comparable<NodeId> {
    public NodeId {
        if (id < 0) throw new IllegalArgumentException("node id is " + id + "; must be >= 0");
    }

    public static NodeId of(int id) {
        return new NodeId(id);
    }

    @Override
    public int compareTo(NodeId o) {
        return Integer.compare(id, o.id);
    }

    @Override
    public String toString() {
        return "n" + id;
    }
}
