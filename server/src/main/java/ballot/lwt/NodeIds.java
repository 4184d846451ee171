package ballot.lwt;

import ballot.cluster.Membership;
import ballot.cluster.NodeInfo;
import ballot.paxos.NodeId;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The protocol's small node numbers, derived from host ids so that every node computes the same number for a host
 * without agreeing on anything: a 31-bit mix of the host id. Ballots carry it (with the node's incarnation) and
 * checked proposals name replicas by it (docs/paxos.md §4.1, §4.8). Two hosts with the same number would make ballots
 * ambiguous, so the engine refuses such an electorate (Participants#of); with random host ids the chance is about
 * n²/2^32 for n nodes.
 */
final class NodeIds {
    private final Membership membership;
    private volatile Map<NodeId, NodeInfo> nodes = Map.of();

    NodeIds(Membership membership) {
        this.membership = membership;
    }

    static NodeId of(UUID hostId) {
        long h = hostId.getMostSignificantBits() * 0x9E3779B97F4A7C15L ^ hostId.getLeastSignificantBits();
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return NodeId.of((int) (h >>> 33));
    }

    /** The member with this number, or null if none is known (yet). */
    NodeInfo node(NodeId id) {
        NodeInfo n = nodes.get(id);
        if (n == null) {
            refresh();
            n = nodes.get(id);
        }
        return n;
    }

    /** Rebuilds the table from membership (members that joined or changed). */
    void refresh() {
        Map<NodeId, NodeInfo> next = new HashMap<>();
        for (NodeInfo n : membership.members()) next.put(of(n.hostId()), n);
        nodes = next;
    }
}
