package ballot.cluster;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * One node's gossip state: its generation, heartbeat version and versioned application states, keyed by
 * {@link AppState#key} (unknown keys included). Immutable. Versions come from one counter per generation that the
 * owner alone advances, so {@code (generation, maxVersion)} orders every state of one node (docs/membership.md §2).
 */
record EndpointState(UUID hostId, int generation, int heartbeat, Map<Integer, VersionedValue> states) {
    EndpointState {
        states = Collections.unmodifiableMap(new TreeMap<>(states));
    }

    int maxVersion() {
        int max = heartbeat;
        for (VersionedValue value : states.values()) max = Math.max(max, value.version());
        return max;
    }

    GossipDigest digest() {
        return new GossipDigest(hostId, generation, maxVersion());
    }

    String get(AppState key) {
        VersionedValue value = states.get(key.key);
        return value == null ? null : value.value();
    }

    EndpointState withHeartbeat(int version) {
        return new EndpointState(hostId, generation, version, states);
    }

    EndpointState with(AppState key, String value, int version) {
        Map<Integer, VersionedValue> next = new TreeMap<>(states);
        next.put(key.key, new VersionedValue(value, version));
        return new EndpointState(hostId, generation, heartbeat, next);
    }

    /** The states with a version above {@code version}, and the heartbeat; null if nothing is newer. */
    EndpointState above(int version) {
        Map<Integer, VersionedValue> newer = new TreeMap<>();
        states.forEach((key, value) -> {
            if (value.version() > version) newer.put(key, value);
        });
        if (newer.isEmpty() && heartbeat <= version) return null;
        return new EndpointState(hostId, generation, heartbeat, newer);
    }
}
