package ballot.cql.protocol.message;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * The {@code <metadata>} of a Rows result (native_protocol_v5.spec §4.2.5.2). The encoder sets Global_tables_spec by
 * itself when every column comes from the same table.
 *
 * @param columnCount the number of columns of each row, also when the column specs are left out
 * @param columns the column specs; when {@code noMetadata} they are not sent (and may be empty), but still decide
 *     Global_tables_spec, which Cassandra sets with No_metadata too
 * @param noMetadata the client asked to skip metadata (it holds it from PREPARE): only the count is sent
 * @param pagingState set when more pages follow (Has_more_pages), else null
 * @param newMetadataId v5: set when the result metadata differs from the id the client sent in EXECUTE
 *     (Metadata_changed); full metadata is then sent whatever the client asked
 */
public record RowsMetadata(int columnCount, List<ColumnSpec> columns, boolean noMetadata, ByteBuffer pagingState,
                           ByteBuffer newMetadataId) {
    /** No columns and no metadata: the result metadata of a prepared statement that is not a SELECT. */
    public static final RowsMetadata EMPTY = new RowsMetadata(0, List.of(), true, null, null);

    public RowsMetadata {
        columns = List.copyOf(columns);
        if (noMetadata && newMetadataId != null) throw new IllegalArgumentException("no_metadata with a new metadata id");
        if ((!noMetadata || !columns.isEmpty()) && columns.size() != columnCount)
            throw new IllegalArgumentException(columns.size() + " column specs for " + columnCount + " columns");
    }

    public static RowsMetadata of(List<ColumnSpec> columns) {
        return new RowsMetadata(columns.size(), columns, false, null, null);
    }

    public RowsMetadata withPagingState(ByteBuffer state) {
        return new RowsMetadata(columnCount, columns, noMetadata, state, newMetadataId);
    }

    public RowsMetadata withNewMetadataId(ByteBuffer id) {
        if (noMetadata) throw new IllegalStateException("metadata was dropped; it cannot change");
        return new RowsMetadata(columnCount, columns, false, pagingState, id);
    }

    /** Leaves the column specs out of the wire, as the client asked with Skip_metadata, unless the metadata changed. */
    public RowsMetadata withoutColumnSpecsUnlessChanged() {
        if (noMetadata || newMetadataId != null) return this;
        return new RowsMetadata(columnCount, columns, true, pagingState, null);
    }
}
