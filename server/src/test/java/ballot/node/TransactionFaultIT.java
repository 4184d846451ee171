package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Multi-partition transactions on a real cluster under faults (docs/txn.md §11.1): three node processes at RF 3;
 * clients move money between a few accounts with BEGIN TRANSACTION and with conditional batches over two partitions,
 * each transfer also writing one ledger entry per account leg, while a node is killed with SIGKILL and restarted and
 * another is frozen with SIGSTOP (a killed node takes the transactions it coordinated with it: others recover them).
 * Meanwhile and after, read-only transactions read every account at once: each must see the same total. After the
 * cluster heals: the total is unchanged, no balance is negative, every transfer is applied at both accounts or at
 * neither (its ledger legs come in pairs), each account's balance is its opening balance plus its ledger legs, and
 * every transfer a client was told applied is in the ledger, every one told refused is not.
 *
 * <p>{@code -Dballot.txn.seconds=N} (default 30) sets the length of the load; {@code -Dballot.txn.seed=S} repeats the
 * clients' and faults' choices; {@code -Dballot.keepNodeFiles=true} keeps the nodes' logs and data.
 */
class TransactionFaultIT {
    private static final int ACCOUNTS = 8;
    private static final int OPENING = 1000;
    private static final int CLIENTS = 3;
    /** A read-only transaction of every account locks them all: one now and then, not back to back. */
    private static final long SNAPSHOT_PAUSE_MILLIS = 300;
    private static final Duration CYCLE = Duration.ofSeconds(20);
    private static final Duration SETTLE_WAIT = Duration.ofSeconds(90);

    private Path directory;
    private final List<NodeProcess> nodes = new ArrayList<>();
    private CqlSession session;

