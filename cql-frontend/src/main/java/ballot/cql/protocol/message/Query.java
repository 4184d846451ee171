package ballot.cql.protocol.message;

/** Runs a CQL statement given as text. */
public record Query(String query, QueryOptions options) implements Request {}
