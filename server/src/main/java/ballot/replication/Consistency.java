package ballot.replication;

import ballot.cluster.NodeInfo;
import ballot.cql.ConsistencyLevel;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How many replica acknowledgements a consistency level needs, from the keyspace's replication factors (not from the
 * replicas the ring happens to hold: RF 3 on a one-node cluster still needs 2 for QUORUM, as in Cassandra). LOCAL_*
 * levels count only replicas in the coordinator's data center, EACH_QUORUM needs a quorum in every data center.
 * {@code factors} maps data center to replication factor; the key "" stands for SimpleStrategy's cluster-wide factor.
 */
final class Consistency {
    private Consistency() {}

    static boolean isLocal(ConsistencyLevel cl) {
        return cl == ConsistencyLevel.LOCAL_ONE || cl == ConsistencyLevel.LOCAL_QUORUM || cl == ConsistencyLevel.LOCAL_SERIAL;
    }

    static int blockFor(ConsistencyLevel cl, Map<String, Integer> factors, String localDc) {
        int rf = 0;
        for (int f : factors.values()) rf += f;
        int localRf = factors.containsKey("") ? rf : factors.getOrDefault(localDc, 0);
        return switch (cl) {
            case ANY, ONE, LOCAL_ONE -> 1;
            case TWO -> 2;
            case THREE -> 3;
            case QUORUM, SERIAL -> rf / 2 + 1;
            case LOCAL_QUORUM, LOCAL_SERIAL -> localRf / 2 + 1;
            case EACH_QUORUM -> {
                if (factors.containsKey("")) yield rf / 2 + 1;
                int sum = 0;
                for (int f : factors.values()) sum += f / 2 + 1;
                yield sum;
            }
            case ALL -> rf;
        };
    }

    static Map<String, Integer> perDc(List<NodeInfo> nodes) {
        Map<String, Integer> out = new HashMap<>();
        for (NodeInfo n : nodes) out.merge(n.dataCenter(), 1, Integer::sum);
        return out;
    }

    /** True if {@code alive} replicas can meet {@code cl} (checking each data center for EACH_QUORUM). */
    static boolean isSatisfiable(ConsistencyLevel cl, Map<String, Integer> factors, List<NodeInfo> alive, String localDc) {
        if (cl == ConsistencyLevel.EACH_QUORUM && !factors.containsKey("")) {
            Map<String, Integer> live = perDc(alive);
            for (Map.Entry<String, Integer> e : factors.entrySet()) {
                if (live.getOrDefault(e.getKey(), 0) < e.getValue() / 2 + 1) return false;
            }
            return true;
        }
        return countable(cl, factors, alive, localDc) >= blockFor(cl, factors, localDc);
    }

    /** How many of {@code nodes} count towards {@code cl}. */
    static int countable(ConsistencyLevel cl, Map<String, Integer> factors, List<NodeInfo> nodes, String localDc) {
        if (!isLocal(cl) || factors.containsKey("")) return nodes.size();
        int n = 0;
        for (NodeInfo node : nodes) if (node.dataCenter().equals(localDc)) n++;
        return n;
    }

    static boolean counts(ConsistencyLevel cl, Map<String, Integer> factors, NodeInfo node, String localDc) {
        return !isLocal(cl) || factors.containsKey("") || node.dataCenter().equals(localDc);
    }
}
