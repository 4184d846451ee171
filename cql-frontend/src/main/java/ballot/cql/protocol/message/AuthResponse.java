package ballot.cql.protocol.message;

import java.nio.ByteBuffer;

/** A SASL token answering AUTHENTICATE or AUTH_CHALLENGE; {@code token} may be null. */
public record AuthResponse(ByteBuffer token) implements Request {}
