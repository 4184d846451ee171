package ballot.cql.statement;

import ballot.cql.ConsistencyLevel;
import ballot.cql.ResultMemory;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.spi.DataCoordinator;
import ballot.cql.spi.Permissions;
import ballot.cql.spi.Roles;
import ballot.cql.spi.StatementSource;

/**
 * One execution of a statement: its options and bound values, the client's current keyspace, the time, and the
 * coordinator it reads and writes through. The write timestamp is chosen once, on first use, so every cell a statement
 * writes carries the same one. Contexts derived for parts of a statement (a batch's statements) share its time,
 * timestamp, coordinator and warnings.
 */
public final class QueryContext {
    private final QueryEnvironment environment;
    private final String keyspace;
    private final QueryOptions options;
    private final Bindings bindings;
    private final DataCoordinator data;
    private final int nowInSec;
    private long timestamp = Long.MIN_VALUE;
    private final java.util.List<String> warnings;
    /** What the client sent, for nodes that rebuild this execution's compare-and-sets (null: not described). */
    private final StatementSource source;
    /** The client connection's share of the result memory, which this execution's rows are counted in. */
    private final ResultMemory.Account memory;
    /** The roles and the client's logged-in role (null: anonymous), for the role statements; null roles: none (internal). */
    private final Login login;

    /** Who runs a statement: {@code role} logged in (null: anonymous, no authentication), with the node's {@code roles}. */
    record Login(Roles roles, Permissions permissions, String role) {}

    QueryContext(QueryEnvironment environment, String keyspace, QueryOptions options, Bindings bindings) {
        this(environment, keyspace, options, bindings, environment.data(), options.nowInSeconds() != null
                ? options.nowInSeconds() : (int) (environment.currentTimeMillis().getAsLong() / 1000), new java.util.ArrayList<>(), null,
                ResultMemory.Account.UNMETERED, null);
    }

    private QueryContext(QueryEnvironment environment, String keyspace, QueryOptions options, Bindings bindings,
            DataCoordinator data, int nowInSec, java.util.List<String> warnings, StatementSource source, ResultMemory.Account memory,
            Login login) {
        this.environment = environment;
        this.keyspace = keyspace;
        this.options = options;
        this.bindings = bindings;
        this.data = data;
        this.nowInSec = nowInSec;
        this.warnings = warnings;
        this.source = source;
        this.memory = memory;
        this.login = login;
    }

    /**
     * This execution described by the statements the client sent ({@code batchType} null: one statement), so that the
     * node that runs one of its transaction's steps can rebuild it (docs/txn.md §11.1).
     */
    public QueryContext describedBy(java.util.List<StatementSource.Statement> statements, ballot.cql.protocol.message.BatchType batchType) {
        StatementSource described = new StatementSource(keyspace, statements, batchType, options.consistency(),
                options.serialConsistency(), nowInSec);
        QueryContext c = new QueryContext(environment, keyspace, options, bindings, data, nowInSec, warnings, described, memory, login);
        c.timestamp = timestamp;
        return c;
    }

    /** What the client sent, or null when the execution is not described (internal statements). */
    StatementSource source() {
        return source;
    }

    /** A context for {@code statement} with {@code options}' values matched to its markers. */
    public static QueryContext of(QueryEnvironment environment, String keyspace, QueryOptions options, CqlStatement statement) {
        return new QueryContext(environment, keyspace, options,
                Bindings.of(options.values(), options.valueNames(), statement.markerNames()));
    }

    QueryContext withBindings(Bindings newBindings) {
        QueryContext c = new QueryContext(environment, keyspace, options, newBindings, data, nowInSec, warnings, source, memory, login);
        c.timestamp = timestamp();
        return c;
    }

    QueryContext withTimestamp(long newTimestamp) {
        QueryContext c = new QueryContext(environment, keyspace, options, bindings, data, nowInSec, warnings, source, memory, login);
        c.timestamp = newTimestamp;
        return c;
    }

