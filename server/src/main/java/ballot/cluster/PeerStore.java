package ballot.cluster;

import java.util.List;
import java.util.UUID;

/** Where a node keeps what it knows of its peers across restarts (docs/membership.md §4). */
interface PeerStore {
    List<EndpointState> load();

    void save(EndpointState state);

    void delete(UUID hostId);

    boolean decommissioned();

    void markDecommissioned();
}
