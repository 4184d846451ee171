package ballot.cluster;

/** Where a node is in its life in the ring, as gossip spreads it. */
public enum NodeStatus {
    /** Has tokens but is not yet serving them. */
    JOINING,
    /** Owns its tokens. */
    NORMAL,
    /** Decommissioning: still owns its tokens while it hands its data over. */
    LEAVING,
    /** Gone for good; its tokens belong to others. */
    LEFT
}
