package ballot.console;

import ballot.cluster.Membership;
import ballot.cluster.NodeInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/** The ring as this node's membership sees it, one row per member, as {@code ./ballot admin status} shows it. */
final class RingView {
    /** 2^64: the size of the Murmur3 token ring. */
    private static final double RING_SIZE = 0x1p64;

    /**
     * @param address   the member's CQL address; its console is on the same address at the metrics port
     * @param ownership the member's share of the ring as primary owner, in [0, 1]
     */
    record Member(UUID hostId, String address, String dataCenter, String rack, boolean up, String state, int tokens,
            double ownership, boolean self) {}

    private RingView() {}

    static List<Member> members(Membership membership) {
        List<NodeInfo> nodes = new ArrayList<>(membership.members());
        nodes.sort(Comparator.comparing(NodeInfo::dataCenter).thenComparing(n -> n.nativeAddress().getHostAddress()));
        Map<UUID, Double> owned = ownership(nodes);
        UUID self = membership.self().hostId();
        List<Member> rows = new ArrayList<>(nodes.size());
        for (NodeInfo n : nodes) {
            rows.add(new Member(n.hostId(), n.nativeAddress().getHostAddress(), n.dataCenter(), n.rack(),
                    n.hostId().equals(self) || membership.isAlive(n.hostId()), n.status().name(), n.tokens().size(),
                    owned.getOrDefault(n.hostId(), 0.0), n.hostId().equals(self)));
        }
        return rows;
    }

    /** Each node owns the ranges (previous token, its token], the first wrapping around from the last; shares sum to 1. */
    static Map<UUID, Double> ownership(List<NodeInfo> nodes) {
        TreeMap<Long, UUID> ring = new TreeMap<>();
        for (NodeInfo n : nodes) for (long token : n.tokens()) ring.put(token, n.hostId());
        Map<UUID, Double> owned = new HashMap<>();
        if (ring.isEmpty()) return owned;
        long previous = ring.lastKey();
        for (Map.Entry<Long, UUID> e : ring.entrySet()) {
            long width = e.getKey() - previous; // unsigned: wraps around the ring, and one token alone spans it all
            double share = width == 0 ? 1 : unsigned(width) / RING_SIZE;
            owned.merge(e.getValue(), share, Double::sum);
            previous = e.getKey();
        }
        return owned;
    }

    private static double unsigned(long value) {
        return value >= 0 ? value : (value >>> 1) * 2.0 + (value & 1);
    }
}
