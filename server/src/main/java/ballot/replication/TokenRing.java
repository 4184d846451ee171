package ballot.replication;

import ballot.cluster.NodeInfo;
import ballot.cluster.NodeStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The Murmur3 token ring: every token of every node that owns data (NORMAL or LEAVING), sorted. A token t belongs to
 * the range (previous token, t] of the node holding t; replicas of a key are found by walking the ring clockwise from
 * the first token at or after the key's token. Immutable; rebuilt when membership changes.
 */
public final class TokenRing {
    private final long[] tokens;
    private final UUID[] owners;
    private final Map<UUID, NodeInfo> nodes;

    private TokenRing(long[] tokens, UUID[] owners, Map<UUID, NodeInfo> nodes) {
        this.tokens = tokens;
        this.owners = owners;
        this.nodes = nodes;
    }

    public static TokenRing of(Collection<NodeInfo> members) {
        Map<UUID, NodeInfo> nodes = new HashMap<>();
        Map<Long, UUID> byToken = new java.util.TreeMap<>();
        for (NodeInfo n : members) {
            if (n.status() != NodeStatus.NORMAL && n.status() != NodeStatus.LEAVING) continue;
            nodes.put(n.hostId(), n);
            for (long t : n.tokens()) {
                UUID previous = byToken.put(t, n.hostId());
                if (previous != null && !previous.equals(n.hostId())) {
                    // Two nodes claim one token: the lower host id keeps it, so every node resolves the clash alike.
                    byToken.put(t, previous.compareTo(n.hostId()) < 0 ? previous : n.hostId());
                }
            }
        }
        long[] tokens = new long[byToken.size()];
        UUID[] owners = new UUID[byToken.size()];
        int i = 0;
        for (Map.Entry<Long, UUID> e : byToken.entrySet()) {
            tokens[i] = e.getKey();
            owners[i++] = e.getValue();
        }
        return new TokenRing(tokens, owners, Map.copyOf(nodes));
    }

    public boolean isEmpty() {
        return tokens.length == 0;
    }

    public NodeInfo node(UUID hostId) {
        return nodes.get(hostId);
    }

    public Collection<NodeInfo> nodes() {
        return nodes.values();
    }

    /** Index of the first token at or after {@code token}, wrapping to 0. */
    int firstIndex(long token) {
        int i = Arrays.binarySearch(tokens, token);
        if (i < 0) i = -i - 1;
        return i == tokens.length ? 0 : i;
    }

    int size() {
        return tokens.length;
    }

    long token(int index) {
        return tokens[index % tokens.length];
    }

    UUID owner(int index) {
        return owners[index % owners.length];
    }

    /** The distinct owners met walking clockwise from {@code token}, in order. */
    List<UUID> walk(long token) {
        Set<UUID> seen = new LinkedHashSet<>();
        if (tokens.length == 0) return List.of();
        int start = firstIndex(token);
        for (int i = 0; i < tokens.length && seen.size() < nodes.size(); i++) seen.add(owner(start + i));
        return new ArrayList<>(seen);
    }

    /** The sorted tokens, for splitting scans by owned range. */
    long[] tokens() {
        return tokens.clone();
    }
}
