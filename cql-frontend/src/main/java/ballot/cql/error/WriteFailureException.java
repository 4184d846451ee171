package ballot.cql.error;

import ballot.cql.ConsistencyLevel;
import ballot.cql.WriteType;
import java.net.InetSocketAddress;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Replicas answered a write with a failure, so that its consistency level cannot be met (WRITE_FAILURE). The message is
 * Cassandra's {@code RequestFailureException} message, followed by what the failing replicas said (a full disk, a
 * storage error) when it is known.
 */
public final class WriteFailureException extends CqlException {
    private final ConsistencyLevel consistency;
    private final int received;
    private final int blockFor;
    private final Map<InetSocketAddress, RequestFailureReason> failures;
    private final WriteType writeType;

    public WriteFailureException(ConsistencyLevel consistency, int received, int blockFor,
            Map<InetSocketAddress, RequestFailureReason> failures, WriteType writeType, String cause) {
        super(ErrorCode.WRITE_FAILURE, ReadFailureException.message(received, failures) + (cause == null ? "" : " (" + cause + ")"));
        this.consistency = consistency;
        this.received = received;
        this.blockFor = blockFor;
        this.failures = Collections.unmodifiableMap(new LinkedHashMap<>(failures));
        this.writeType = writeType;
    }

    public ConsistencyLevel consistency() { return consistency; }
    public int received() { return received; }
    public int blockFor() { return blockFor; }
    public Map<InetSocketAddress, RequestFailureReason> failures() { return failures; }
    public WriteType writeType() { return writeType; }
}
