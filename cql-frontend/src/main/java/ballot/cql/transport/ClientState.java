package ballot.cql.transport;

import ballot.cql.ResultMemory;
import ballot.cql.protocol.ProtocolVersion;
import ballot.cql.protocol.message.Startup;
import java.net.SocketAddress;
import java.util.Map;
import java.util.Set;

/**
 * What the server knows about one client connection, fixed at STARTUP except the current keyspace. Shared with the
 * {@link RequestHandler}, which may read and set it from any thread.
 */
public final class ClientState {
    private final ProtocolVersion protocolVersion;
    private final SocketAddress remoteAddress;
    private final Map<String, String> startupOptions;
    private final String compression;
    private final Set<ProtocolExtension> extensions;
    private final ResultMemory.Account memory;
    private volatile String keyspace;
    private volatile String role;

    public ClientState(ProtocolVersion protocolVersion, SocketAddress remoteAddress, Map<String, String> startupOptions,
                       String compression, Set<ProtocolExtension> extensions, ResultMemory.Account memory) {
        this.protocolVersion = protocolVersion;
        this.remoteAddress = remoteAddress;
        this.startupOptions = Map.copyOf(startupOptions);
        this.compression = compression;
        this.extensions = Set.copyOf(extensions);
        this.memory = memory;
    }

    /** The connection's share of the node's result memory: a statement's rows are counted in a lease on it. */
    public ResultMemory.Account memory() {
        return memory;
    }

    public ProtocolVersion protocolVersion() {
        return protocolVersion;
    }

    public SocketAddress remoteAddress() {
        return remoteAddress;
    }

    /** Every option of the client's STARTUP, as sent. */
    public Map<String, String> startupOptions() {
        return startupOptions;
    }

    /** As the client sent it in STARTUP's DRIVER_NAME, or null. */
    public String driverName() {
        return startupOptions.get(Startup.DRIVER_NAME);
    }

    /** As the client sent it in STARTUP's DRIVER_VERSION, or null. */
    public String driverVersion() {
        return startupOptions.get(Startup.DRIVER_VERSION);
    }

    /** The negotiated compression ("lz4"), or null. */
    public String compression() {
        return compression;
    }

    /** True if the client asked for {@code extension} in STARTUP: it is in force on this connection. */
    public boolean uses(ProtocolExtension extension) {
        return extensions.contains(extension);
    }

    /** The keyspace set by the last USE on this connection, or null. */
    public String keyspace() {
        return keyspace;
    }

    public void keyspace(String keyspace) {
        this.keyspace = keyspace;
    }

    /** The role logged in on this connection; null when the node does not authenticate (Cassandra's anonymous user). */
    public String role() {
        return role;
    }

    /** Set once, when authentication succeeds, before any statement of the connection runs. */
    void loggedIn(String role) {
        this.role = role;
    }

    @Override
    public String toString() {
        return "client[" + remoteAddress + " v" + protocolVersion.code() + " driver=" + driverName() + " " + driverVersion()
                + " keyspace=" + keyspace + " role=" + role + "]";
    }
}
