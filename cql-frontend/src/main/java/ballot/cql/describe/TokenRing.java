package ballot.cql.describe;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Which nodes own which token ranges, as DESCRIBE CLUSTER reports it for the keyspace in use. */
@FunctionalInterface
public interface TokenRing {
    /**
     * For each token range of {@code keyspace}, keyed by the range's end token in decimal, the endpoints of its
     * replicas written as Cassandra writes them ({@code /127.0.0.1:7000}).
     */
    Map<String, List<String>> rangeOwnership(String keyspace);

    /** A ring of one node, at {@code address} and internode {@code storagePort}, that owns every range of every keyspace. */
    static TokenRing singleNode(List<Long> tokens, InetAddress address, int storagePort) {
        String host = address.getHostAddress();
        String endpoint = "/" + (address instanceof Inet6Address ? "[" + host + "]" : host) + ":" + storagePort;
        Map<String, List<String>> ownership = new TreeMap<>();
        // Each token ends the range that starts after the previous token (the lowest one ends the wrapping range).
        for (long token : tokens) ownership.put(Long.toString(token), List.of(endpoint));
        Map<String, List<String>> result = Map.copyOf(ownership);
        return keyspace -> result;
    }
}
