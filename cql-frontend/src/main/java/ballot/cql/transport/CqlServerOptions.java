package ballot.cql.transport;

import ballot.cql.ResultMemory;
import ballot.cql.protocol.BodyCompressor;
import ballot.cql.protocol.ProtocolVersion;
import ballot.cql.protocol.message.Startup;
import ballot.cql.trace.Tracer;
import io.netty.handler.ssl.SslContext;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Settings of the native-protocol server. Build with {@link #builder()}; every setting has a default.
 *
 * @param bindAddress where to listen; default 127.0.0.1
 * @param port where to listen; default 9042, 0 for an ephemeral port
 * @param frameBytesMax the largest request envelope body accepted, in bytes; a larger one is a protocol error that
 *     closes its connection. Default 16 MiB
 * @param inFlightRequestsMax requests of one connection being handled at once; past it the connection stops reading
 * @param cqlVersion the CQL version announced in SUPPORTED
 * @param extraSupportedOptions further SUPPORTED keys, after the standard ones and the {@link ProtocolExtension}s
 * @param authenticator who may connect; default everyone
 * @param observer hears every request's opcode and every error code sent (metrics); default none
 * @param tracer opens a trace session for each statement that asks for one or is sampled; default {@link Tracer#OFF}
 * @param connectionsMax client connections open at once, from all addresses; past it a new one is closed at once
 *     (Cassandra's {@code native_transport_max_concurrent_connections}); 0 or less: no limit, the default
 * @param connectionsPerAddressMax the same for one client address
 *     ({@code native_transport_max_concurrent_connections_per_ip}); 0 or less: no limit, the default
 * @param resultMemory what query results may hold of the heap, per connection and in all; default
 *     {@link #defaultResultMemory()}
 * @param partialFrameBytesMax bytes all connections may hold in frames they have begun and not finished sending; a
 *     connection whose incomplete frames take the server past it is closed. Default a quarter of the direct memory,
 *     at least 64 MiB
 * @param frameAssemblyTimeout how long a connection may hold an incomplete frame without completing any; then it is
 *     closed. Default 30 s
 * @param tls the TLS context clients connect through; null (the default): plaintext only
 * @param tlsOptional with {@code tls}: plaintext clients are served too, on the same port
 */
public record CqlServerOptions(InetAddress bindAddress, int port, int frameBytesMax, int inFlightRequestsMax,
                               String cqlVersion, Map<String, List<String>> extraSupportedOptions,
                               Authenticator authenticator, RequestObserver observer, Tracer tracer, int connectionsMax,
                               int connectionsPerAddressMax, ResultMemory resultMemory, long partialFrameBytesMax,
                               java.time.Duration frameAssemblyTimeout, SslContext tls, boolean tlsOptional) {
    public static final int FRAME_BYTES_MAX_DEFAULT = 16 * 1024 * 1024;

    public CqlServerOptions {
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(authenticator, "authenticator");
        Objects.requireNonNull(observer, "observer");
        Objects.requireNonNull(tracer, "tracer");
        Objects.requireNonNull(resultMemory, "resultMemory");
        Objects.requireNonNull(frameAssemblyTimeout, "frameAssemblyTimeout");
        extraSupportedOptions = Map.copyOf(extraSupportedOptions);
        if (tlsOptional && tls == null) throw new IllegalArgumentException("tlsOptional needs a TLS context");
    }

    public static Builder builder() {
        return new Builder();
    }

    public static CqlServerOptions defaults() {
        return builder().build();
    }

    /** A quarter of the direct memory (where Netty keeps what connections read), at least 64 MiB. */
    public static long defaultPartialFrameBytesMax() {
        return Math.max(64L << 20, io.netty.util.internal.PlatformDependent.maxDirectMemory() / 4);
    }

    /** A quarter of the heap for results in all, and half of that for one connection's. */
    public static ResultMemory defaultResultMemory() {
        long node = Math.max(16L << 20, Runtime.getRuntime().maxMemory() / 4);
        return new ResultMemory(node, node / 2);
    }

    /**
     * The SUPPORTED answer to OPTIONS: CQL_VERSION, COMPRESSION and PROTOCOL_VERSIONS as Cassandra sends them, the
     * {@link ProtocolExtension}s, then the extra options. The Python driver fails with a KeyError if CQL_VERSION or
     * COMPRESSION is missing.
     */
    public Map<String, List<String>> supportedOptions() {
        Map<String, List<String>> supported = new LinkedHashMap<>();
        supported.put(Startup.CQL_VERSION, List.of(cqlVersion));
        supported.put(Startup.COMPRESSION, BodyCompressor.available());
        supported.put(Startup.PROTOCOL_VERSIONS, ProtocolVersion.labels());
        for (ProtocolExtension extension : ProtocolExtension.values()) supported.put(extension.key(), extension.parameters());
        supported.putAll(extraSupportedOptions);
        return supported;
    }

    public static final class Builder {
        private InetAddress bindAddress;
        private int port = 9042;
        private int frameBytesMax = FRAME_BYTES_MAX_DEFAULT;
        private int inFlightRequestsMax = 1024;
        private String cqlVersion = "3.4.7";
        private final Map<String, List<String>> extraSupportedOptions = new LinkedHashMap<>();
        private Authenticator authenticator = Authenticator.NONE;
        private RequestObserver observer = RequestObserver.NONE;
        private Tracer tracer = Tracer.OFF;
        private int connectionsMax;
        private int connectionsPerAddressMax;
        private ResultMemory resultMemory;
        private long partialFrameBytesMax = defaultPartialFrameBytesMax();
        private java.time.Duration frameAssemblyTimeout = java.time.Duration.ofSeconds(30);
        private SslContext tls;
        private boolean tlsOptional;

        private Builder() {
            try {
                bindAddress = InetAddress.getByName("127.0.0.1");
            } catch (UnknownHostException e) {
                throw new AssertionError(e);
            }
        }

        public Builder bindAddress(InetAddress address) {
            this.bindAddress = Objects.requireNonNull(address, "bindAddress");
            return this;
        }

        public Builder port(int port) {
            if (port < 0 || port > 65535) throw new IllegalArgumentException("port must be in [0, 65535], was " + port);
            this.port = port;
            return this;
        }

        public Builder frameBytesMax(int bytes) {
            if (bytes < 1024) throw new IllegalArgumentException("frameBytesMax must be at least 1024, was " + bytes);
            this.frameBytesMax = bytes;
            return this;
        }

        public Builder inFlightRequestsMax(int requests) {
            if (requests < 1) throw new IllegalArgumentException("inFlightRequestsMax must be at least 1, was " + requests);
            this.inFlightRequestsMax = requests;
            return this;
        }

        public Builder cqlVersion(String version) {
            if (!version.startsWith("3.")) throw new IllegalArgumentException("cqlVersion must be 3.x, was " + version);
            this.cqlVersion = version;
            return this;
        }

        /** Adds a SUPPORTED key; the standard keys and those of the implemented extensions cannot be replaced. */
        public Builder supportedOption(String key, List<String> values) {
            if (key.equals(Startup.CQL_VERSION) || key.equals(Startup.COMPRESSION) || key.equals(Startup.PROTOCOL_VERSIONS)
                    || ProtocolExtension.isKey(key))
                throw new IllegalArgumentException("supportedOption " + key + " is set by the server itself");
            extraSupportedOptions.put(key, List.copyOf(values));
            return this;
        }

        public Builder authenticator(Authenticator authenticator) {
            this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
            return this;
        }

        public Builder observer(RequestObserver observer) {
            this.observer = Objects.requireNonNull(observer, "observer");
            return this;
        }

        public Builder tracer(Tracer tracer) {
            this.tracer = Objects.requireNonNull(tracer, "tracer");
            return this;
        }

        /** Client connections open at once, in all and per client address; 0 or less: no limit. */
        public Builder connectionsMax(int total, int perAddress) {
            this.connectionsMax = total;
            this.connectionsPerAddressMax = perAddress;
            return this;
        }

        public Builder resultMemory(ResultMemory memory) {
            this.resultMemory = Objects.requireNonNull(memory, "resultMemory");
            return this;
        }

        /** Bytes all connections may hold in incomplete frames, and how long one may hold one without completing any. */
        public Builder partialFrames(long bytesMax, java.time.Duration assemblyTimeout) {
            if (bytesMax < 1024) throw new IllegalArgumentException("partialFrameBytesMax must be at least 1024, was " + bytesMax);
            if (assemblyTimeout.isNegative() || assemblyTimeout.isZero())
                throw new IllegalArgumentException("frameAssemblyTimeout must be positive, was " + assemblyTimeout);
            this.partialFrameBytesMax = bytesMax;
            this.frameAssemblyTimeout = assemblyTimeout;
            return this;
        }

        /** Clients connect through {@code context}; if {@code optional}, plaintext clients are served too. */
        public Builder tls(SslContext context, boolean optional) {
            this.tls = Objects.requireNonNull(context, "tls");
            this.tlsOptional = optional;
            return this;
        }

        public CqlServerOptions build() {
            return new CqlServerOptions(bindAddress, port, frameBytesMax, inFlightRequestsMax, cqlVersion,
                    extraSupportedOptions, authenticator, observer, tracer, connectionsMax, connectionsPerAddressMax,
                    resultMemory != null ? resultMemory : defaultResultMemory(), partialFrameBytesMax, frameAssemblyTimeout,
                    tls, tlsOptional);
        }
    }
}
