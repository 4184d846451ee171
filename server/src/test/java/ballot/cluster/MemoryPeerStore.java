package ballot.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/** A {@link PeerStore} that outlives a simulated process, as the node's disk does. */
final class MemoryPeerStore implements PeerStore {
    private final Map<UUID, EndpointState> peers = new TreeMap<>();
    private boolean decommissioned;

    @Override
    public List<EndpointState> load() {
        return new ArrayList<>(peers.values());
    }

    @Override
    public void save(EndpointState state) {
        peers.put(state.hostId(), state);
    }

    @Override
    public void delete(UUID hostId) {
        peers.remove(hostId);
    }

    @Override
    public boolean decommissioned() {
        return decommissioned;
    }

    @Override
    public void markDecommissioned() {
        decommissioned = true;
    }

    Map<UUID, EndpointState> peers() {
        return peers;
    }
}
