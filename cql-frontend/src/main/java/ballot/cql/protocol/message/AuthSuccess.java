package ballot.cql.protocol.message;

import java.nio.ByteBuffer;

/** Authentication succeeded; the connection is ready. {@code token} may be null. */
public record AuthSuccess(ByteBuffer token) implements Response {}
