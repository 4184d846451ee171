package ballot.cql.schema;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * An immutable snapshot of all keyspaces. {@code version} identifies the content (equal content, equal version on every
 * node), as system.local.schema_version reports it for drivers' schema agreement.
 */
public final class Schema {
    private final Map<String, KeyspaceMetadata> keyspaces;
    private final UUID version;
    private final Map<UUID, TableMetadata> tablesById;

    public Schema(Map<String, KeyspaceMetadata> keyspaces, UUID version) {
        this.keyspaces = Collections.unmodifiableMap(new TreeMap<>(keyspaces));
        this.version = version;
        Map<UUID, TableMetadata> byId = new HashMap<>();
        for (KeyspaceMetadata ks : this.keyspaces.values()) {
            for (TableMetadata t : ks.tables().values()) byId.put(t.id(), t);
        }
        this.tablesById = Map.copyOf(byId);
    }

    public Map<String, KeyspaceMetadata> keyspaces() {
        return keyspaces;
    }

    public UUID version() {
        return version;
    }

    public KeyspaceMetadata keyspace(String name) {
        return keyspaces.get(name);
    }

    /** The table, or null if the keyspace or the table does not exist. */
    public TableMetadata table(String keyspace, String table) {
        KeyspaceMetadata ks = keyspaces.get(keyspace);
        return ks == null ? null : ks.table(table);
    }

    /** The table with this id, or null if it was dropped. */
    public TableMetadata table(UUID id) {
        return tablesById.get(id);
    }
}
