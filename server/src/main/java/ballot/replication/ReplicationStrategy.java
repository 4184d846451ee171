package ballot.replication;

import ballot.cluster.NodeInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Where the replicas of a token are, from a keyspace's replication options, as Cassandra places them:
 * SimpleStrategy takes the first {@code replication_factor} distinct nodes clockwise; NetworkTopologyStrategy does so
 * per data center, preferring racks not yet used in that data center; LocalStrategy is this node alone.
 */
public final class ReplicationStrategy {
    private ReplicationStrategy() {}

    /** Replication factor per data center (SimpleStrategy: one entry under the key "" for the whole cluster). */
    public static Map<String, Integer> factors(Map<String, String> replication) {
        String cls = replication.getOrDefault("class", "");
        Map<String, Integer> out = new LinkedHashMap<>();
        if (cls.endsWith("SimpleStrategy")) {
            out.put("", Integer.parseInt(replication.getOrDefault("replication_factor", "1")));
        } else if (cls.endsWith("NetworkTopologyStrategy")) {
            for (Map.Entry<String, String> e : replication.entrySet()) {
                if (!e.getKey().equals("class")) out.put(e.getKey(), Integer.parseInt(e.getValue()));
            }
        }
        return out;
    }

    public static boolean isLocal(Map<String, String> replication) {
        String cls = replication.getOrDefault("class", "");
        return cls.isEmpty() || cls.endsWith("LocalStrategy");
    }

    /** The replicas of {@code token}, primary first. */
    public static List<NodeInfo> replicas(TokenRing ring, Map<String, String> replication, long token) {
        List<NodeInfo> out = new ArrayList<>();
        if (ring.isEmpty()) return out;
        Map<String, Integer> factors = factors(replication);
        List<UUID> walk = ring.walk(token);
        if (factors.containsKey("")) {
            int rf = factors.get("");
            for (UUID id : walk) {
                if (out.size() >= rf) break;
                out.add(ring.node(id));
            }
            return out;
        }
        Map<String, Integer> taken = new HashMap<>();
        Map<String, Set<String>> racksUsed = new HashMap<>();
        List<NodeInfo> skippedForRack = new ArrayList<>();
        for (UUID id : walk) {
            NodeInfo n = ring.node(id);
            Integer rf = factors.get(n.dataCenter());
            if (rf == null || taken.getOrDefault(n.dataCenter(), 0) >= rf) continue;
            Set<String> racks = racksUsed.computeIfAbsent(n.dataCenter(), dc -> new HashSet<>());
            if (racks.contains(n.rack())) {
                skippedForRack.add(n);
                continue;
            }
            racks.add(n.rack());
            out.add(n);
            taken.merge(n.dataCenter(), 1, Integer::sum);
        }
        // Every rack of a data center is used: fill it with the nodes skipped for their rack, in ring order.
        for (NodeInfo n : skippedForRack) {
            int rf = factors.get(n.dataCenter());
            if (taken.getOrDefault(n.dataCenter(), 0) >= rf) continue;
            out.add(n);
            taken.merge(n.dataCenter(), 1, Integer::sum);
        }
        return out;
    }
}
