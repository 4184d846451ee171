package ballot.cluster;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.UUID;

/**
 * What the cluster knows about one node, as system.local / system.peers report it and as token-aware routing needs it.
 * {@code internode} is the node's listen address and storage port; {@code nativeAddress}/{@code nativePort} serve CQL.
 */
public record NodeInfo(UUID hostId, InetSocketAddress internode, InetAddress nativeAddress, int nativePort,
        String dataCenter, String rack, List<Long> tokens, NodeStatus status, UUID schemaVersion, String releaseVersion) {}
