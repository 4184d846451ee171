package ballot.cql.protocol.message;

/** Asks which STARTUP options the server supports; answered with {@link Supported}. */
public record Options() implements Request {}
