package ballot.txn.sim;

import ballot.txn.Mark;
import ballot.txn.Operation;
import ballot.txn.Participant;
import ballot.txn.PartitionKey;
import ballot.txn.Transaction;
import ballot.txn.TxnId;
import ballot.txn.TxnResult;
import ballot.txn.coordinator.TxnCoordinator;
import ballot.txn.transfer.Transfer;
import ballot.txn.transfer.TransferOutcome;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * One seeded run (docs/txn.md §12): clients send transfers, snapshot reads and 1PC reads to coordinator nodes that
 * crash and restart, over partitions whose CAS results are lost and duplicated; clients retry an UNKNOWN transfer with
 * the same transaction. Then the faults stop, every deadline passes, and sweeps recover whatever was abandoned, until
 * a sweep of every partition finds nothing. {@link TransferChecker} judges the result.
 */
final class TransferSim {
    static final long MS = SimOptions.MS;
    static final long CLIENT_TIMEOUT_NANOS = 120 * MS;
    static final String ACCOUNTS = "accounts";

    record Report(TxnId id, TransferOutcome outcome, long submitNanos, long answerNanos, TxnResult<Long> result) {}

    record ReadReport(TxnId id, PartitionKey home, Map<PartitionKey, Long> reads, long submitNanos, long answerNanos) {}

    record RunResult(long seed, SimOptions options, List<String> violations, Map<Mark, Integer> marks,
            Map<TransferOutcome, Integer> outcomes, int snapshots, Liveness liveness, long evaluations, long simMillis) {
        @Override
        public String toString() {
            return "TXN-SIM seed=" + seed + " " + options + " | outcomes " + outcomes + " snapshots=" + snapshots
                    + " | " + liveness + " | steps=" + evaluations + " sim=" + simMillis + "ms" + (violations.isEmpty() ? "" : " VIOLATIONS " + violations.size());
        }
    }

    private final long seed;
    private final SimOptions options;
    private final SimLoop loop = new SimLoop();
    private final SplittableRandom random;
    private final SimStore store;
    private final List<SimNode> nodes = new ArrayList<>();
    private final Map<Mark, Integer> marks = new EnumMap<>(Mark.class);
    private final List<PartitionKey> keys = new ArrayList<>();
    private final Map<PartitionKey, Long> initial = new TreeMap<>();
    private final double[] zipfCumulative;
    private final Map<TxnId, Transfer> transfers = new LinkedHashMap<>();
    private final Map<TxnId, PartitionKey> homes = new HashMap<>();
    private final List<Report> reports = new ArrayList<>();
    private final List<ReadReport> readReports = new ArrayList<>();
    private int clientsDone;
    private boolean faulty = true;

    private TransferSim(long seed, SimOptions options) {
        this.seed = seed;
        this.options = options;
        this.random = new SplittableRandom(seed);
        Map<PartitionKey, Long> skew = new HashMap<>();
        for (int i = 0; i < options.accounts() + options.ghosts(); i++) {
            PartitionKey key = PartitionKey.of(ACCOUNTS, (i < options.accounts() ? "a" : "ghost") + i);
            keys.add(key);
            skew.put(key, random.nextLong(-5_000, 5_001));
        }
        this.store = new SimStore(loop, options.bug(), skew);
        for (int i = 0; i < options.accounts(); i++) {
            long balance = random.nextLong(0, options.balanceMax());
            initial.put(keys.get(i), balance);
            store.put(keys.get(i), balance);
        }
        zipfCumulative = new double[keys.size()];
        double sum = 0;
        for (int i = 0; i < keys.size(); i++) zipfCumulative[i] = sum += options.zipfian() ? 1 / Math.pow(i + 1, 1.2) : 1;
        for (int i = 0; i < keys.size(); i++) zipfCumulative[i] /= sum;
    }

    static RunResult run(long seed, SimOptions options) {
        return new TransferSim(seed, options).execute();
    }

