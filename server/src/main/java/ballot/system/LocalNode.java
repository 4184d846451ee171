package ballot.system;

import java.net.InetAddress;
import java.util.List;
import java.util.UUID;

/**
 * Who this node is, as system.local reports it. {@code RELEASE_VERSION} is what drivers read to decide which protocol
 * versions and schema tables to use: 5.0 makes them use protocol v5, system.peers_v2 and server-side DESCRIBE.
 */
public record LocalNode(String clusterName, UUID hostId, InetAddress address, int storagePort, InetAddress nativeAddress,
        int nativePort, String dataCenter, String rack, List<Long> tokens, int generation) {
    public static final String RELEASE_VERSION = "5.0.0";
    public static final String CQL_VERSION = "3.4.7";
    public static final String PARTITIONER = "org.apache.cassandra.dht.Murmur3Partitioner";
}
