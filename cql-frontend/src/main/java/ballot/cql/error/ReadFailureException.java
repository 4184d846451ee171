package ballot.cql.error;

import ballot.cql.ConsistencyLevel;
import java.net.InetSocketAddress;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Replicas answered a read with a failure rather than data (READ_FAILURE). Each failed replica comes with Cassandra's
 * {@code RequestFailureReason} code, and the message is Cassandra's {@code RequestFailureException} message.
 */
public final class ReadFailureException extends CqlException {
    /** Cassandra's {@code RequestFailureReason}s that Ballot reports. */
    public enum Reason {
        UNKNOWN(0), INDEX_NOT_AVAILABLE(6);

        private final int code;

        Reason(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }
    }

    private final ConsistencyLevel consistency;
    private final int received;
    private final int blockFor;
    private final Map<InetSocketAddress, Reason> failures;

    public ReadFailureException(ConsistencyLevel consistency, int received, int blockFor, Map<InetSocketAddress, Reason> failures) {
        super(ErrorCode.READ_FAILURE, "Operation failed - received " + received + " responses and " + failures.size() + " failures: "
                + failures.entrySet().stream().map(e -> e.getValue() + " from " + endpoint(e.getKey())).collect(Collectors.joining(", ")));
        this.consistency = consistency;
        this.received = received;
        this.blockFor = blockFor;
        this.failures = Collections.unmodifiableMap(new LinkedHashMap<>(failures));
    }

    /** {@code /address:port}, as Cassandra prints an {@code InetAddressAndPort}. */
    private static String endpoint(InetSocketAddress address) {
        return "/" + address.getAddress().getHostAddress() + ":" + address.getPort();
    }

    public ConsistencyLevel consistency() { return consistency; }
    public int received() { return received; }
    public int blockFor() { return blockFor; }
    public Map<InetSocketAddress, Reason> failures() { return failures; }
}
