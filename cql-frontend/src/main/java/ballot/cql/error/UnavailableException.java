package ballot.cql.error;

import ballot.cql.ConsistencyLevel;
import ballot.cql.WriteType;

/** Too few replicas were alive to even try the request at its consistency level. */
public final class UnavailableException extends CqlException {
    private final ConsistencyLevel consistency;
    private final int required;
    private final int alive;

    public UnavailableException(ConsistencyLevel consistency, int required, int alive) {
        super(ErrorCode.UNAVAILABLE, "Cannot achieve consistency level " + consistency); // the counts go in their own fields
        this.consistency = consistency;
        this.required = required;
        this.alive = alive;
    }

    public ConsistencyLevel consistency() { return consistency; }
    public int required() { return required; }
    public int alive() { return alive; }
}
