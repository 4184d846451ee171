package ballot.schema;

import ballot.cql.protocol.message.SchemaChange;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.TableMetadata;
import ballot.cql.type.CqlType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The SCHEMA_CHANGE events between two schemas, in the order Cassandra pushes them: for a dropped keyspace its tables
 * and types first; within a keyspace, drops, then creations, then the keyspace update, then alterations.
 */
final class SchemaEvents {
    private SchemaEvents() {}

    static List<SchemaChange> between(Map<String, KeyspaceMetadata> before, Map<String, KeyspaceMetadata> after) {
        List<SchemaChange> events = new ArrayList<>();
        for (KeyspaceMetadata old : before.values()) {
            if (after.containsKey(old.name())) continue;
            for (String table : old.tables().keySet()) events.add(SchemaChange.table(SchemaChange.Change.DROPPED, old.name(), table));
            for (String type : old.types().keySet()) events.add(SchemaChange.type(SchemaChange.Change.DROPPED, old.name(), type));
            events.add(SchemaChange.keyspace(SchemaChange.Change.DROPPED, old.name()));
        }
        for (KeyspaceMetadata ks : after.values()) {
            KeyspaceMetadata old = before.get(ks.name());
            if (old == null) {
                events.add(SchemaChange.keyspace(SchemaChange.Change.CREATED, ks.name()));
                for (String type : ks.types().keySet()) events.add(SchemaChange.type(SchemaChange.Change.CREATED, ks.name(), type));
                for (String table : ks.tables().keySet()) events.add(SchemaChange.table(SchemaChange.Change.CREATED, ks.name(), table));
                continue;
            }
            for (String table : old.tables().keySet()) {
                if (!ks.tables().containsKey(table)) events.add(SchemaChange.table(SchemaChange.Change.DROPPED, ks.name(), table));
            }
            for (String type : old.types().keySet()) {
                if (!ks.types().containsKey(type)) events.add(SchemaChange.type(SchemaChange.Change.DROPPED, ks.name(), type));
            }
            for (String type : ks.types().keySet()) {
                if (!old.types().containsKey(type)) events.add(SchemaChange.type(SchemaChange.Change.CREATED, ks.name(), type));
            }
            for (String table : ks.tables().keySet()) {
                if (!old.tables().containsKey(table)) events.add(SchemaChange.table(SchemaChange.Change.CREATED, ks.name(), table));
            }
            if (!old.replication().equals(ks.replication()) || old.durableWrites() != ks.durableWrites()) {
                events.add(SchemaChange.keyspace(SchemaChange.Change.UPDATED, ks.name()));
            }
            for (Map.Entry<String, CqlType> e : ks.types().entrySet()) {
                CqlType previous = old.types().get(e.getKey());
                if (previous != null && !previous.equals(e.getValue())) events.add(SchemaChange.type(SchemaChange.Change.UPDATED, ks.name(), e.getKey()));
            }
            for (Map.Entry<String, TableMetadata> e : ks.tables().entrySet()) {
                TableMetadata previous = old.tables().get(e.getKey());
                if (previous != null && !sameTable(previous, e.getValue())) {
                    events.add(SchemaChange.table(SchemaChange.Change.UPDATED, ks.name(), e.getKey()));
                }
            }
        }
        return events;
    }

    private static boolean sameTable(TableMetadata a, TableMetadata b) {
        return a.id().equals(b.id()) && a.columns().equals(b.columns()) && a.params().equals(b.params())
                && Objects.equals(a.dropped(), b.dropped()) && a.indexes().equals(b.indexes());
    }
}
