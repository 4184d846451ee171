package ballot.cql.schema;

import java.util.HashSet;
import java.util.Set;

/**
 * Cassandra's system keyspaces by kind ({@code SchemaConstants}): the node's own (local and virtual) and the replicated
 * ones, the only system keyspaces whose replication a user may change.
 */
public final class SystemKeyspaceNames {
    /** Keyspaces that exist only as virtual keyspaces: not in system_schema, only in system_virtual_schema. */
    public static final Set<String> VIRTUAL = Set.of("system_views", "system_virtual_schema");

    /** The system keyspaces each node has of its own, virtual ones included. */
    public static final Set<String> LOCAL = union(Set.of("system", "system_schema"), VIRTUAL);

    /** The system keyspaces replicated as a user's are. */
    public static final Set<String> REPLICATED = Set.of("system_auth", "system_distributed", "system_traces");

    /** Every system keyspace. */
    public static final Set<String> ALL = union(LOCAL, REPLICATED);

    private SystemKeyspaceNames() {}

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> out = new HashSet<>(a);
        out.addAll(b);
        return Set.copyOf(out);
    }
}
