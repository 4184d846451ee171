package ballot.cql.protocol.message;

import java.util.List;

/**
 * The bind markers of a prepared statement (native_protocol_v5.spec §4.2.5.4).
 *
 * @param partitionKeyIndexes for each partition key column in key order, the index of the marker that binds it;
 *     empty when some key column has no plain marker. Drivers route by it (v4+).
 */
public record PreparedMetadata(List<ColumnSpec> variables, List<Integer> partitionKeyIndexes) {
    public PreparedMetadata {
        variables = List.copyOf(variables);
        partitionKeyIndexes = List.copyOf(partitionKeyIndexes);
        for (int index : partitionKeyIndexes)
            if (index < 0 || index >= variables.size())
                throw new IllegalArgumentException("partition key index " + index + " but " + variables.size() + " markers");
    }
}
