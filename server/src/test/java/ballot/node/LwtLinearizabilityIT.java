package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.paxos.sim.LinearizabilityChecker;
import ballot.paxos.sim.LinearizabilityChecker.Kind;
import ballot.paxos.sim.LinearizabilityChecker.Op;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.cql.Row;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
 * LWTs stay linearizable, and nothing acknowledged is lost, on a real cluster under faults (docs/paxos.md §10,
 * "against real nodes"; docs/reliability.md): three node processes on 127.0.0.1-3 with RF=3; concurrent clients doing
 * compare-and-set, insert-if-absent and SERIAL reads on a few registers through the DataStax driver (RegisterClient),
 * beside plain QUORUM writes and transfers in transactions (MixedLoad); meanwhile a node is killed with SIGKILL and
 * restarted, and another is frozen with SIGSTOP and continued (FaultInjector). Then every register's history must be
 * linearizable (the paxos module's checker; unknown outcomes may take effect late or never), the SERIAL reads after
 * the run must hold every acknowledged write, every acknowledged plain row must be there, the accounts must hold their
 * opening total, and enough operations must have succeeded, after the last fault too, for the verdict to mean
 * something. The checker must also reject the run's own history with one read made stale.
 *
 * <p>{@code -Dballot.lwt.seconds=N} (default 30) sets the length of the load, and so the number of fault cycles;
 * {@code -Dballot.lwt.seed=S} repeats the clients' and faults' choices (not the cluster's timing). Histories are
 * written to {@code target/lwt-histories}, and {@code -Dballot.keepNodeFiles=true} keeps the nodes' logs and data.
 * {@code -Dballot.chaos=true} (tests/run-chaos.sh) adds the chaos faults: a full disk (each node's data directory is a
 * tmpfs the test mounts, which needs root), exhausted file descriptors and stalls, one per cycle in turn.
 */
class LwtLinearizabilityIT {
    private static final int REGISTERS = 6;
    private static final int CLIENTS = 5;
    private static final long CHECKER_STEPS_MAX = 50_000_000;
    /** Time a fault cycle takes, roughly: no cycle starts later than this before the end of the load. */
    private static final Duration CYCLE = Duration.ofSeconds(20);
    /** Load after the last fault healed, at least, however late the last cycle ran: writes must resume there. */
    private static final Duration TAIL = Duration.ofSeconds(5);
    /** Load after the last fault healed, at most, waiting for the thresholds below. */
    private static final Duration TAIL_MAX = Duration.ofSeconds(60);
    private static final int APPLIED_MIN = 100;
    private static final int READS_MIN = 50;
    private static final int APPLIED_AFTER_HEALING_MIN = 30;
    private static final Duration FINAL_READ_WAIT = Duration.ofSeconds(60);
    private static final Path HISTORIES = Path.of("target", "lwt-histories");

    private static final boolean CHAOS = Boolean.getBoolean("ballot.chaos");
    /** Each node's data directory is a tmpfs this big in chaos runs, so that DISK_FULL can fill it. */
    private static final String TMPFS_SIZE = "1g";

    private Path directory;
    final List<NodeProcess> nodes = new ArrayList<>();
    private final List<Path> mounted = new ArrayList<>();
    private final List<FaultInjector.Chaos> chaos = new ArrayList<>();
    private CqlSession session;

    @BeforeEach
    void startCluster() throws Exception {
        directory = Files.createTempDirectory("ballot-lwt");
        if (CHAOS) {
            chaos.addAll(List.of(FaultInjector.Chaos.values()));
            for (int i = 1; i <= 3; i++) {
                Path data = Files.createDirectories(directory.resolve("node" + i).resolve("data"));
                if (Tmpfs.mount(data, TMPFS_SIZE) == null) {
                    mounted.add(data);
                } else {
                    System.out.println("chaos: cannot mount a tmpfs (needs root); no DISK_FULL faults in this run");
                    chaos.remove(FaultInjector.Chaos.DISK_FULL);
                    break;
                }
            }
        }
        nodes.addAll(NodeProcess.startCluster(directory, java.util.Collections.nCopies(3, NodeProcess.DEFAULT_DATA_CENTER), settings()));
        int nativePort = nodes.get(0).nativePort;
        // The workload's requests time out at the client after 3 s, longer than the servers' 1 s CAS deadline: a
        // client timeout means a coordinator that did not answer (killed or frozen), not a slow Paxos round.
        // The protocol the driver negotiates (v5): a CAS WriteTimeout must not cost the connection (ErrorCodec).
        session = CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", nativePort))
                .withLocalDatacenter("datacenter1")
                .withConfigLoader(NodeProcess.driverConfig()
                        .startProfile(RegisterClient.PROFILE).withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(3))
                        .endProfile()
                        .build())
                .build();
    }

    /** Lines of every node's node.yaml beyond the test cluster's defaults. */
    List<String> settings() {
        return List.of();
    }

    @AfterEach
    void stopCluster() throws Exception {
        if (session != null) session.close();
        for (NodeProcess n : nodes) n.close();
        for (Path data : mounted) Tmpfs.unmount(data);
        if (Boolean.getBoolean("ballot.keepNodeFiles")) System.out.println("node files kept in " + directory);
        else NodeProcess.delete(directory);
    }

    @Test
    void historiesStayLinearizableAndNothingAcknowledgedIsLostThroughFaults() throws Exception {
        Duration run = Duration.ofSeconds(Long.getLong("ballot.lwt.seconds", 30));
        long seed = Long.getLong("ballot.lwt.seed", System.nanoTime());
        System.out.println("LWT linearizability run: seed=" + seed + " seconds=" + run.toSeconds() + " clients=" + CLIENTS
                + " registers=" + REGISTERS + " (-Dballot.lwt.seed=" + seed + " repeats the choices)");
        session.execute("CREATE KEYSPACE lwt WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}");
        session.execute("CREATE TABLE lwt.registers (k int PRIMARY KEY, v int)");
        RegisterClient.Statements statements = new RegisterClient.Statements(
                session.prepare("INSERT INTO lwt.registers (k, v) VALUES (?, ?) IF NOT EXISTS"),
                session.prepare("UPDATE lwt.registers SET v = ? WHERE k = ? IF v = ?"),
                session.prepare("SELECT v FROM lwt.registers WHERE k = ?"));
        List<RegisterHistory> registers = new ArrayList<>();
        for (int k = 0; k < REGISTERS; k++) registers.add(new RegisterHistory(k));
        MixedLoad mixed = new MixedLoad(session);
        mixed.createSchema();

        long start = System.nanoTime();
        FaultInjector faults = new FaultInjector(nodes, session, seed, start, run.minus(CYCLE).toNanos(), chaos);
        faults.awaitHealed();
        ConcurrentHashMap<String, Integer> errors = new ConcurrentHashMap<>();
        runLoad(run, start, faults, statements, registers, mixed, seed, errors);
        faults.awaitHealed();
        Map<Integer, Long> last = finalReads(statements, registers, faults, start);

        List<String> failures = new ArrayList<>();
        for (RegisterHistory register : registers) failures.addAll(verdict(register, last.get(register.register)));
        failures.addAll(mixed.verify());
        Tally tally = Tally.of(registers, faults.healedNanos());
        System.out.println("LWT linearizability: " + tally + ", errors " + new TreeMap<>(errors) + "; " + mixed + "; "
                + faults.kills() + " kills, " + faults.pauses() + " pauses, chaos faults " + faults.chaosDone() + ", "
                + faults.stoppedByThemselves() + " nodes stopped by themselves and restarted");
        faults.events().forEach(e -> System.out.println("  " + e));

        assertThat(failures).as("linearizability violations and lost writes").isEmpty();
        assertThat(faults.kills()).as("nodes killed").isPositive();
        assertThat(faults.pauses()).as("nodes paused").isPositive();
        assertThat(tally.applied).as("acknowledged writes (a vacuous run proves nothing)").isGreaterThanOrEqualTo(APPLIED_MIN);
        assertThat(tally.reads).as("definite SERIAL reads").isGreaterThanOrEqualTo(READS_MIN);
        assertThat(tally.appliedAfterHealing).as("writes acknowledged after the last fault healed (no register stays stuck)")
                .isGreaterThanOrEqualTo(APPLIED_AFTER_HEALING_MIN);
        List<Op> planted = StaleRead.plant(tally.largest).orElseThrow(() -> new AssertionError("no read to make stale"));
        LinearizabilityChecker.Result caught = LinearizabilityChecker.check(planted, null, CHECKER_STEPS_MAX);
        assertThat(caught.linearizable()).as("the checker rejects this run's history with one read made stale").isFalse();
        assertThat(caught.stuckAt()).as("a verdict, not a search that gave up: " + caught.detail()).isNotNull();
    }

    /** Checks one register's history (written to {@link #HISTORIES} first) and returns what is wrong with it. */
    private static List<String> verdict(RegisterHistory register, Long last) {
        List<Op> ops = register.ops();
        Path file = HISTORIES.resolve("register-" + register.register + ".txt");
        RegisterHistory.write(file, ops);
        long checkStart = System.nanoTime();
        LinearizabilityChecker.Result result = LinearizabilityChecker.check(ops, null, CHECKER_STEPS_MAX);
        long checkMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - checkStart);
        System.out.printf("register %d: %d operations, %d acknowledged writes, final value %s; checker: %s in %d steps, %d ms%n",
                register.register, ops.size(), ops.stream().filter(RegisterHistory::acknowledgedWrite).count(), last,
                result.detail(), result.steps(), checkMillis);
        List<String> failures = new ArrayList<>();
        if (!result.linearizable()) {
            failures.add("register " + register.register + " is not linearizable: " + result.detail()
                    + (result.stuckAt() == null ? "" : "\n" + RegisterHistory.window(ops, result.stuckAt()))
                    + "history: " + file.toAbsolutePath());
        }
        for (String lost : RegisterHistory.lostWrites(ops, last)) failures.add("register " + register.register + ": " + lost);
        return failures;
    }

    /** Operations of all registers by outcome, and the largest history (to plant a bug in). */
    private static final class Tally {
        int total;
        int applied;
        int reads;
        int unknown;
        int appliedAfterHealing;
        List<Op> largest = List.of();

        static Tally of(List<RegisterHistory> registers, long healedNanos) {
            Tally t = new Tally();
            for (RegisterHistory register : registers) {
                List<Op> ops = register.ops();
                for (Op op : ops) {
                    if (!op.definite()) t.unknown++;
                    else if (op.kind() == Kind.READ) t.reads++;
                    if (RegisterHistory.acknowledgedWrite(op)) {
                        t.applied++;
                        if (op.invokeNanos() > healedNanos) t.appliedAfterHealing++;
                    }
                }
                t.total += ops.size();
                if (ops.size() > t.largest.size()) t.largest = ops;
            }
            return t;
        }

        /** Enough has succeeded, after the last fault too, for the verdict to mean something. */
        boolean meaningful() {
            return applied >= APPLIED_MIN && reads >= READS_MIN && appliedAfterHealing >= APPLIED_AFTER_HEALING_MIN;
        }

        @Override
        public String toString() {
            return total + " operations (" + applied + " acknowledged writes, " + reads + " definite reads, " + unknown
                    + " unknown; " + appliedAfterHealing + " writes acknowledged after the last fault healed)";
        }
    }

    /** Clients run until the load's time is up and the fault cycles are over, plus a tail; errors of either end the test. */
    private void runLoad(Duration run, long start, FaultInjector faults, RegisterClient.Statements statements,
            List<RegisterHistory> registers, MixedLoad mixed, long seed, ConcurrentHashMap<String, Integer> errors) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger values = new AtomicInteger();
        // A run collects well under one unknown write per register per second (each fault cycle leaves a few); the
        // bound only stops a fault storm from growing the search. It grows with the run, or long runs would end read-only.
        int unknownWritesMax = (int) Math.max(40, run.toSeconds());
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS + 3);
        try {
            List<Future<Void>> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                clients.add(pool.submit(new RegisterClient(c, session, statements, registers, values, seed + 1 + c, start,
                        stop::get, unknownWritesMax, errors)));
            }
            clients.add(pool.submit(mixed.writer(stop::get)));
            clients.add(pool.submit(mixed.transfers(stop::get, seed)));
            Future<Void> faulting = pool.submit(faults);
            try {
                faulting.get();
                // The load goes on for its time, and at least TAIL after the last fault healed; on a slow machine longer,
                // until the run means something, but never more than TAIL_MAX after the heal.
                long healed = start + faults.healedNanos();
                long end = Math.max(start + run.toNanos(), healed + TAIL.toNanos());
                long giveUp = Math.max(end, healed + TAIL_MAX.toNanos());
                while (System.nanoTime() < end
                        || System.nanoTime() < giveUp && !Tally.of(registers, faults.healedNanos()).meaningful()) {
                    Thread.sleep(100);
                }
            } finally {
                stop.set(true);
                for (Future<Void> c : clients) c.get(1, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * SERIAL reads of every register through each node in turn once the cluster has healed, recorded as operations
     * of the history (clients numbered after the workload's). Returns the last value read of each register.
     */
    private Map<Integer, Long> finalReads(RegisterClient.Statements statements, List<RegisterHistory> registers,
            FaultInjector faults, long start) throws InterruptedException {
        Map<Integer, Long> last = new TreeMap<>();
        for (RegisterHistory register : registers) {
            for (int n = 0; n < nodes.size(); n++) {
                long deadline = System.nanoTime() + FINAL_READ_WAIT.toNanos();
                while (true) {
                    long invoke = System.nanoTime() - start;
                    try {
                        Row row = session.execute(statements.read().bind(register.register)
                                .setConsistencyLevel(DefaultConsistencyLevel.SERIAL).setNode(nodes.get(n).driverNode(session))).one();
                        Integer value = row == null || row.isNull("v") ? null : row.getInt("v");
                        register.definite(CLIENTS + n, Kind.READ, null, null, value, false, invoke, System.nanoTime() - start);
                        last.put(register.register, value == null ? null : value.longValue());
                        break;
                    } catch (DriverException e) {
                        if (System.nanoTime() > deadline) throw new AssertionError("no SERIAL read of register "
                                + register.register + " through " + nodes.get(n).address + " succeeded after the run", e);
                        Thread.sleep(200);
                    }
                }
            }
        }
        return last;
    }
}
