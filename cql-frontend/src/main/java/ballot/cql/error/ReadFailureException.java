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
    private final ConsistencyLevel consistency;
    private final int received;
    private final int blockFor;
    private final Map<InetSocketAddress, RequestFailureReason> failures;

    public ReadFailureException(ConsistencyLevel consistency, int received, int blockFor, Map<InetSocketAddress, RequestFailureReason> failures) {
        super(ErrorCode.READ_FAILURE, message(received, failures));
        this.consistency = consistency;
        this.received = received;
        this.blockFor = blockFor;
        this.failures = Collections.unmodifiableMap(new LinkedHashMap<>(failures));
    }

    /** Cassandra's {@code RequestFailureException} message; {@code /address:port} as it prints an {@code InetAddressAndPort}. */
    static String message(int received, Map<InetSocketAddress, RequestFailureReason> failures) {
        return "Operation failed - received " + received + " responses and " + failures.size() + " failures: "
                + failures.entrySet().stream().map(e -> e.getValue() + " from /" + e.getKey().getAddress().getHostAddress() + ":"
                        + e.getKey().getPort()).collect(Collectors.joining(", "));
    }

    public ConsistencyLevel consistency() { return consistency; }
    public int received() { return received; }
    public int blockFor() { return blockFor; }
    public Map<InetSocketAddress, RequestFailureReason> failures() { return failures; }
}
