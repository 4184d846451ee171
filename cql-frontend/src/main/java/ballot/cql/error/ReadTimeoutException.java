package ballot.cql.error;

import ballot.cql.ConsistencyLevel;
import ballot.cql.WriteType;

/** Replicas did not answer a read in time. {@code dataPresent} says whether the replica asked for data answered. */
public final class ReadTimeoutException extends CqlException {
    private final ConsistencyLevel consistency;
    private final int received;
    private final int blockFor;
    private final boolean dataPresent;

    public ReadTimeoutException(ConsistencyLevel consistency, int received, int blockFor, boolean dataPresent) {
        super(ErrorCode.READ_TIMEOUT, "Operation timed out - received only " + received + " responses"
                + " (" + blockFor + " required) for read at consistency " + consistency);
        this.consistency = consistency;
        this.received = received;
        this.blockFor = blockFor;
        this.dataPresent = dataPresent;
    }

    public ConsistencyLevel consistency() { return consistency; }
    public int received() { return received; }
    public int blockFor() { return blockFor; }
    public boolean dataPresent() { return dataPresent; }
}
