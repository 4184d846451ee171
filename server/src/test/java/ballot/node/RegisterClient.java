package ballot.node;

import ballot.paxos.sim.LinearizabilityChecker.Kind;
import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.NodeUnavailableException;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.servererrors.QueryValidationException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * One client of the register workload: one operation at a time, on a random register, until told to stop. It does
 * compare-and-set from the value it last saw ({@code UPDATE ... IF v = ?}), insert-if-absent and SERIAL reads, each
 * writing a value no other operation writes, and records every operation with its outcome in the register's history.
 *
 * <p>Outcomes: an answer is definite; UNAVAILABLE, or no connection to send on, had no effect and is not recorded;
 * anything else on a write (WriteTimeout of type CAS or SIMPLE, a client timeout, a lost connection, a server error)
 * may or may not have taken effect, and is recorded as unknown. A read without an answer constrains nothing. Writes
 * are never retried by the driver (statements are not idempotent): a retried CAS would be a second operation the
 * history does not show.
 */
final class RegisterClient implements Callable<Void> {
    /** The driver's execution profile of the workload's statements (its request timeout). */
    static final String PROFILE = "workload";

    /** The workload's prepared statements: insert-if-absent {@code (k, v)}, CAS {@code (v, k, expected)}, read {@code (k)}. */
    record Statements(PreparedStatement insert, PreparedStatement cas, PreparedStatement read) {}

    private final int id;
    private final CqlSession session;
    private final Statements statements;
    private final List<RegisterHistory> registers;
    private final AtomicInteger values;
    private final SplittableRandom random;
    private final long startNanos;
    private final BooleanSupplier stop;
    private final int unknownWritesMax;
    private final Map<String, Integer> errors;
    /** The value this client last saw in each register (null: absent); no entry when it does not know. */
    private final Map<Integer, Integer> seen = new HashMap<>();

    /**
     * @param values source of written values, shared by all clients so that no two writes write the same value
     * @param unknownWritesMax unknown writes a register may collect before clients only read it: each one is an
     *     operation the checker must place somewhere, so they are bounded to keep the search small
     * @param errors counts of errors by kind, shared by all clients, for the run's summary
     */
    RegisterClient(int id, CqlSession session, Statements statements, List<RegisterHistory> registers, AtomicInteger values,
            long seed, long startNanos, BooleanSupplier stop, int unknownWritesMax, ConcurrentHashMap<String, Integer> errors) {
        this.id = id;
        this.session = session;
        this.statements = statements;
        this.registers = registers;
        this.values = values;
        this.random = new SplittableRandom(seed);
        this.startNanos = startNanos;
        this.stop = stop;
        this.unknownWritesMax = unknownWritesMax;
        this.errors = errors;
    }

    @Override
    public Void call() throws InterruptedException {
        while (!stop.getAsBoolean()) {
            int k = random.nextInt(registers.size());
            RegisterHistory history = registers.get(k);
            int dice = random.nextInt(100);
            if (dice < 25 || history.unknownWrites() >= unknownWritesMax) read(history);
            else if (dice < 35 || seen.get(k) == null) write(history, null);
            else write(history, seen.get(k));
        }
        return null;
    }

    private void read(RegisterHistory history) throws InterruptedException {
        int k = history.register;
        BoundStatement statement = statements.read().bind(k).setExecutionProfileName(PROFILE)
                .setConsistencyLevel(DefaultConsistencyLevel.SERIAL).setIdempotent(true);
        long invoke = now();
        try {
            Row row = session.execute(statement).one();
            long complete = now();
            Integer value = row == null || row.isNull("v") ? null : row.getInt("v");
            history.definite(id, Kind.READ, null, null, value, false, invoke, complete);
            learn(k, value);
        } catch (DriverException e) {
            failed(e, history, null, null, invoke);
        }
    }

    /** Insert-if-absent when {@code expected} is null, else compare-and-set from {@code expected}. */
    private void write(RegisterHistory history, Integer expected) throws InterruptedException {
        int k = history.register;
        int value = values.incrementAndGet();
        BoundStatement statement = (expected == null ? statements.insert().bind(k, value) : statements.cas().bind(value, k, expected))
                .setExecutionProfileName(PROFILE).setConsistencyLevel(DefaultConsistencyLevel.QUORUM)
                .setSerialConsistencyLevel(DefaultConsistencyLevel.SERIAL).setIdempotent(false);
        long invoke = now();
        try {
            ResultSet result = session.execute(statement);
            long complete = now();
            boolean applied = result.wasApplied(); // before one(): it reads the first row
            Row row = result.one();
            // [applied]=true comes with the previous values (or none, as Cassandra answers): the condition held.
            // [applied]=false comes with the current values, or none when the row does not exist.
            boolean reported = row != null && row.getColumnDefinitions().contains("v");
            Integer observed = reported && !row.isNull("v") ? Integer.valueOf(row.getInt("v")) : reported || !applied ? null : expected;
            history.definite(id, Kind.CAS, expected, value, observed, applied, invoke, complete);
            learn(k, applied ? Integer.valueOf(value) : observed);
        } catch (DriverException e) {
            failed(e, history, expected, value, invoke);
        }
    }

    /**
     * After a failure the client forgets the register's value and backs off a little, as clients do; a failed write is
     * recorded as unknown unless it had no effect, and a failed read is not recorded.
     */
    private void failed(DriverException e, RegisterHistory history, Integer expected, Integer value, long invoke)
            throws InterruptedException {
        if (e instanceof QueryValidationException) throw e; // the workload's own mistake, not a fault's effect
        errors.merge(kind(e), 1, Integer::sum);
        seen.remove(history.register);
        if (value != null && !hadNoEffect(e)) history.unknown(id, Kind.CAS, expected, value, invoke);
        Thread.sleep(random.nextInt(50, 150));
    }

    /**
     * For the summary: the error's class, with the write type of a WriteTimeout, the errors behind AllNodesFailed,
     * and what closed a connection.
     */
    private static String kind(Throwable e) {
        if (e instanceof WriteTimeoutException w) return "WriteTimeout(" + w.getWriteType() + ")";
        if (e instanceof ClosedConnectionException && e.getCause() != null)
            return e.getClass().getSimpleName() + "(" + e.getCause().getClass().getSimpleName() + ")";
        if (e instanceof AllNodesFailedException all && !all.getAllErrors().isEmpty()) {
            return "AllNodesFailed" + all.getAllErrors().values().stream().flatMap(List::stream).map(RegisterClient::kind).toList();
        }
        return e.getClass().getSimpleName();
    }

    /**
     * Nothing was sent to any replica: every node the driver tried answered UNAVAILABLE (a coordinator's answer before
     * it sends anything) or had no connection to send on.
     */
    private static boolean hadNoEffect(DriverException e) {
        if (e instanceof UnavailableException) return true;
        if (!(e instanceof AllNodesFailedException all)) return false;
        return all.getAllErrors().values().stream().flatMap(List::stream)
                .allMatch(t -> t instanceof UnavailableException || t instanceof NodeUnavailableException);
    }

    private void learn(int k, Integer value) {
        seen.put(k, value);
    }

    private long now() {
        return System.nanoTime() - startNanos;
    }
}
