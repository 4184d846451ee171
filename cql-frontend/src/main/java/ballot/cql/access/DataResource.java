package ballot.cql.access;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What data permissions are granted on, as in Cassandra: all keyspaces ({@code keyspace} null), one keyspace
 * ({@code table} null) or one table. Stored under Cassandra's names: {@code data}, {@code data/ks}, {@code data/ks/t}.
 * A permission granted on a resource holds on everything below it (docs/security.md, "Authorization").
 */
public record DataResource(String keyspace, String table) implements Resource {
    private static final String ROOT_NAME = "data";
    public static final DataResource ALL_KEYSPACES = new DataResource(null, null);
    private static final Set<Permission> KEYSPACE_PERMISSIONS = Collections.unmodifiableSet(EnumSet.of(Permission.CREATE, Permission.ALTER,
            Permission.DROP, Permission.SELECT, Permission.MODIFY, Permission.AUTHORIZE));
    /** No CREATE: a table exists before anything is granted on it. */
    private static final Set<Permission> TABLE_PERMISSIONS = Collections.unmodifiableSet(EnumSet.of(Permission.ALTER, Permission.DROP,
            Permission.SELECT, Permission.MODIFY, Permission.AUTHORIZE));

    public DataResource {
        if (table != null && keyspace == null) throw new IllegalArgumentException("table " + table + " without a keyspace");
    }

    public static DataResource keyspace(String keyspace) {
        return new DataResource(keyspace, null);
    }

    public static DataResource table(String keyspace, String table) {
        return new DataResource(keyspace, table);
    }

    /** The resource stored as {@code name} ({@link #name}); IllegalArgumentException for anything else. */
    public static DataResource fromName(String name) {
        String[] parts = name.split("/", -1);
        if (!parts[0].equals(ROOT_NAME) || parts.length > 3 || List.of(parts).contains(""))
            throw new IllegalArgumentException("not a data resource name: '" + name + "' (expected data, data/ks or data/ks/table)");
        return new DataResource(parts.length > 1 ? parts[1] : null, parts.length > 2 ? parts[2] : null);
    }

    @Override
    public String name() {
        if (keyspace == null) return ROOT_NAME;
        return table == null ? ROOT_NAME + "/" + keyspace : ROOT_NAME + "/" + keyspace + "/" + table;
    }

    public boolean isTable() {
        return table != null;
    }

    @Override
    public DataResource parent() {
        if (keyspace == null) return null;
        return table == null ? ALL_KEYSPACES : keyspace(keyspace);
    }

    @Override
    public Set<Permission> applicablePermissions() {
        return applicablePermissions(table != null);
    }

    /** The permissions that mean something on a table ({@code table}), or on a keyspace or all keyspaces. */
    public static Set<Permission> applicablePermissions(boolean table) {
        return table ? TABLE_PERMISSIONS : KEYSPACE_PERMISSIONS;
    }

    /** As Cassandra prints it, in LIST PERMISSIONS and in errors. */
    @Override
    public String toString() {
        if (keyspace == null) return "<all keyspaces>";
        return table == null ? "<keyspace " + keyspace + ">" : "<table " + keyspace + "." + table + ">";
    }
}
