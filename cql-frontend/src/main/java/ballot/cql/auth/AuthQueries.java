package ballot.cql.auth;

import ballot.cql.ConsistencyLevel;
import ballot.cql.error.CqlException;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Result;
import ballot.cql.statement.CqlStatement;
import ballot.cql.statement.Preparer;
import ballot.cql.statement.QueryContext;
import ballot.cql.statement.QueryEnvironment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;

/**
 * The node's own statements on system_auth, run as ordinary CQL through its coordinator, so that the auth tables are
 * replicated as the keyspace says. Shared by {@link RoleStore} and {@link PermissionStore}.
 */
final class AuthQueries {
    private static final String KEYSPACE = "system_auth";

    private final QueryEnvironment environment;
    private final Preparer preparer;

    AuthQueries(QueryEnvironment environment) {
        this.environment = environment;
        this.preparer = Preparer.forAuthTables(environment);
    }

    CqlStatement prepare(String cql) {
        return preparer.prepare(cql, null);
    }

    /** Runs {@code statement} with {@code values} bound in order; a CQL error (Unavailable, a timeout) is thrown as itself. */
    Result run(CqlStatement statement, ConsistencyLevel consistency, Object... values) {
        List<ByteBuffer> bound = new ArrayList<>(values.length);
        for (int i = 0; i < values.length; i++)
            bound.add(values[i] == null ? null : statement.variables().get(i).type().decompose(values[i]));
        try {
            return statement.execute(QueryContext.of(environment, KEYSPACE, QueryOptions.of(consistency, bound), statement)).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof CqlException cql) throw cql;
            throw e;
        }
    }

    /** Column {@code i} of a row {@code statement} returned, as a Java value; null if the cell is null. */
    static Object column(CqlStatement statement, ByteBuffer[] row, int i) {
        return row[i] == null ? null : statement.resultMetadata().columns().get(i).type().compose(row[i].duplicate());
    }
}
