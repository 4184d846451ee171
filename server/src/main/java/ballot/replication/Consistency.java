package ballot.replication;

import ballot.cluster.NodeInfo;
import ballot.cql.ConsistencyLevel;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How many replica acknowledgements a consistency level needs, and from where: LOCAL_* levels count only replicas in
 * the coordinator's data center, EACH_QUORUM needs a quorum in every data center, the others count any replica.
 */
final class Consistency {
    private Consistency() {}

    static boolean isLocal(ConsistencyLevel cl) {
        return cl == ConsistencyLevel.LOCAL_ONE || cl == ConsistencyLevel.LOCAL_QUORUM || cl == ConsistencyLevel.LOCAL_SERIAL;
    }

    /** Replica acknowledgements needed, among {@code replicas} (all replicas of the token, alive or not). */
    static int blockFor(ConsistencyLevel cl, List<NodeInfo> replicas, String localDc) {
        int rf = replicas.size();
        int localRf = 0;
        for (NodeInfo n : replicas) if (n.dataCenter().equals(localDc)) localRf++;
        return switch (cl) {
            case ANY, ONE, LOCAL_ONE -> 1;
            case TWO -> 2;
            case THREE -> 3;
            case QUORUM, SERIAL -> rf / 2 + 1;
            case LOCAL_QUORUM, LOCAL_SERIAL -> localRf / 2 + 1;
            case EACH_QUORUM -> {
                int sum = 0;
                for (int count : perDc(replicas).values()) sum += count / 2 + 1;
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
    static boolean isSatisfiable(ConsistencyLevel cl, List<NodeInfo> replicas, List<NodeInfo> alive, String localDc) {
        if (cl == ConsistencyLevel.EACH_QUORUM) {
            Map<String, Integer> all = perDc(replicas);
            Map<String, Integer> live = perDc(alive);
            for (Map.Entry<String, Integer> e : all.entrySet()) {
                if (live.getOrDefault(e.getKey(), 0) < e.getValue() / 2 + 1) return false;
            }
            return true;
        }
        return countable(cl, alive, localDc) >= blockFor(cl, replicas, localDc);
    }

    /** How many of {@code nodes} count towards {@code cl}. */
    static int countable(ConsistencyLevel cl, List<NodeInfo> nodes, String localDc) {
        if (!isLocal(cl)) return nodes.size();
        int n = 0;
        for (NodeInfo node : nodes) if (node.dataCenter().equals(localDc)) n++;
        return n;
    }

    static boolean counts(ConsistencyLevel cl, NodeInfo node, String localDc) {
        return !isLocal(cl) || node.dataCenter().equals(localDc);
    }
}
