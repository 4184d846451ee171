package ballot.cluster;

import ballot.net.InternodeTls;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * What the cluster layer needs from the node's configuration and identity. Build with {@link #builder}; settings that
 * NodeConfig lacks ({@code gossipInterval}, {@code joinTimeout}, {@code leftRetention}) have defaults. An invalid value
 * is an {@link IllegalArgumentException} naming the setting.
 *
 * @param listenAddress internode address (listen_address, storage_port); port 0 picks a free port (tests)
 * @param seeds         internode addresses of the seeds; this node's own address may be among them
 * @param generation    the persisted generation, higher at every start
 * @param tokens        the persisted tokens
 * @param gossipInterval how often a node gossips (1 s, as in Cassandra)
 * @param joinTimeout   how long a starting node keeps trying the seeds before it refuses to start (30 s)
 * @param leftRetention how long a LEFT node's state is kept and relayed before it is forgotten (3 days)
 * @param internodeTls  TLS on internode connections (server_encryption_options); null: plaintext
 */
public record ClusterOptions(String clusterName, UUID hostId, int generation, List<Long> tokens, InetSocketAddress listenAddress,
        List<InetSocketAddress> seeds, double phiConvictThreshold, String dataCenter, String rack, InetAddress nativeAddress,
        int nativePort, String releaseVersion, Duration gossipInterval, Duration joinTimeout, Duration leftRetention,
        InternodeTls internodeTls) {

    public ClusterOptions {
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(hostId, "hostId");
        Objects.requireNonNull(listenAddress, "listenAddress");
        Objects.requireNonNull(dataCenter, "dataCenter");
        Objects.requireNonNull(rack, "rack");
        Objects.requireNonNull(nativeAddress, "nativeAddress");
        Objects.requireNonNull(releaseVersion, "releaseVersion");
        tokens = List.copyOf(tokens);
        seeds = List.copyOf(seeds);
        if (tokens.isEmpty()) throw new IllegalArgumentException("tokens must not be empty");
        if (generation < 0) throw new IllegalArgumentException("generation must not be negative, was " + generation);
        if (!(phiConvictThreshold >= 1)) throw new IllegalArgumentException("phi_convict_threshold must be at least 1, was " + phiConvictThreshold);
        if (nativePort < 0 || nativePort > 65535) throw new IllegalArgumentException("native port must be in [0, 65535], was " + nativePort);
        positive("gossipInterval", gossipInterval);
        positive("joinTimeout", joinTimeout);
        positive("leftRetention", leftRetention);
    }

    private static void positive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) throw new IllegalArgumentException(name + " must be positive, was " + value);
    }

    public static Builder builder(String clusterName, UUID hostId, int generation, List<Long> tokens, InetSocketAddress listenAddress) {
        return new Builder(clusterName, hostId, generation, tokens, listenAddress);
    }

    /**
     * Reads seeds as NodeConfig has them: {@code host} or {@code host:port} (IPv6 in brackets), the port defaulting to
     * {@code defaultPort}. A name that does not resolve is an error that names it.
     */
    public static List<InetSocketAddress> parseSeeds(List<String> seeds, int defaultPort) {
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (String seed : seeds) {
            String value = seed.trim();
            String host = value;
            int port = defaultPort;
            int colon = value.lastIndexOf(':');
            boolean bracketed = value.startsWith("[");
            if (colon > 0 && (!bracketed ? value.indexOf(':') == colon : value.lastIndexOf(']') < colon)) {
                host = value.substring(0, colon);
                try {
                    port = Integer.parseInt(value.substring(colon + 1));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("seed '" + seed + "' has a bad port");
                }
            }
            if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
            if (port < 1 || port > 65535) throw new IllegalArgumentException("seed '" + seed + "' has port " + port + "; must be in [1, 65535]");
            try {
                addresses.add(new InetSocketAddress(InetAddress.getByName(host), port));
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("seed '" + seed + "' does not resolve: " + e.getMessage(), e);
            }
        }
        return addresses;
    }

    public static final class Builder {
        private final String clusterName;
        private final UUID hostId;
        private final int generation;
        private final List<Long> tokens;
        private final InetSocketAddress listenAddress;
        private List<InetSocketAddress> seeds = List.of();
        private double phiConvictThreshold = 8.0;
        private String dataCenter = "datacenter1";
        private String rack = "rack1";
        private InetAddress nativeAddress;
        private int nativePort = 9042;
        private String releaseVersion = "5.0.0";
        private Duration gossipInterval = Duration.ofSeconds(1);
        private Duration joinTimeout = Duration.ofSeconds(30);
        private Duration leftRetention = Duration.ofDays(3);
        private InternodeTls internodeTls;

        private Builder(String clusterName, UUID hostId, int generation, List<Long> tokens, InetSocketAddress listenAddress) {
            this.clusterName = clusterName;
            this.hostId = hostId;
            this.generation = generation;
            this.tokens = tokens;
            this.listenAddress = listenAddress;
            this.nativeAddress = listenAddress.getAddress();
        }

        public Builder seeds(List<InetSocketAddress> value) { seeds = value; return this; }
        public Builder phiConvictThreshold(double value) { phiConvictThreshold = value; return this; }
        public Builder dataCenter(String value) { dataCenter = value; return this; }
        public Builder rack(String value) { rack = value; return this; }
        public Builder nativeAddress(InetAddress address, int port) { nativeAddress = address; nativePort = port; return this; }
        public Builder releaseVersion(String value) { releaseVersion = value; return this; }
        public Builder gossipInterval(Duration value) { gossipInterval = value; return this; }
        public Builder joinTimeout(Duration value) { joinTimeout = value; return this; }
        public Builder leftRetention(Duration value) { leftRetention = value; return this; }
        public Builder internodeTls(InternodeTls value) { internodeTls = value; return this; }

        public ClusterOptions build() {
            return new ClusterOptions(clusterName, hostId, generation, tokens, listenAddress, seeds, phiConvictThreshold,
                    dataCenter, rack, nativeAddress, nativePort, releaseVersion, gossipInterval, joinTimeout, leftRetention,
                    internodeTls);
        }
    }
}
