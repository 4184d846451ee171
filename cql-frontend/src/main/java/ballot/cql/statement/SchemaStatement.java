package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.protocol.message.Result;
import ballot.cql.protocol.message.SchemaChange;
import ballot.cql.protocol.message.VoidResult;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.SystemKeyspaceNames;
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
    static InvalidRequestException systemKeyspace(String keyspace) {
        return new InvalidRequestException("System keyspace '" + keyspace + "' is not user-modifiable");
    }

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
        if (SystemKeyspaceNames.ALL.contains(keyspace)) {
            throw new ballot.cql.error.UnauthorizedException(keyspace + " keyspace is not user-modifiable.");
        }
    }

    static KeyspaceMetadata keyspace(Map<String, KeyspaceMetadata> current, String name) {
        KeyspaceMetadata ks = current.get(name);
        if (ks == null) throw new InvalidRequestException("Keyspace '" + name + "' doesn't exist");
        return ks;
    }
}
