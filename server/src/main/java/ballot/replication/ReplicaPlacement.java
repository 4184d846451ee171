package ballot.replication;

import ballot.cluster.NodeInfo;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The replicas of every ring range for one replication setting, computed on first use and kept while the ring does
 * not change: finding a token's replicas is then a binary search. Also the setting's replication factors.
 */
final class ReplicaPlacement {
    private final TokenRing ring;
    private final Map<String, String> replication;
    private final Map<String, Integer> factors;
    private final AtomicReferenceArray<List<NodeInfo>> byRange;

    ReplicaPlacement(TokenRing ring, Map<String, String> replication) {
        this.ring = ring;
        this.replication = replication;
        this.factors = ReplicationStrategy.isLocal(replication) ? Map.of("", 1) : Map.copyOf(ReplicationStrategy.factors(replication));
        this.byRange = new AtomicReferenceArray<>(Math.max(1, ring.size()));
    }

    Map<String, Integer> factors() {
        return factors;
    }

    /** The replicas of {@code token}, primary first; empty when the ring is. */
    List<NodeInfo> replicas(long token) {
        if (ring.isEmpty()) return List.of();
        int index = ring.firstIndex(token);
        List<NodeInfo> replicas = byRange.get(index);
        if (replicas == null) {
            replicas = List.copyOf(ReplicationStrategy.replicas(ring, replication, ring.token(index)));
            byRange.set(index, replicas);
        }
        return replicas;
    }
}
