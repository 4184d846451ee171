package ballot.storage;

/** An index a query needs is not queryable on this replica yet: its build has not finished (Cassandra's message). */
public final class IndexNotAvailableException extends RuntimeException {
    public IndexNotAvailableException(String index) {
        super("The secondary index '" + index + "' is not yet available", null, false, false);
    }
}
