package ballot.cql.error;

import ballot.cql.ConsistencyLevel;
import ballot.cql.WriteType;

/**
 * Replicas did not acknowledge a write in time. With {@link WriteType#CAS} the outcome is unknown: the proposal
 * may or may not have been accepted. {@code contentions} (CAS) is not sent to clients; see {@code ErrorCodec}.
 */
public final class WriteTimeoutException extends CqlException {
    private final ConsistencyLevel consistency;
    private final int received;
    private final int blockFor;
    private final WriteType writeType;
    private final int contentions;

    public WriteTimeoutException(ConsistencyLevel consistency, int received, int blockFor, WriteType writeType, int contentions) {
        super(ErrorCode.WRITE_TIMEOUT, "Operation timed out - received only " + received + " responses"
                + " (" + blockFor + " required) for " + writeType + " write at consistency " + consistency);
        this.consistency = consistency;
        this.received = received;
        this.blockFor = blockFor;
        this.writeType = writeType;
        this.contentions = contentions;
    }

    public ConsistencyLevel consistency() { return consistency; }
    public int received() { return received; }
    public int blockFor() { return blockFor; }
    public WriteType writeType() { return writeType; }
    public int contentions() { return contentions; }
}
