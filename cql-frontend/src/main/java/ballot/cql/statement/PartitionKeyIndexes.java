package ballot.cql.statement;

import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.TableMetadata;
import java.util.ArrayList;
import java.util.List;

/** Which bind marker binds each partition key column, so that drivers can route a prepared statement by token. */
final class PartitionKeyIndexes {
    private PartitionKeyIndexes() {}

    /**
     * For each key column in key order the index of the last marker bound to the column itself ({@code k = ?}, an
     * element of {@code k IN (?, ?)}, a value of INSERT), as Cassandra gives it; empty if a key column has none.
     */
    static List<Integer> of(TableMetadata table, Markers markers) {
        List<ColumnSpec> specs = markers.specs();
        List<Integer> indexes = new ArrayList<>();
        for (ColumnMetadata c : table.partitionKey()) {
            int found = -1;
            for (int i = 0; i < specs.size(); i++) {
                if (bindsColumn(table, c, specs.get(i), markers.receiverName(i))) found = i;
            }
            if (found < 0) return List.of();
            indexes.add(found);
        }
        return indexes;
    }

    /**
     * A batch's: those of its first statement's table over all its markers (the PREPARED result sends them only when
     * every marker is of that table).
     */
    static List<Integer> ofBatch(List<? extends CasPart> statements, Markers markers) {
        return statements.isEmpty() ? List.of() : of(statements.get(0).table(), markers);
    }

    private static boolean bindsColumn(TableMetadata table, ColumnMetadata c, ColumnSpec spec, String receiver) {
        return receiver.equals(c.name()) && spec.type().equals(c.type())
                && spec.keyspace().equals(table.keyspace()) && spec.table().equals(table.name());
    }
}
