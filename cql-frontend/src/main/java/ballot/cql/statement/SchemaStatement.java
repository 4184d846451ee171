package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.protocol.message.Result;
import ballot.cql.protocol.message.SchemaChange;
import ballot.cql.protocol.message.VoidResult;
import ballot.cql.schema.KeyspaceMetadata;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

/**
 * A DDL statement: a transformation of the keyspaces, applied under the schema lock by the {@link
 * ballot.cql.spi.SchemaStore}, and the SCHEMA_CHANGE it reports. A transformation that changes nothing (IF NOT EXISTS
 * on an existing object) reports VOID, as Cassandra does.
 */
abstract class SchemaStatement implements CqlStatement {
    static final Pattern NAME = Pattern.compile("\\w+");
    static final int KEYSPACE_NAME_MAX = 48;
    static final int TABLE_NAME_MAX = 222;
    /** Keyspaces that belong to the node and may not be changed by users. */
    static final java.util.Set<String> SYSTEM_KEYSPACES = java.util.Set.of("system", "system_schema", "system_auth",
            "system_distributed", "system_traces", "system_views", "system_virtual_schema");

    /** The system keyspaces each node has of its own (Cassandra's local system keyspaces), as opposed to replicated ones. */
    static final java.util.Set<String> LOCAL_SYSTEM_KEYSPACES = java.util.Set.of("system", "system_schema", "system_views", "system_virtual_schema");

    /** The keyspaces of virtual tables, which cannot be truncated. */
    static final java.util.Set<String> VIRTUAL_KEYSPACES = java.util.Set.of("system_views", "system_virtual_schema");

    static InvalidRequestException systemKeyspace(String keyspace) {
        return new InvalidRequestException("System keyspace '" + keyspace + "' is not user-modifiable");
    }

    /**
     * System keyspaces whose replication ALTER KEYSPACE may change, Cassandra's replicated ones: with replication factor
     * 1 each role lives on one node, and cannot log in while that node is down; traces and system_distributed are
     * given more replicas as data centers are added. Who may is checked before (superusers only for system_auth).
     */
    static final java.util.Set<String> REPLICATION_ALTERABLE_KEYSPACES = java.util.Set.of("system_auth", "system_distributed", "system_traces");

    /** Changes nothing, answers with a void result: a DROP ... IF EXISTS of something that cannot exist. */
    static final SchemaStatement NOTHING = new SchemaStatement() {
        @Override
        public CompletableFuture<Result> execute(QueryContext context) {
            return CompletableFuture.completedFuture(new VoidResult()); // no schema lock to take for no change
        }

        Map<String, KeyspaceMetadata> apply(Map<String, KeyspaceMetadata> current) {
            return current;
        }

        SchemaChange change() {
            throw new IllegalStateException("nothing changed");
        }
    };

    /** The new keyspaces, given the current ones; may return {@code current} to change nothing. */
    abstract Map<String, KeyspaceMetadata> apply(Map<String, KeyspaceMetadata> current);

    /** What the client is told when something changed. */
    abstract SchemaChange change();

    @Override
    public CompletableFuture<Result> execute(QueryContext context) {
        boolean[] changed = {false};
        context.environment().schemas().update(current -> {
            Map<String, KeyspaceMetadata> next = apply(current);
            changed[0] = next != current && !next.equals(current);
            return changed[0] ? next : current;
        });
        Result result = changed[0] ? change() : new VoidResult();
        return CompletableFuture.completedFuture(result);
    }

    static Map<String, KeyspaceMetadata> with(Map<String, KeyspaceMetadata> current, KeyspaceMetadata keyspace) {
        Map<String, KeyspaceMetadata> next = new TreeMap<>(current);
        next.put(keyspace.name(), keyspace);
        return next;
    }

    static void checkUserKeyspace(String keyspace) {
        if (SYSTEM_KEYSPACES.contains(keyspace)) {
            throw new ballot.cql.error.UnauthorizedException(keyspace + " keyspace is not user-modifiable.");
        }
    }

    static KeyspaceMetadata keyspace(Map<String, KeyspaceMetadata> current, String name) {
        KeyspaceMetadata ks = current.get(name);
        if (ks == null) throw new InvalidRequestException("Keyspace '" + name + "' doesn't exist");
        return ks;
    }
}