    @BeforeEach
    void startCluster() throws Exception {
        directory = Files.createTempDirectory("ballot-txn");
        nodes.addAll(NodeProcess.startCluster(directory, 3));
        session = CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", nodes.get(0).nativePort))
                .withLocalDatacenter("datacenter1")
                .withConfigLoader(NodeProcess.driverConfig().withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(5)).build())
                .build();
    }

    @AfterEach
    void stopCluster() throws Exception {
        if (session != null) session.close();
        for (NodeProcess n : nodes) n.close();
        if (Boolean.getBoolean("ballot.keepNodeFiles")) System.out.println("node files kept in " + directory);
        else NodeProcess.delete(directory);
    }

    /** What a client learnt of one transfer. */
    private enum Told { APPLIED, REFUSED, UNKNOWN }

    @Test
    void transfersStayAtomicAndTotalsConstantThroughKillsAndPauses() throws Exception {
        Duration run = Duration.ofSeconds(Long.getLong("ballot.txn.seconds", 30));
        long seed = Long.getLong("ballot.txn.seed", System.nanoTime());
        System.out.println("transaction fault run: seed=" + seed + " seconds=" + run.toSeconds() + " (-Dballot.txn.seed=" + seed + ")");
        session.execute("CREATE KEYSPACE bank WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
        session.execute("CREATE TABLE bank.accounts (id int PRIMARY KEY, balance int)");
        session.execute("CREATE TABLE bank.ledger (transfer uuid, account int, amount int, PRIMARY KEY (transfer, account))");
        for (int a = 0; a < ACCOUNTS; a++) {
            session.execute(SimpleStatement.newInstance("INSERT INTO bank.accounts (id, balance) VALUES (?, ?)", a, OPENING)
                    .setConsistencyLevel(ConsistencyLevel.QUORUM));
        }
        Statements statements = new Statements(session);
        Map<UUID, Told> told = new ConcurrentHashMap<>();
        ConcurrentHashMap<String, Integer> errors = new ConcurrentHashMap<>();
        AtomicInteger snapshots = new AtomicInteger();
        List<String> badSnapshots = java.util.Collections.synchronizedList(new ArrayList<>());

        long start = System.nanoTime();
        FaultInjector faults = new FaultInjector(nodes, session, seed, start, run.minus(CYCLE).toNanos(), List.of());
        faults.awaitHealed();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS + 2);
        try {
            List<Future<?>> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                SplittableRandom random = new SplittableRandom(seed + c);
                clients.add(pool.submit(() -> {
                    while (!stop.get()) transfer(statements, random, told, errors);
                    return null;
                }));
            }
            clients.add(pool.submit(() -> {
                while (!stop.get()) {
                    Integer total = snapshotTotal(statements, errors);
                    if (total == null) continue;
                    snapshots.incrementAndGet();
                    if (total != ACCOUNTS * OPENING) badSnapshots.add("a read-only transaction saw a total of " + total);
                    pause(SNAPSHOT_PAUSE_MILLIS);
                }
                return null;
            }));
            pool.submit(faults).get();
            long end = Math.max(start + run.toNanos(), System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
            while (System.nanoTime() < end) Thread.sleep(100);
            stop.set(true);
            for (Future<?> f : clients) f.get(2, TimeUnit.MINUTES);
        } finally {
            pool.shutdownNow();
        }
        faults.awaitHealed();

        Map<Integer, Integer> balances = settledBalances(statements);
        Map<UUID, Map<Integer, Integer>> ledger = new HashMap<>();
        for (Row r : session.execute(SimpleStatement.newInstance("SELECT transfer, account, amount FROM bank.ledger")
                .setConsistencyLevel(ConsistencyLevel.QUORUM))) {
            ledger.computeIfAbsent(r.getUuid(0), t -> new TreeMap<>()).put(r.getInt(1), r.getInt(2));
        }
        Map<Told, Integer> counts = new java.util.EnumMap<>(Told.class);
        told.values().forEach(t -> counts.merge(t, 1, Integer::sum));
        System.out.println("transactions: " + counts + ", " + ledger.size() + " applied in the ledger, " + snapshots.get()
                + " snapshots, errors " + new TreeMap<>(errors) + ", " + faults.kills() + " kills, " + faults.pauses() + " pauses");
        faults.events().forEach(e -> System.out.println("  " + e));

        List<String> failures = new ArrayList<>(badSnapshots);
        int total = balances.values().stream().mapToInt(Integer::intValue).sum();
        if (total != ACCOUNTS * OPENING) failures.add("total " + total + ", expected " + ACCOUNTS * OPENING + ": " + balances);
        Map<Integer, Integer> fromLedger = new TreeMap<>();
        for (int a = 0; a < ACCOUNTS; a++) fromLedger.put(a, OPENING);
        ledger.forEach((transfer, legs) -> {
            if (legs.size() != 2 || legs.values().stream().mapToInt(Integer::intValue).sum() != 0)
                failures.add("transfer " + transfer + " half applied: " + legs);
            legs.forEach((account, amount) -> fromLedger.merge(account, amount, Integer::sum));
        });
        if (!fromLedger.equals(balances)) failures.add("balances " + balances + " are not opening + ledger " + fromLedger);
        balances.forEach((account, balance) -> {
            if (balance < 0) failures.add("account " + account + " overdrawn: " + balance);
        });
        told.forEach((transfer, t) -> {
            if (t == Told.APPLIED && !ledger.containsKey(transfer)) failures.add("transfer " + transfer + " told applied, not in the ledger");
            if (t == Told.REFUSED && ledger.containsKey(transfer)) failures.add("transfer " + transfer + " told refused, in the ledger");
        });
        assertThat(failures).as("atomicity, conservation and true answers").isEmpty();
        assertThat(errors.keySet()).as("no server errors").noneMatch(k -> k.startsWith("ServerError"));
        assertThat(faults.kills()).isPositive();
        assertThat(counts.getOrDefault(Told.APPLIED, 0)).as("transfers applied (a vacuous run proves nothing)").isGreaterThanOrEqualTo(10);
        assertThat(snapshots.get()).as("consistent snapshots taken").isGreaterThanOrEqualTo(3);
    }

    /** The statements the clients use. */
    private record Statements(PreparedStatement transfer, PreparedStatement read, PreparedStatement set, PreparedStatement leg,
            PreparedStatement snapshot) {
        Statements(CqlSession session) {
            this(session.prepare("""
                    BEGIN TRANSACTION
                      LET src = (SELECT balance FROM bank.accounts WHERE id = ?);
                      LET dst = (SELECT balance FROM bank.accounts WHERE id = ?);
                      SELECT src.balance, dst.balance;
                      IF src.balance >= ? AND dst IS NOT NULL THEN
                        UPDATE bank.accounts SET balance -= ? WHERE id = ?;
                        UPDATE bank.accounts SET balance += ? WHERE id = ?;
                        INSERT INTO bank.ledger (transfer, account, amount) VALUES (?, ?, ?);
                        INSERT INTO bank.ledger (transfer, account, amount) VALUES (?, ?, ?);
                      END IF
                    COMMIT TRANSACTION"""),
                    session.prepare(SimpleStatement.newInstance("SELECT balance FROM bank.accounts WHERE id = ?")
                            .setConsistencyLevel(ConsistencyLevel.SERIAL)),
                    session.prepare("UPDATE bank.accounts SET balance = ? WHERE id = ? IF balance = ?"),
                    session.prepare("INSERT INTO bank.ledger (transfer, account, amount) VALUES (?, ?, ?) IF NOT EXISTS"),
                    session.prepare(snapshotText()));
        }

        private static String snapshotText() {
            StringBuilder text = new StringBuilder("BEGIN TRANSACTION ");
            List<String> names = new ArrayList<>();
            for (int a = 0; a < ACCOUNTS; a++) {
                text.append("LET a").append(a).append(" = (SELECT balance FROM bank.accounts WHERE id = ").append(a).append("); ");
                names.add("a" + a + ".balance");
            }
            return text.append("SELECT ").append(String.join(", ", names)).append("; COMMIT TRANSACTION").toString();
        }
    }

    /** One transfer, half of them as BEGIN TRANSACTION and half as a conditional batch after SERIAL reads. */
    private void transfer(Statements s, SplittableRandom random, Map<UUID, Told> told, Map<String, Integer> errors) {
        int from = random.nextInt(ACCOUNTS);
        int to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
        int amount = 1 + random.nextInt(100);
        UUID id = UUID.randomUUID();
        try {
            if (random.nextBoolean()) {
                Row before = session.execute(s.transfer().bind(from, to, amount, amount, from, amount, to, id, from, -amount, id, to, amount)).one();
                told.put(id, before.getInt(0) >= amount ? Told.APPLIED : Told.REFUSED);
            } else {
                int a = session.execute(s.read().bind(from)).one().getInt(0);
                int b = session.execute(s.read().bind(to)).one().getInt(0);
                if (a < amount) return;
                BatchStatement batch = BatchStatement.newInstance(DefaultBatchType.LOGGED,
                        s.set().bind(a - amount, from, a), s.set().bind(b + amount, to, b),
                        s.leg().bind(id, from, -amount), s.leg().bind(id, to, amount));
                told.put(id, session.execute(batch).wasApplied() ? Told.APPLIED : Told.REFUSED);
            }
        } catch (DriverException e) {
            told.putIfAbsent(id, Told.UNKNOWN);
            // A server error is a bug: its message is kept, so the run's summary says which.
            String kind = e instanceof com.datastax.oss.driver.api.core.servererrors.ServerError ? "ServerError: " + e.getMessage()
                    : e.getClass().getSimpleName();
            errors.merge(kind, 1, Integer::sum);
            pause(50);
        }
    }

    /** The total of every account read in one read-only transaction, or null if it failed. */
    private Integer snapshotTotal(Statements s, Map<String, Integer> errors) {
        try {
            Row row = session.execute(s.snapshot().bind()).one();
            int total = 0;
            for (int a = 0; a < ACCOUNTS; a++) total += row.getInt(a);
            return total;
        } catch (DriverException e) {
            errors.merge("snapshot " + e.getClass().getSimpleName(), 1, Integer::sum);
            pause(50);
            return null;
        }
    }

    /** Every account's balance once the transactions left by killed coordinators are recovered (bounded wait). */
    private Map<Integer, Integer> settledBalances(Statements s) throws InterruptedException {
        long deadline = System.nanoTime() + SETTLE_WAIT.toNanos();
        while (true) {
            try {
                Map<Integer, Integer> balances = new TreeMap<>();
                // SERIAL reads wait for or recover any transaction that still holds an account.
                for (int a = 0; a < ACCOUNTS; a++) balances.put(a, session.execute(s.read().bind(a)).one().getInt(0));
                return balances;
            } catch (DriverException e) {
                if (System.nanoTime() > deadline) throw new AssertionError("accounts not readable at SERIAL after the run", e);
                Thread.sleep(500);
            }
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
