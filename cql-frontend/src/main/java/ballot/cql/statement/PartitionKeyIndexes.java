package ballot.cql.statement;

import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.TableMetadata;
import java.util.ArrayList;
import java.util.List;

/** Which bind marker binds each partition key column, so that drivers can route a prepared statement by token. */
final class PartitionKeyIndexes {
    private PartitionKeyIndexes() {}

    /** For each key column in key order the index of the marker of its {@code k = ?} relation; empty if one has none. */
    static List<Integer> of(TableMetadata table, Markers markers) {
        List<ColumnSpec> specs = markers.specs();
        List<Integer> indexes = new ArrayList<>();
        for (ColumnMetadata c : table.partitionKey()) {
            int found = -1;
            for (int i = 0; i < specs.size() && found < 0; i++) {
                ColumnSpec spec = specs.get(i);
                if (markers.receiverName(i).equals(c.name()) && spec.type().equals(c.type()) && spec.table().equals(table.name())) found = i;
            }
            if (found < 0) return List.of();
            indexes.add(found);
        }
        return indexes;
    }
}
