package ballot.cluster;

/** Notified, on a membership thread, of changes in the cluster. Implementations must not block. */
public interface MembershipListener {
    default void joined(NodeInfo node) {}

    default void left(NodeInfo node) {}

    default void up(NodeInfo node) {}

    default void down(NodeInfo node) {}

    /** Any other change of a node's state (status, tokens, schema version). */
    default void changed(NodeInfo node) {}
}
