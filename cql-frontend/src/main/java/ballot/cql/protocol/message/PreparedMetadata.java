package ballot.cql.protocol.message;

import java.util.List;

/**
 * The bind markers of a prepared statement (native_protocol_v5.spec §4.2.5.4).
 *
 * @param partitionKeyIndexes for each partition key column in key order, the index of the marker that binds it;
 *     empty when some key column has no plain marker. Drivers route by it (v4+).
 * @param lwt the statement is conditional (a lightweight transaction); sent as {@link #LWT_FLAG}. Only connections
 *     that negotiated ScyllaDB's SCYLLA_LWT_ADD_METADATA_MARK may see it: the transport clears it for the others.
 */
public record PreparedMetadata(List<ColumnSpec> variables, List<Integer> partitionKeyIndexes, boolean lwt) {
    /**
     * ScyllaDB's mark of a conditional statement in the prepared metadata flags: bit 31, the last one, so that it
     * cannot clash with a flag Cassandra adds (scylladb cql3/result_set.hh, {@code prepared_metadata::flag::LWT}).
     */
    public static final int LWT_FLAG = 1 << 31;

    public PreparedMetadata {
        variables = List.copyOf(variables);
        partitionKeyIndexes = List.copyOf(partitionKeyIndexes);
        for (int index : partitionKeyIndexes)
            if (index < 0 || index >= variables.size())
                throw new IllegalArgumentException("partition key index " + index + " but " + variables.size() + " markers");
    }

    /** Metadata of a statement that is not conditional. */
    public PreparedMetadata(List<ColumnSpec> variables, List<Integer> partitionKeyIndexes) {
        this(variables, partitionKeyIndexes, false);
    }

    /** This metadata as a connection without the LWT extension must see it: Cassandra's bytes. */
    public PreparedMetadata withoutLwt() {
        return lwt ? new PreparedMetadata(variables, partitionKeyIndexes, false) : this;
    }
}
