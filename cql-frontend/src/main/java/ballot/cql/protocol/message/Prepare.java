package ballot.cql.protocol.message;

/** Prepares a statement; answered with a {@link Prepared} result. {@code keyspace} (v5 only) may be null. */
public record Prepare(String query, String keyspace) implements Request {
    public Prepare(String query) {
        this(query, null);
    }
}
