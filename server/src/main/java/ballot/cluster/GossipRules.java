package ballot.cluster;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The pure rules of gossip (docs/membership.md §2): how a SYN is answered, how an ACK's requests are answered, and
 * how a remote state merges into the local one. No time, no IO: the caller applies the results.
 */
final class GossipRules {
    /** A generation this far (in seconds) ahead of the known one is refused as corrupt, as in Cassandra. */
    static final int GENERATION_DIFFERENCE_MAX = 86400 * 365;

    private GossipRules() {}

    /** What the receiver of a SYN answers: states newer than the sender's digests or unknown to it, and digests of what it wants. */
    record Examination(List<EndpointState> states, List<GossipDigest> requests) {}

    static Examination examine(Map<UUID, EndpointState> local, List<GossipDigest> remote) {
        List<EndpointState> send = new ArrayList<>();
        List<GossipDigest> request = new ArrayList<>();
        Set<UUID> listed = new HashSet<>();
        for (GossipDigest digest : remote) {
            listed.add(digest.hostId());
            EndpointState mine = local.get(digest.hostId());
            if (mine == null || digest.generation() > mine.generation()) {
                request.add(new GossipDigest(digest.hostId(), digest.generation(), -1));
            } else if (digest.generation() < mine.generation()) {
                send.add(mine);
            } else {
                int version = mine.maxVersion();
                if (version > digest.maxVersion()) send.add(mine.above(digest.maxVersion()));
                else if (version < digest.maxVersion()) request.add(new GossipDigest(digest.hostId(), digest.generation(), version));
            }
        }
        for (EndpointState mine : local.values()) {
            if (!listed.contains(mine.hostId())) send.add(mine);
        }
        return new Examination(send, request);
    }

    /** The states the sender of a SYN sends in ACK2 for the receiver's {@code requests}. */
    static List<EndpointState> answer(Map<UUID, EndpointState> local, List<GossipDigest> requests) {
        List<EndpointState> send = new ArrayList<>();
        for (GossipDigest request : requests) {
            EndpointState mine = local.get(request.hostId());
            if (mine == null || mine.generation() < request.generation()) continue;
            EndpointState delta = mine.generation() > request.generation() ? mine : mine.above(request.maxVersion());
            if (delta != null) send.add(delta);
        }
        return send;
    }

    enum Outcome {
        /** The node was unknown. */
        NEW,
        /** A higher generation: the node restarted; its state replaced ours. */
        RESTARTED,
        /** Same generation, something newer. */
        UPDATED,
        /** Nothing newer (stale, duplicate or an older generation). */
        UNCHANGED,
        /** A generation implausibly far ahead: refused. */
        REFUSED
    }

    /**
     * The merge of {@code remote} into {@code local} (null if unknown). {@code changedKeys} lists the application states
     * that took a new value; {@code heartbeatAdvanced} whether the heartbeat (or generation) moved forward.
     */
    record Merge(Outcome outcome, EndpointState merged, boolean heartbeatAdvanced, Set<Integer> changedKeys) {}

    /** What a node's state must hold before it is taken as new or as a new generation (a delta is not enough). */
    static final Set<Integer> REQUIRED = Set.of(AppState.STATUS.key, AppState.TOKENS.key, AppState.INTERNODE.key,
            AppState.NATIVE.key, AppState.DC.key, AppState.RACK.key);

    static Merge merge(EndpointState local, EndpointState remote) {
        boolean complete = remote.states().keySet().containsAll(REQUIRED);
        if (local == null) {
            return complete ? new Merge(Outcome.NEW, remote, true, remote.states().keySet()) : new Merge(Outcome.UNCHANGED, null, false, Set.of());
        }
        if (!local.hostId().equals(remote.hostId())) throw new IllegalArgumentException("merging " + remote.hostId() + " into " + local.hostId());
        if (remote.generation() > local.generation()) {
            if ((long) remote.generation() - local.generation() > GENERATION_DIFFERENCE_MAX) {
                return new Merge(Outcome.REFUSED, local, false, Set.of());
            }
            if (!complete) return new Merge(Outcome.UNCHANGED, local, false, Set.of());
            return new Merge(Outcome.RESTARTED, remote, true, remote.states().keySet());
        }
        if (remote.generation() < local.generation()) return new Merge(Outcome.UNCHANGED, local, false, Set.of());
        Map<Integer, VersionedValue> states = new TreeMap<>(local.states());
        Set<Integer> changed = new HashSet<>();
        remote.states().forEach((key, value) -> {
            VersionedValue mine = states.get(key);
            if (mine == null || value.version() > mine.version()) {
                states.put(key, value);
                if (mine == null || !mine.value().equals(value.value())) changed.add(key);
            }
        });
        boolean heartbeat = remote.heartbeat() > local.heartbeat();
        boolean newerStates = !states.equals(local.states());
        if (!heartbeat && !newerStates) return new Merge(Outcome.UNCHANGED, local, false, Set.of());
        return new Merge(Outcome.UPDATED, new EndpointState(local.hostId(), local.generation(),
                Math.max(local.heartbeat(), remote.heartbeat()), states), heartbeat, changed);
    }
}
