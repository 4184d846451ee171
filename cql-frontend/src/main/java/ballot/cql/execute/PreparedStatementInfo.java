package ballot.cql.execute;

import java.nio.ByteBuffer;

/**
 * A statement this node holds prepared, as {@code system.prepared_statements} shows it: its id (what PREPARED returned
 * and EXECUTE names), the keyspace it was prepared in (null without one) and its text.
 */
public record PreparedStatementInfo(ByteBuffer id, String keyspace, String query) {}
