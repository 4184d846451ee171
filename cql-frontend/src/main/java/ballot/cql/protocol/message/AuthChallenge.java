package ballot.cql.protocol.message;

import java.nio.ByteBuffer;

/** A further SASL challenge; the client answers with another AUTH_RESPONSE. {@code token} may be null. */
public record AuthChallenge(ByteBuffer token) implements Response {}
