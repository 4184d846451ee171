package ballot.cluster;

import java.util.Collection;
import java.util.UUID;

/**
 * The cluster as this node sees it: every member (this node included, nodes that LEFT excluded) and which are alive
 * according to the failure detector. Listeners hear of joins, departures, liveness and state changes.
 */
public interface Membership {
    NodeInfo self();

    Collection<NodeInfo> members();

    NodeInfo member(UUID hostId);

    boolean isAlive(UUID hostId);

    void listen(MembershipListener listener);

    /** Spreads this node's new schema version to the cluster. */
    void schemaVersionChanged(UUID version);

    /** Spreads this node's data size in bytes (Cassandra's LOAD; nodetool status shows it). */
    default void loadChanged(long bytes) {}

    /** The data size a member last reported, or -1 if unknown. */
    default long load(UUID hostId) {
        return -1;
    }
}
