package ballot.cql.schema;

import ballot.cql.type.CqlType;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * An immutable keyspace definition: replication options (class as a fully qualified Cassandra strategy name), tables
 * and user-defined types, each sorted by name.
 */
public record KeyspaceMetadata(String name, Map<String, String> replication, boolean durableWrites,
        Map<String, TableMetadata> tables, Map<String, CqlType> types) {

    public KeyspaceMetadata {
        replication = Collections.unmodifiableMap(new TreeMap<>(replication));
        tables = Collections.unmodifiableMap(new TreeMap<>(tables));
        types = Collections.unmodifiableMap(new TreeMap<>(types));
    }

    public TableMetadata table(String tableName) {
        return tables.get(tableName);
    }

    /** The table that has an index of this name (index names are unique in a keyspace), or null. */
    public TableMetadata tableOfIndex(String indexName) {
        for (TableMetadata t : tables.values()) if (t.index(indexName) != null) return t;
        return null;
    }

    public CqlType type(String typeName) {
        return types.get(typeName);
    }

    public KeyspaceMetadata withTable(TableMetadata table) {
        Map<String, TableMetadata> next = new TreeMap<>(tables);
        next.put(table.name(), table);
        return new KeyspaceMetadata(name, replication, durableWrites, next, types);
    }

    public KeyspaceMetadata withoutTable(String tableName) {
        Map<String, TableMetadata> next = new TreeMap<>(tables);
        next.remove(tableName);
        return new KeyspaceMetadata(name, replication, durableWrites, next, types);
    }

    public KeyspaceMetadata withTypes(Map<String, CqlType> newTypes, Map<String, TableMetadata> newTables) {
        return new KeyspaceMetadata(name, replication, durableWrites, newTables, newTypes);
    }

    public KeyspaceMetadata withReplication(Map<String, String> newReplication, boolean newDurableWrites) {
        return new KeyspaceMetadata(name, newReplication, newDurableWrites, tables, types);
    }
}
