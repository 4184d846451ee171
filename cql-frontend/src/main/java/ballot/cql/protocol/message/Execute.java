package ballot.cql.protocol.message;

import java.nio.ByteBuffer;

/**
 * Runs a prepared statement. {@code resultMetadataId} is sent from v5 on (null before): the id of the result
 * metadata the client holds, so that the server can tell it when that metadata changed.
 */
public record Execute(ByteBuffer statementId, ByteBuffer resultMetadataId, QueryOptions options) implements Request {}
