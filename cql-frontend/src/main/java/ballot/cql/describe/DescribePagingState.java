package ballot.cql.describe;

import ballot.cql.error.InvalidRequestException;
import java.nio.ByteBuffer;
import java.util.UUID;

/**
 * Where a paged DESCRIBE continues: the number of rows already sent, valid only for the schema version it was made
 * for. DESCRIBE output is recomputed for every page, so a schema change between pages would shift rows; such a state
 * is refused with Cassandra's message and the client retries. Opaque to clients:
 * <pre>
 * version(2)=1 · schemaVersion(16) · offset(8)
 * </pre>
 */
final class DescribePagingState {
    static final String SCHEMA_CHANGED = "The schema has changed since the previous page of the DESCRIBE statement result. "
            + "Please retry the DESCRIBE statement.";
    private static final short VERSION = 1;
    private static final int SIZE = 2 + 16 + 8;

    private DescribePagingState() {}

    static ByteBuffer encode(UUID schemaVersion, long offset) {
        ByteBuffer out = ByteBuffer.allocate(SIZE);
        out.putShort(VERSION).putLong(schemaVersion.getMostSignificantBits()).putLong(schemaVersion.getLeastSignificantBits()).putLong(offset);
        return out.flip();
    }

    /** The offset {@code state} continues from, if it was made for {@code schemaVersion}. */
    static long offset(ByteBuffer state, UUID schemaVersion) {
        ByteBuffer in = state.duplicate();
        if (in.remaining() != SIZE) throw new InvalidRequestException("Invalid paging state.");
        if (in.getShort() != VERSION) throw new InvalidRequestException("Incompatible paging state");
        UUID version = new UUID(in.getLong(), in.getLong());
        if (!version.equals(schemaVersion)) throw new InvalidRequestException(SCHEMA_CHANGED);
        long offset = in.getLong();
        if (offset < 0) throw new InvalidRequestException("Invalid paging state.");
        return offset;
    }
}