    private RunResult execute() {
        for (int i = 0; i < options.nodes(); i++) {
            SimNode node = new SimNode(i, loop, store, options, random.split(), marks);
            node.start();
            nodes.add(node);
        }
        tickEveryMillisecond();
        scheduleCrash();
        scheduleSweep();
        for (int c = 0; c < options.clients(); c++) {
            int remaining = options.opsPerClient();
            loop.after(random.nextLong(0, 5 * MS), () -> clientStep(remaining));
        }
        List<String> violations = new ArrayList<>();
        if (!loop.runUntil(() -> clientsDone == options.clients(), 600_000 * MS))
            violations.add("clients did not finish: " + clientsDone + "/" + options.clients());
        Liveness liveness = Liveness.of(reports, marks, loop.now());
        faulty = false;
        for (SimNode node : nodes) if (!node.alive()) node.start();
        // Every deadline passes on every clock, and background finishes settle.
        loop.runFor(3 * SimNode.EPOCH_LIFETIME.toNanos() + 100 * MS);
        if (!sweepUntilClean()) violations.add("sweeps did not clean every partition");
        violations.addAll(TransferChecker.check(initial, transfers, homes, reports, readReports, store, marks));
        violations.addAll(retireEverything());
        Map<TransferOutcome, Integer> outcomes = new EnumMap<>(TransferOutcome.class);
        for (Report r : reports) outcomes.merge(r.outcome(), 1, Integer::sum);
        return new RunResult(seed, options, violations, new EnumMap<>(marks), outcomes, readReports.size(), liveness,
                store.evaluations, loop.now() / MS);
    }

    private void tickEveryMillisecond() {
        loop.after(MS, () -> {
            for (SimNode node : nodes) node.tick();
            tickEveryMillisecond();
        });
    }

    private void scheduleCrash() {
        if (options.crashMeanNanos() == 0) return;
        loop.after(random.nextLong(1, 2 * options.crashMeanNanos()), () -> {
            if (!faulty) return;
            SimNode node = nodes.get(random.nextInt(nodes.size()));
            if (node.alive()) {
                node.crash();
                loop.after(random.nextLong(2 * MS, 40 * MS), () -> {
                    if (!node.alive()) node.start();
                });
            }
            scheduleCrash();
        });
    }

    /** A recovery sweep of a random partition every few tens of milliseconds, besides recovery by those who meet intents. */
    private void scheduleSweep() {
        loop.after(random.nextLong(10 * MS, 60 * MS), () -> {
            if (!faulty) return;
            SimNode node = anyAlive();
            List<PartitionKey> known = new ArrayList<>(store.states().keySet());
            if (node != null) node.coordinator().sweep(known.get(random.nextInt(known.size())), clean -> { });
            scheduleSweep();
        });
    }

    private boolean sweepUntilClean() {
        SimNode sweeper = nodes.get(0);
        for (int pass = 0; pass < 40; pass++) {
            List<PartitionKey> all = new ArrayList<>(store.states().keySet());
            int[] answered = {0};
            int[] clean = {0};
            for (PartitionKey key : all)
                sweeper.coordinator().sweep(key, c -> {
                    answered[0]++;
                    if (c) clean[0]++;
                });
            loop.runUntil(() -> answered[0] == all.size(), loop.now() + 5_000 * MS);
            if (clean[0] == all.size()) return true;
            loop.runFor(2 * SimNode.EPOCH_LIFETIME.toNanos());
        }
        return false;
    }

    /**
     * After the retention window, coordinators and sweeps drop every record (docs/txn.md §2, §6.3): the partitions are
     * left with their values, unchanged, and markers only where time already says what they say (the next write drops
     * them).
     */
    private List<String> retireEverything() {
        Map<PartitionKey, Long> values = new TreeMap<>();
        store.states().forEach((k, s) -> values.put(k, s.value()));
        loop.runFor(TxnCoordinator.sweptAfter(SimNode.RETENTION, SimNode.BACKGROUND).toNanos() + 2 * SimNode.EPOCH_LIFETIME.toNanos());
        for (int pass = 0; pass < 3; pass++) {
            for (PartitionKey key : List.copyOf(store.states().keySet())) nodes.get(0).coordinator().sweep(key, clean -> { });
            loop.runFor(100 * MS);
        }
        List<String> left = new ArrayList<>();
        store.states().forEach((k, s) -> {
            long now = store.timeMicros(k);
            boolean liveMarker = s.markers().values().stream().anyMatch(m -> m.deadlineMicros() >= now);
            if (!s.records().isEmpty() || liveMarker || s.intent() != null)
                left.add("after retention " + k + " still holds " + s.records().values() + " " + s.markers() + " " + s.intent());
            if (!java.util.Objects.equals(s.value(), values.get(k))) left.add("retention changed " + k);
        });
        return left;
    }

    private SimNode anyAlive() {
        List<SimNode> alive = nodes.stream().filter(SimNode::alive).toList();
        return alive.isEmpty() ? null : alive.get(random.nextInt(alive.size()));
    }

    private PartitionKey pick() {
        double x = random.nextDouble();
        for (int i = 0; i < zipfCumulative.length; i++) if (x < zipfCumulative[i]) return keys.get(i);
        return keys.get(keys.size() - 1);
    }