    /** This execution with a deadline {@code timeout} from now for everything it asks the coordinator (USING TIMEOUT). */
    QueryContext within(java.time.Duration timeout) {
        QueryContext c = new QueryContext(environment, keyspace, options, bindings, environment.data().within(timeout), nowInSec, warnings,
                source, memory, login);
        c.timestamp = timestamp;
        return c;
    }

    /**
     * This execution with one deadline for all it reads, the configured read timeout ({@code range}: range timeout)
     * from now, unless USING TIMEOUT set one: a statement that reads in several chunks ends within its timeout as a
     * whole, as in Cassandra.
     */
    QueryContext withReadDeadline(boolean range) {
        QueryContext c = new QueryContext(environment, keyspace, options, bindings, data.withReadDeadline(range), nowInSec, warnings,
                source, memory, login);
        c.timestamp = timestamp;
        return c;
    }

    /** This execution with its result rows counted in {@code account} (a client connection's). */
    public QueryContext withMemory(ResultMemory.Account account) {
        QueryContext c = new QueryContext(environment, keyspace, options, bindings, data, nowInSec, warnings, source, account, login);
        c.timestamp = timestamp;
        return c;
    }

    /** This execution run by {@code role} (null: anonymous) of {@code roles}, with {@code permissions}: a client's statement. */
    public QueryContext loggedIn(Roles roles, Permissions permissions, String role) {
        QueryContext c = new QueryContext(environment, keyspace, options, bindings, data, nowInSec, warnings, source, memory,
                new Login(roles, permissions, role));
        c.timestamp = timestamp;
        return c;
    }

    /** Who runs this execution; IllegalStateException for an internal one, which runs no role statement. */
    Login login() {
        if (login == null) throw new IllegalStateException("a role statement outside a client's request");
        return login;
    }

    /** Where this execution's result rows are counted. */
    ResultMemory.Account memory() {
        return memory;
    }

    /**
     * This execution reading at SERIAL, in one page, through {@code snapshot}: a transaction's returning SELECT over
     * the rows the transaction read (TransactionStatement).
     */
    QueryContext onSnapshot(ballot.cql.spi.LwtCoordinator snapshot) {
        QueryEnvironment e = new QueryEnvironment(environment.data(), snapshot, environment.transactions(), environment.schemas(),
                environment.timestampMicros(), environment.currentTimeMillis(), environment.node(), environment.guardrails());
        return new QueryContext(e, keyspace, TransactionStatement.snapshotOptions(options), bindings, data, nowInSec, warnings, source, memory, login);
    }

    /** The coordinator this execution reads and writes through. */
    DataCoordinator data() {
        return data;
    }

    /** Tells the client something about its request (sent as response warnings). */
    void warn(String warning) {
        warnings.add(warning);
    }

    public java.util.List<String> warnings() {
        return warnings;
    }

    public QueryEnvironment environment() {
        return environment;
    }

    /** The client's keyspace (USE or the v5 per-request keyspace), or null. */
    public String keyspace() {
        return keyspace;
    }

    public QueryOptions options() {
        return options;
    }

    Bindings bindings() {
        return bindings;
    }

    public ConsistencyLevel consistency() {
        return options.consistency();
    }

    public int nowInSec() {
        return nowInSec;
    }

    /** The request's default timestamp (client-side timestamp) or a fresh server timestamp, fixed for this execution. */
    public long timestamp() {
        if (timestamp == Long.MIN_VALUE) {
            Long fromClient = options.defaultTimestamp();
            if (fromClient != null && fromClient == Long.MIN_VALUE) {
                throw new InvalidRequestException("Out of bound timestamp, must be in [" + (Long.MIN_VALUE + 1) + ", " + Long.MAX_VALUE + "]");
            }
            timestamp = fromClient != null ? fromClient : environment.timestampMicros().getAsLong();
        }
        return timestamp;
    }
}
