package ballot.net;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;

/**
 * Settings of {@link NettyMessaging}. Build with {@link #builder(String, UUID, InetSocketAddress)}; every other setting
 * has a default, and an invalid value is an {@link IllegalArgumentException} that names the setting and the value.
 *
 * @param clusterName      peers with another cluster name are refused at the handshake
 * @param hostId           this node's host id, sent in the handshake
 * @param listenAddress    where to accept connections (port 0: an ephemeral port); outbound sockets bind to its IP
 * @param ioThreads        Netty event-loop threads
 * @param handlerThreads   threads that run request handlers
 * @param handlerQueueMax  requests waiting for a handler thread; beyond it the peer gets OVERLOADED
 * @param callbackThreads  threads that complete request futures (replies, failures, timeouts)
 * @param frameBytesMax    the largest frame sent or accepted
 * @param outboundQueueMessagesMax per peer: requests accepted but not yet written to the socket
 * @param outboundQueueBytesMax    per peer: bytes of those requests
 * @param inboundRequestsMax       per connection: requests in progress before the connection stops reading
 * @param connectTimeout   for a TCP connect, and again for the handshake
 * @param reconnectDelayMin first back-off after a failed connect; doubles up to {@code reconnectDelayMax}
 * @param reconnectDelayMax longest back-off, also used after a refusal
 * @param tls              TLS on every internode connection; null (the default): plaintext
 */
public record MessagingOptions(String clusterName, UUID hostId, InetSocketAddress listenAddress, int ioThreads,
        int handlerThreads, int handlerQueueMax, int callbackThreads, int frameBytesMax, int outboundQueueMessagesMax,
        long outboundQueueBytesMax, int inboundRequestsMax, Duration connectTimeout, Duration reconnectDelayMin,
        Duration reconnectDelayMax, InternodeTls tls) {

    public MessagingOptions {
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(hostId, "hostId");
        Objects.requireNonNull(listenAddress, "listenAddress");
        if (listenAddress.isUnresolved()) throw new IllegalArgumentException("listenAddress must be resolved, was " + listenAddress);
        if (listenAddress.getAddress().isAnyLocalAddress()) throw new IllegalArgumentException("listenAddress must be this node's own address, not the wildcard " + listenAddress);
        if (clusterName.isEmpty() || clusterName.length() > 1000) throw new IllegalArgumentException("clusterName must have 1 to 1000 characters, was '" + clusterName + "'");
        positive("ioThreads", ioThreads);
        positive("handlerThreads", handlerThreads);
        positive("handlerQueueMax", handlerQueueMax);
        positive("callbackThreads", callbackThreads);
        if (frameBytesMax < WireFormat.HANDSHAKE_BYTES_MAX) throw new IllegalArgumentException("frameBytesMax must be at least " + WireFormat.HANDSHAKE_BYTES_MAX + ", was " + frameBytesMax);
        positive("outboundQueueMessagesMax", outboundQueueMessagesMax);
        if (outboundQueueBytesMax < frameBytesMax) throw new IllegalArgumentException("outboundQueueBytesMax must be at least frameBytesMax (" + frameBytesMax + "), was " + outboundQueueBytesMax);
        positive("inboundRequestsMax", inboundRequestsMax);
        positive("connectTimeout", connectTimeout);
        positive("reconnectDelayMin", reconnectDelayMin);
        positive("reconnectDelayMax", reconnectDelayMax);
        if (reconnectDelayMax.compareTo(reconnectDelayMin) < 0) throw new IllegalArgumentException("reconnectDelayMax (" + reconnectDelayMax + ") must not be below reconnectDelayMin (" + reconnectDelayMin + ")");
    }

    public static Builder builder(String clusterName, UUID hostId, InetSocketAddress listenAddress) {
        return new Builder(clusterName, hostId, listenAddress);
    }

    private static void positive(String name, long value) {
        if (value < 1) throw new IllegalArgumentException(name + " must be positive, was " + value);
    }

    private static void positive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) throw new IllegalArgumentException(name + " must be positive, was " + value);
    }

    public static final class Builder {
        private final String clusterName;
        private final UUID hostId;
        private final InetSocketAddress listenAddress;
        private int ioThreads = 2;
        private int handlerThreads = 4;
        private int handlerQueueMax = 4096;
        private int callbackThreads = 2;
        private int frameBytesMax = 16 << 20;
        private int outboundQueueMessagesMax = 8192;
        private long outboundQueueBytesMax = 64L << 20;
        private int inboundRequestsMax = 1024;
        private Duration connectTimeout = Duration.ofSeconds(2);
        private Duration reconnectDelayMin = Duration.ofMillis(100);
        private Duration reconnectDelayMax = Duration.ofSeconds(2);
        private InternodeTls tls;

        private Builder(String clusterName, UUID hostId, InetSocketAddress listenAddress) {
            this.clusterName = clusterName;
            this.hostId = hostId;
            this.listenAddress = listenAddress;
        }

        public Builder ioThreads(int value) { ioThreads = value; return this; }
        public Builder handlerThreads(int value) { handlerThreads = value; return this; }
        public Builder handlerQueueMax(int value) { handlerQueueMax = value; return this; }
        public Builder callbackThreads(int value) { callbackThreads = value; return this; }
        public Builder frameBytesMax(int value) { frameBytesMax = value; return this; }
        public Builder outboundQueueMessagesMax(int value) { outboundQueueMessagesMax = value; return this; }
        public Builder outboundQueueBytesMax(long value) { outboundQueueBytesMax = value; return this; }
        public Builder inboundRequestsMax(int value) { inboundRequestsMax = value; return this; }
        public Builder connectTimeout(Duration value) { connectTimeout = value; return this; }
        public Builder reconnectDelayMin(Duration value) { reconnectDelayMin = value; return this; }
        public Builder reconnectDelayMax(Duration value) { reconnectDelayMax = value; return this; }
        public Builder tls(InternodeTls value) { tls = value; return this; }

        public MessagingOptions build() {
            return new MessagingOptions(clusterName, hostId, listenAddress, ioThreads, handlerThreads, handlerQueueMax,
                    callbackThreads, frameBytesMax, outboundQueueMessagesMax, outboundQueueBytesMax, inboundRequestsMax,
                    connectTimeout, reconnectDelayMin, reconnectDelayMax, tls);
        }
    }
}
