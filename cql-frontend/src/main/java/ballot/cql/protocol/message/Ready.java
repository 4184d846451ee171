package ballot.cql.protocol.message;

/** The connection is ready for queries (after STARTUP), or the REGISTER took effect. */
public record Ready() implements Response {}
