package ballot.cql.schema;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * An immutable snapshot of all keyspaces. {@code version} identifies the content (equal content, equal version on every
 * node), as system.local.schema_version reports it for drivers' schema agreement.
 */
public record Schema(Map<String, KeyspaceMetadata> keyspaces, UUID version) {
    public Schema {
        keyspaces = Collections.unmodifiableMap(new TreeMap<>(keyspaces));
    }

    public KeyspaceMetadata keyspace(String name) {
        return keyspaces.get(name);
    }

    /** The table, or null if the keyspace or the table does not exist. */
    public TableMetadata table(String keyspace, String table) {
        KeyspaceMetadata ks = keyspaces.get(keyspace);
        return ks == null ? null : ks.table(table);
    }

    public TableMetadata table(UUID id) {
        for (KeyspaceMetadata ks : keyspaces.values()) {
            for (TableMetadata t : ks.tables().values()) if (t.id().equals(id)) return t;
        }
        return null;
    }
}