    private TxnId newId() {
        return TxnId.of(random.nextLong(), random.nextLong());
    }

    private void clientStep(int remaining) {
        if (remaining == 0) {
            clientsDone++;
            return;
        }
        Runnable next = () -> loop.after(random.nextLong(0, 3 * MS), () -> clientStep(remaining - 1));
        double kind = random.nextDouble();
        if (kind < options.readShare() / 2) snapshot(next);
        else if (kind < options.readShare()) readOne(next);
        else transfer(next);
    }

    private void transfer(Runnable next) {
        Transfer transfer = new Transfer(newId(), pick(), pick(), 1 + random.nextLong(options.amountMax()));
        transfers.put(transfer.id(), transfer);
        if (transfer.sameAccount()) {
            reports.add(new Report(transfer.id(), TransferOutcome.SAME_ACCOUNT, loop.now(), loop.now(), null));
            next.run();
            return;
        }
        withNode(node -> {
            long age = node.clock.wallMicros();
            PartitionKey home = options.homeIsSource() ? transfer.source()
                    : PartitionKey.of("transfers", transfer.id().uuid().toString());
            homes.put(transfer.id(), home);
            Transaction<Long> txn = transfer.transaction(age, age + SimNode.EPOCH_LIFETIME.toNanos() / 1000, home);
            submitTransfer(node, txn, transfer, 0, next);
        });
    }

    /**
     * A client's submission. A crashed node never answers, so the client gives up on its own and retries with the same
     * transaction; an impatient client ({@code options.impatience()}) retries while the first coordinator is still at work. Every
     * answer is recorded (the checker requires them all to be true and to agree); the first one drives the client.
     */
    private void submitTransfer(SimNode node, Transaction<Long> txn, Transfer transfer, int retry, Runnable next) {
        long submitted = loop.now();
        boolean[] answered = {false};
        Consumer<TxnResult<Long>> onAnswer = result -> {
            TransferOutcome outcome = Transfer.outcome(result);
            reports.add(new Report(transfer.id(), outcome, submitted, loop.now(), result));
            if (answered[0]) return;
            answered[0] = true;
            if (outcome == TransferOutcome.TIMED_OUT_UNKNOWN && retry < options.retries())
                loop.after(random.nextLong(MS, 20 * MS), () -> withNode(n -> submitTransfer(n, txn, transfer, retry + 1, next)));
            else next.run();
        };
        node.coordinator().submit(txn, CLIENT_TIMEOUT_NANOS, onAnswer);
        long patience = random.nextDouble() < options.impatience() ? random.nextLong(3 * MS, 30 * MS) : CLIENT_TIMEOUT_NANOS + 20 * MS;
        loop.after(patience, () -> {
            if (!answered[0]) onAnswer.accept(TxnResult.unknown());
        });
    }

    private void snapshot(Runnable next) {
        TxnId id = newId();
        List<Participant<Long>> all = keys.stream().map(k -> new Participant<>(k, Operation.<Long>read())).toList();
        read(id, PartitionKey.of("reads", id.uuid().toString()), all, next);
    }

    private void readOne(Runnable next) {
        PartitionKey key = pick();
        read(newId(), key, List.of(new Participant<>(key, Operation.<Long>read())), next);
    }

    private void read(TxnId id, PartitionKey home, List<Participant<Long>> participants, Runnable next) {
        withNode(node -> {
            long age = node.clock.wallMicros();
            Transaction<Long> txn = new Transaction<>(id, age, age + SimNode.EPOCH_LIFETIME.toNanos() / 1000, home, participants);
            long submitted = loop.now();
            boolean[] answered = {false};
            node.coordinator().submit(txn, CLIENT_TIMEOUT_NANOS, result -> {
                if (answered[0]) return;
                answered[0] = true;
                if (result.outcome() == TxnResult.Outcome.COMMITTED && !result.reads().isEmpty())
                    readReports.add(new ReadReport(id, home, result.reads(), submitted, loop.now()));
                next.run();
            });
            loop.after(CLIENT_TIMEOUT_NANOS + 20 * MS, () -> {
                if (answered[0]) return;
                answered[0] = true;
                next.run();
            });
        });
    }

    /** Runs {@code action} on a live node, waiting for one to restart if all are down. */
    private void withNode(Consumer<SimNode> action) {
        SimNode node = anyAlive();
        if (node != null) action.accept(node);
        else loop.after(5 * MS, () -> withNode(action));
    }
}
