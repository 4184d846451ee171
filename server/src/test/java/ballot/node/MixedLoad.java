package ballot.node;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The load beside the LWT registers in the fault runs: plain QUORUM writes of new rows, each remembered once
 * acknowledged, and transfers between accounts in {@code BEGIN TRANSACTION}. Afterwards every acknowledged row must be
 * there, and the accounts must hold what they opened with in all: a transfer is atomic whatever its client was told.
 * One request at a time each; a failed request is not retried.
 */
final class MixedLoad {
    static final int ACCOUNTS = 8;
    static final long OPENING = 1_000;
    private static final Duration VERIFY_WAIT = Duration.ofSeconds(60);

    private final CqlSession session;
    private final List<Integer> acknowledged = java.util.Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger writesFailed = new AtomicInteger();
    private final AtomicInteger transfersTold = new AtomicInteger();
    private final AtomicInteger transfersFailed = new AtomicInteger();
    private PreparedStatement insert;
    private PreparedStatement transfer;

    MixedLoad(CqlSession session) {
        this.session = session;
    }

    void createSchema() {
        session.execute("CREATE KEYSPACE mixed WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
        session.execute("CREATE TABLE mixed.rows (k int PRIMARY KEY, v int)");
        session.execute("CREATE TABLE mixed.accounts (id int PRIMARY KEY, balance bigint)");
        for (int a = 0; a < ACCOUNTS; a++)
            session.execute(SimpleStatement.newInstance("INSERT INTO mixed.accounts (id, balance) VALUES (?, ?)", a, OPENING)
                    .setConsistencyLevel(ConsistencyLevel.QUORUM));
        insert = session.prepare(SimpleStatement.newInstance("INSERT INTO mixed.rows (k, v) VALUES (?, ?)")
                .setConsistencyLevel(ConsistencyLevel.QUORUM));
        transfer = session.prepare("""
                BEGIN TRANSACTION
                  LET src = (SELECT balance FROM mixed.accounts WHERE id = ?);
                  IF src IS NOT NULL AND src.balance >= ? THEN
                    UPDATE mixed.accounts SET balance -= ? WHERE id = ?;
                    UPDATE mixed.accounts SET balance += ? WHERE id = ?;
                  END IF
                COMMIT TRANSACTION""");
    }

    /** New rows at QUORUM until {@code stop}. */
    Callable<Void> writer(BooleanSupplier stop) {
        return () -> {
            for (int k = 0; !stop.getAsBoolean(); k++) {
                try {
                    session.execute(insert.bind(k, k));
                    acknowledged.add(k);
                } catch (DriverException e) {
                    writesFailed.incrementAndGet(); // may or may not have been applied: not checked
                }
            }
            return null;
        };
    }

    /** Transfers between random accounts until {@code stop}. */
    Callable<Void> transfers(BooleanSupplier stop, long seed) {
        return () -> {
            SplittableRandom random = new SplittableRandom(seed);
            while (!stop.getAsBoolean()) {
                int from = random.nextInt(ACCOUNTS);
                int to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                long amount = 1 + random.nextInt(50);
                try {
                    session.execute(transfer.bind(from, amount, amount, from, amount, to));
                    transfersTold.incrementAndGet();
                } catch (DriverException e) {
                    transfersFailed.incrementAndGet(); // atomic either way: the total must hold
                }
            }
            return null;
        };
    }

    /** Below these the checks would hold vacuously: a broken write or transfer path fails every request. */
    private static final int ACKNOWLEDGED_MIN = 10;

    /** What is wrong after the run (empty: nothing); retries each read until the cluster answers. */
    List<String> verify() throws InterruptedException {
        List<String> failures = new ArrayList<>();
        if (acknowledged.size() < ACKNOWLEDGED_MIN)
            failures.add("only " + acknowledged.size() + " plain writes acknowledged: the check proves nothing");
        if (transfersTold.get() < ACKNOWLEDGED_MIN)
            failures.add("only " + transfersTold + " transfers answered: the total proves nothing");
        PreparedStatement read = session.prepare(SimpleStatement.newInstance("SELECT v FROM mixed.rows WHERE k = ?")
                .setConsistencyLevel(ConsistencyLevel.QUORUM));
        List<Integer> keys;
        synchronized (acknowledged) {
            keys = List.copyOf(acknowledged);
        }
        for (int k : keys) {
            Row row = retrying(() -> session.execute(read.bind(k)).one(), "read of row " + k);
            if (row == null) failures.add("acknowledged row " + k + " is missing");
        }
        long total = 0;
        PreparedStatement balance = session.prepare(SimpleStatement.newInstance("SELECT balance FROM mixed.accounts WHERE id = ?")
                .setConsistencyLevel(ConsistencyLevel.SERIAL));
        for (int a = 0; a < ACCOUNTS; a++) {
            int account = a;
            Row row = retrying(() -> session.execute(balance.bind(account)).one(), "SERIAL read of account " + a);
            total += row == null ? 0 : row.getLong("balance");
        }
        if (total != ACCOUNTS * OPENING) failures.add("the accounts hold " + total + " in all, not " + ACCOUNTS * OPENING);
        return failures;
    }

    @Override
    public String toString() {
        return acknowledged.size() + " plain writes acknowledged (" + writesFailed + " failed), " + transfersTold
                + " transfers answered (" + transfersFailed + " failed)";
    }

    private static <T> T retrying(java.util.function.Supplier<T> read, String what) throws InterruptedException {
        long deadline = System.nanoTime() + VERIFY_WAIT.toNanos();
        while (true) {
            try {
                return read.get();
            } catch (DriverException e) {
                if (System.nanoTime() > deadline) throw new AssertionError(what + " did not succeed after the run", e);
                Thread.sleep(200);
            }
        }
    }
}
