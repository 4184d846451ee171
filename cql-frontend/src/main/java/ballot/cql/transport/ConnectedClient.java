package ballot.cql.transport;

import java.net.InetSocketAddress;
import java.util.Map;

/**
 * One client connection as {@code system_views.clients} shows it (Cassandra 4.0+): a snapshot taken when the table is
 * read.
 *
 * @param stage        {@code established} (no STARTUP yet), {@code authenticating}, {@code ready} or {@code closed}
 * @param username     the logged-in role; {@code anonymous} when the node does not authenticate; null before login
 * @param protocolVersion the version STARTUP chose, 0 before it
 * @param options      every STARTUP option as the client sent it (CQL_VERSION, DRIVER_NAME, APPLICATION_NAME, ...), null
 *                     before STARTUP
 * @param keyspace     the keyspace of the connection's last USE, or null
 * @param requestCount the requests received on the connection, STARTUP and OPTIONS included
 * @param sslProtocol  the TLS protocol, or null on a plaintext connection (and {@code sslCipherSuite} likewise)
 */
public record ConnectedClient(InetSocketAddress remote, String stage, String username, int protocolVersion,
                              Map<String, String> options, String driverName, String driverVersion, String keyspace, long requestCount,
                              String sslProtocol, String sslCipherSuite) {
    /** Cassandra's user name for every connection of a node that does not authenticate. */
    public static final String ANONYMOUS = "anonymous";
}
