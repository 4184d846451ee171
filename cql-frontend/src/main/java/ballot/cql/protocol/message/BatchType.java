package ballot.cql.protocol.message;

/** The kind of a BATCH, with its protocol code. */
public enum BatchType {
    LOGGED,
    UNLOGGED,
    COUNTER;

    public int code() {
        return ordinal();
    }
}
