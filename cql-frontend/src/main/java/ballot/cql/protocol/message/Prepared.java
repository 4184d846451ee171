package ballot.cql.protocol.message;

import java.nio.ByteBuffer;

/**
 * The result of PREPARE.
 *
 * @param statementId the id EXECUTE and BATCH will name the statement by
 * @param resultMetadataId identifies {@code resultMetadata}; sent from v5 on
 */
public record Prepared(ByteBuffer statementId, ByteBuffer resultMetadataId, PreparedMetadata variables,
                       RowsMetadata resultMetadata) implements Result {
    public Prepared {
        if (statementId == null || resultMetadataId == null) throw new IllegalArgumentException("prepared ids must be set");
    }

    @Override
    public int kind() {
        return 0x0004;
    }
}
