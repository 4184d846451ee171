package ballot.cql.protocol.message;

/** The server requires SASL authentication with the named authenticator before the connection is ready. */
public record Authenticate(String authenticator) implements Response {}
