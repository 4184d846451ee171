package ballot.tools.workload;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.QueryConsistencyException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The overload benchmark's load (issue 12, docs/admission.md): requests sent at a fixed rate whatever the answers
 * (open loop), or by N workers back to back (closed loop, to measure capacity). A mix of plain writes, reads of one partition, LWTs on random
 * keys, LWTs on one hot partition and transfers between random accounts (a {@code BEGIN TRANSACTION} on two
 * partitions, docs/txn.md §11.2: the source pays if it has the amount). Latency counts from the moment a request was due, not sent, so a client that
 * falls behind does not hide the wait (coordinated omission). An answer is goodput if it succeeded within the client's
 * deadline ({@code --timeout}, the driver's request timeout).
 */
@Command(name = "overload", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Open-loop (--rate) or closed-loop (--closed) load of plain writes, LWTs and transfers, with goodput, refusals and latency per second.")
final class Overload implements Callable<Integer> {
    @Option(names = "--rate", paramLabel = "PER_SECOND", description = "open loop: requests sent per second, whatever the answers")
    Double rate;

    @Option(names = "--closed", paramLabel = "N", description = "closed loop: N requests in flight, each sent when the last answered (to measure capacity)")
    Integer closed;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "60s", converter = DurationConverter.class,
            description = "how long to send (default ${DEFAULT-VALUE})")
    Duration duration;

    @Option(names = "--mix", paramLabel = "KIND=WEIGHT,...", defaultValue = "plain=50,lwt=40,hot=10", split = ",",
            description = "weights of plain writes, reads of one partition, LWTs on random keys, LWTs on one hot partition and transfers "
                    + "between accounts (plain, read, lwt, hot, transfer; default ${DEFAULT-VALUE})")
    Map<String, Integer> mix;

    @Option(names = "--keys", paramLabel = "N", defaultValue = "100000", description = "random keys are drawn from 0..N-1 (default ${DEFAULT-VALUE})")
    int keys;

    @Option(names = "--accounts", paramLabel = "N", defaultValue = "10000",
            description = "with transfers in the mix: accounts 0..N-1, each opened with a balance of 1,000,000 before the load (default ${DEFAULT-VALUE})")
    int accounts;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "2s", converter = DurationConverter.class,
            description = "the client's deadline: the driver's request timeout, and the bound for goodput (default ${DEFAULT-VALUE})")
    Duration timeout;

    @Option(names = "--in-flight-max", paramLabel = "N", defaultValue = "20000",
            description = "the client keeps at most this many requests outstanding; a request due beyond that is not sent and counted (default ${DEFAULT-VALUE})")
    int inFlightMax;

    @Option(names = "--client", paramLabel = "CLIENT", defaultValue = "driver",
            description = "driver: the Java driver sends every request; raw: the driver sets up and prepares, then a light v4 client sends "
                    + "the requests over --connections connections per node, a few microseconds of client CPU each (default ${DEFAULT-VALUE})")
    String client;

    @Option(names = "--connections", paramLabel = "N", defaultValue = "2", description = "with --client raw: connections per node (default ${DEFAULT-VALUE})")
    int connections;

    @Option(names = "--replication-factor", paramLabel = "RF", defaultValue = "1", description = "of the keyspace, if created (default ${DEFAULT-VALUE})")
    int replicationFactor;

    @Option(names = "--progress-interval", paramLabel = "DURATION", defaultValue = "5s", converter = DurationConverter.class,
            description = "time between progress lines (default ${DEFAULT-VALUE})")
    Duration progressInterval;

    @Mixin
    ClusterOptions cluster;

    @Spec
    CommandSpec spec;

    /** What a request does. */
    enum Kind {
        PLAIN, READ, LWT, HOT, TRANSFER
    }

    /** How one request ended. */
    enum Ending {
        GOODPUT, LATE, OVERLOADED, TIMEOUT, ERROR, NOT_SENT
    }

    private final Map<Kind, Recorder> latencies = new ConcurrentHashMap<>();
    private final Map<Kind, Histogram> totalLatencies = new ConcurrentHashMap<>();
    private final LongAdder[] interval = newCounters();
    private final LongAdder[] total = newCounters();
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();

    @Override
    public Integer call() throws InterruptedException {
        validate();
        PrintWriter out = spec.commandLine().getOut();
        Kind[] wheel = wheel();
        int inFlightSetting = closed != null ? closed : inFlightMax;
        try (CqlSession session = connect()) {
            String table = cluster.keyspaceCql() + ".overload_kv";
            String ledger = cluster.keyspaceCql() + ".overload_accounts";
            session.execute("CREATE KEYSPACE IF NOT EXISTS " + cluster.keyspaceCql() + " WITH replication = {'class': 'NetworkTopologyStrategy', '"
                    + cluster.dataCenter.replace("'", "''") + "': " + replicationFactor + "}");
            session.execute("CREATE TABLE IF NOT EXISTS " + table + " (k int PRIMARY KEY, v int)");
            Map<Kind, PreparedStatement> statements = new EnumMap<>(Kind.class);
            statements.put(Kind.PLAIN, session.prepare("INSERT INTO " + table + " (k, v) VALUES (?, ?)"));
            statements.put(Kind.LWT, session.prepare("UPDATE " + table + " SET v = ? WHERE k = ? IF v != -1"));
            statements.put(Kind.HOT, statements.get(Kind.LWT));
            statements.put(Kind.READ, session.prepare("SELECT v FROM " + table + " WHERE k = ?"));
            if (Arrays.asList(wheel).contains(Kind.TRANSFER)) {
                session.execute("CREATE TABLE IF NOT EXISTS " + ledger + " (k int PRIMARY KEY, balance bigint)");
                openAccounts(out, session, ledger);
                statements.put(Kind.TRANSFER, session.prepare("BEGIN TRANSACTION\n"
                        + "  LET src = (SELECT balance FROM " + ledger + " WHERE k = ?);\n"
                        + "  IF src.balance >= ? THEN\n"
                        + "    UPDATE " + ledger + " SET balance -= ? WHERE k = ?;\n"
                        + "    UPDATE " + ledger + " SET balance += ? WHERE k = ?;\n"
                        + "  END IF\n"
                        + "COMMIT TRANSACTION"));
            }
            for (Kind k : Kind.values()) {
                latencies.put(k, new Recorder(TimeUnit.SECONDS.toNanos(60), 3));
                totalLatencies.put(k, new Histogram(TimeUnit.SECONDS.toNanos(60), 3));
            }
            print(out, String.format(Locale.ROOT, "overload: %s for %s, mix %s, keys 0..%d, client deadline %s, at most %d in flight, table %s",
                    rate != null ? String.format(Locale.ROOT, "open loop at %.0f requests/s", rate) : "closed loop with " + closed + " in flight",
                    duration, mix, keys - 1, timeout, inFlightSetting, table));
            long start = System.nanoTime();
            long end = start + duration.toNanos();
            Thread progress = progressThread(out, start, end);
            progress.start();
            if (client.equals("raw")) rawLoop(session, statements, wheel, start, end);
            else if (rate != null) openLoop(session, statements, wheel, start, end);
            else closedLoop(session, statements, wheel, end);
            long drainUntil = System.nanoTime() + timeout.toNanos() + TimeUnit.SECONDS.toNanos(1);
            while (inFlight.get() > 0 && System.nanoTime() < drainUntil) Thread.sleep(10);
            progress.interrupt();
            progress.join();
            summary(out, (System.nanoTime() - start) / 1e9);
        }
        return 0;
    }

    /** The same loops over {@link RawLoad}'s connections to every node the driver knows. */
    private void rawLoop(CqlSession session, Map<Kind, PreparedStatement> statements, Kind[] wheel, long start, long end)
            throws InterruptedException {
        Map<Kind, RawLoad.Statement> prepared = new EnumMap<>(Kind.class);
        statements.forEach((kind, statement) -> {
            ByteBuffer id = statement.getId();
            byte[] bytes = new byte[id.remaining()];
            id.duplicate().get(bytes);
            prepared.put(kind, new RawLoad.Statement(bytes, kind != Kind.PLAIN && kind != Kind.READ));
        });
        List<InetSocketAddress> nodes = new ArrayList<>();
        for (Node node : session.getMetadata().getNodes().values()) nodes.add((InetSocketAddress) node.getEndPoint().resolve());
        SplittableRandom random = new SplittableRandom(1);
        RawLoad.Counter counter = new RawLoad.Counter() {
            @Override
            public int get() {
                return inFlight.get();
            }

            @Override
            public void add(int delta) {
                inFlight.addAndGet(delta);
            }
        };
        RawLoad load = null;
        try {
            load = new RawLoad(nodes, connections, prepared, timeout.toNanos(), this::ended, counter);
            if (rate != null) load.openLoop(wheel, kind -> values(kind, random), rate, start, end, inFlightMax);
            else load.closedLoop(wheel, kind -> values(kind, random), closed, end);
            long drainUntil = System.nanoTime() + timeout.toNanos() + TimeUnit.SECONDS.toNanos(1);
            while (inFlight.get() > 0 && System.nanoTime() < drainUntil) Thread.sleep(10);
        } catch (IOException e) {
            throw new IllegalStateException("the raw client failed: " + e.getMessage(), e);
        } finally {
            if (load != null) load.close();
        }
    }

    private void openLoop(CqlSession session, Map<Kind, PreparedStatement> statements, Kind[] wheel, long start, long end) {
        SplittableRandom random = new SplittableRandom(1);
        double gapNanos = 1e9 / rate;
        for (long i = 0; ; i++) {
            long due = start + (long) (i * gapNanos);
            if (due >= end) return;
            long wait = due - System.nanoTime();
            if (wait > 0) LockSupport.parkNanos(wait);
            Kind kind = wheel[(int) (i % wheel.length)];
            if (inFlight.get() >= inFlightMax) {
                count(Ending.NOT_SENT);
                continue;
            }
            send(session, bind(statements.get(kind), kind, random), kind, due);
        }
    }

    /** N threads, each sending its next request when the last is answered: no callback chains, no recursion. */
    private void closedLoop(CqlSession session, Map<Kind, PreparedStatement> statements, Kind[] wheel, long end) throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < closed; w++) {
            SplittableRandom random = new SplittableRandom(w + 1);
            Thread worker = new Thread(() -> {
                while (System.nanoTime() < end) {
                    Kind kind = wheel[Math.floorMod(next.getAndIncrement(), wheel.length)];
                    long due = System.nanoTime();
                    inFlight.incrementAndGet();
                    Throwable failure = null;
                    try {
                        session.execute(bind(statements.get(kind), kind, random));
                    } catch (RuntimeException e) {
                        failure = e;
                    }
                    finish(kind, due, failure);
                }
            }, "overload-worker-" + w);
            worker.setDaemon(true);
            workers.add(worker);
            worker.start();
        }
        for (Thread worker : workers) worker.join();
    }

    private BoundStatement bind(PreparedStatement statement, Kind kind, SplittableRandom random) {
        return statement.bind(values(kind, random));
    }

    /** A request's values, in the order of its statement's markers. */
    private Object[] values(Kind kind, SplittableRandom random) {
        int value = random.nextInt(1_000_000);
        return switch (kind) {
            case PLAIN -> new Object[] {random.nextInt(keys), value};
            case READ -> new Object[] {random.nextInt(keys)};
            case LWT -> new Object[] {value, random.nextInt(keys)};
            case HOT -> new Object[] {value, -1};
            case TRANSFER -> {
                int source = random.nextInt(accounts);
                int destination = Math.floorMod(source + 1 + random.nextInt(accounts - 1), accounts);
                long amount = 1 + random.nextInt(100);
                yield new Object[] {source, amount, amount, source, amount, destination};
            }
        };
    }

    /**
     * Opens accounts 0..N-1 with a balance of 1,000,000 each (again, if they exist), 64 writes in flight. A cluster
     * still busy with an earlier load may refuse some (OVERLOADED, timeouts, a replica it deems down for a while):
     * those are written again, up to 10 rounds.
     */
    private void openAccounts(PrintWriter out, CqlSession session, String ledger) throws InterruptedException {
        PreparedStatement open = session.prepare("INSERT INTO " + ledger + " (k, balance) VALUES (?, 1000000)");
        List<Integer> pending = new ArrayList<>();
        for (int k = 0; k < accounts; k++) pending.add(k);
        for (int round = 1; !pending.isEmpty(); round++) {
            if (round > 10) throw new IllegalStateException("cannot open " + pending.size() + " accounts of " + ledger + ": refused 10 times");
            List<Integer> refused = Collections.synchronizedList(new ArrayList<>());
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Semaphore inFlight = new Semaphore(64);
            for (int k : pending) {
                inFlight.acquire();
                session.executeAsync(open.bind(k)).whenComplete((rs, failure) -> {
                    if (failure instanceof OverloadedException || failure instanceof DriverTimeoutException
                            || failure instanceof QueryConsistencyException || failure instanceof UnavailableException) refused.add(k);
                    else if (failure != null) failed.compareAndSet(null, failure);
                    inFlight.release();
                });
            }
            inFlight.acquire(64);
            if (failed.get() != null) throw new IllegalStateException("cannot open the accounts of " + ledger + ": " + failed.get().getMessage(), failed.get());
            pending = refused;
            if (!pending.isEmpty()) {
                print(out, "overload: " + pending.size() + " accounts refused (overloaded, timed out or unavailable); writing them again");
                Thread.sleep(500);
            }
        }
        print(out, "overload: opened accounts 0.." + (accounts - 1) + " in " + ledger + " with 1000000 each");
    }

    private void send(CqlSession session, BoundStatement statement, Kind kind, long due) {
        inFlight.incrementAndGet();
        CompletionStage<AsyncResultSet> answer;
        try {
            answer = session.executeAsync(statement);
        } catch (RuntimeException e) {
            finish(kind, due, e);
            return;
        }
        answer.whenComplete((rs, failure) -> finish(kind, due, failure));
    }

    /** Counts one answer (or failure) from the driver of a request that was due at {@code due}. */
    private void finish(Kind kind, long due, Throwable failure) {
        inFlight.decrementAndGet();
        if (failure == null) {
            ended(kind, due, System.nanoTime() - due <= timeout.toNanos() ? Ending.GOODPUT : Ending.LATE, null);
            return;
        }
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof OverloadedException) ended(kind, due, Ending.OVERLOADED, null);
        else if (cause instanceof DriverTimeoutException || cause instanceof QueryConsistencyException) ended(kind, due, Ending.TIMEOUT, null);
        else ended(kind, due, Ending.ERROR, cause.getClass().getSimpleName() + ": " + firstLine(cause.getMessage()));
    }

    /** Counts how a request due at {@code due} ended; {@code error} names an error. */
    private void ended(Kind kind, long due, Ending ending, String error) {
        count(ending);
        if (ending == Ending.GOODPUT) latencies.get(kind).recordValue(Math.min(System.nanoTime() - due, TimeUnit.SECONDS.toNanos(60)));
        if (ending == Ending.ERROR) errors.computeIfAbsent(error, e -> new LongAdder()).increment();
    }

    private static String firstLine(String message) {
        if (message == null) return "";
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    private void count(Ending ending) {
        interval[ending.ordinal()].increment();
        total[ending.ordinal()].increment();
    }

    private Thread progressThread(PrintWriter out, long start, long end) {
        Thread t = new Thread(() -> {
            long every = progressInterval.toNanos();
            long next = start + every;
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    long wait = next - System.nanoTime();
                    if (wait > 0) TimeUnit.NANOSECONDS.sleep(wait);
                    double seconds = every / 1e9;
                    long[] c = new long[Ending.values().length];
                    for (Ending e : Ending.values()) c[e.ordinal()] = interval[e.ordinal()].sumThenReset();
                    StringBuilder p99 = new StringBuilder();
                    for (Kind k : Kind.values()) {
                        Histogram h = latencies.get(k).getIntervalHistogram();
                        totalLatencies.get(k).add(h);
                        if (h.getTotalCount() > 0)
                            p99.append(String.format(Locale.ROOT, " %s %.1f", k.name().toLowerCase(Locale.ROOT), h.getValueAtPercentile(99) / 1e6));
                    }
                    print(out, String.format(Locale.ROOT, "overload: t=%.0fs goodput %.0f/s, late %.0f/s, overloaded %.0f/s, timeouts %.0f/s, errors %.0f/s, "
                                    + "not sent %.0f/s, in flight %d; p99 ms:%s", (next - start) / 1e9, c[0] / seconds, c[1] / seconds, c[2] / seconds,
                            c[3] / seconds, c[4] / seconds, c[5] / seconds, inFlight.get(), p99));
                    next += every;
                    if (next > end + every) next = Math.max(next, System.nanoTime() + every);
                }
            } catch (InterruptedException done) {
                Thread.currentThread().interrupt();
            }
        }, "overload-progress");
        t.setDaemon(true);
        return t;
    }

    private void summary(PrintWriter out, double seconds) {
        for (Kind k : Kind.values()) totalLatencies.get(k).add(latencies.get(k).getIntervalHistogram());
        long[] c = new long[Ending.values().length];
        for (Ending e : Ending.values()) c[e.ordinal()] = total[e.ordinal()].sum();
        long answered = c[0] + c[1] + c[2] + c[3] + c[4];
        print(out, String.format(Locale.ROOT, "overload: summary after %.1fs: %d answered, goodput %d (%.0f/s), late %d, overloaded %d, timeouts %d, "
                + "errors %d, not sent %d", seconds, answered, c[0], c[0] / (duration.toNanos() / 1e9), c[1], c[2], c[3], c[4], c[5]));
        for (Kind k : Kind.values()) {
            Histogram h = totalLatencies.get(k);
            if (h.getTotalCount() == 0) continue;
            print(out, String.format(Locale.ROOT, "overload: %s goodput latency ms: p50 %.2f, p99 %.2f, p99.9 %.2f, max %.2f (%d answers)",
                    k.name().toLowerCase(Locale.ROOT), h.getValueAtPercentile(50) / 1e6, h.getValueAtPercentile(99) / 1e6,
                    h.getValueAtPercentile(99.9) / 1e6, h.getMaxValue() / 1e6, h.getTotalCount()));
        }
        List<Map.Entry<String, LongAdder>> sorted = new ArrayList<>(errors.entrySet());
        sorted.sort((a, b) -> Long.compare(b.getValue().sum(), a.getValue().sum()));
        for (Map.Entry<String, LongAdder> e : sorted.subList(0, Math.min(5, sorted.size())))
            print(out, "overload: error x" + e.getValue().sum() + ": " + e.getKey());
    }

    /** The mix as a repeating sequence of kinds, spread so that every window of the wheel has the mix's proportions. */
    private Kind[] wheel() {
        Map<Kind, Integer> weights = new LinkedHashMap<>();
        for (Map.Entry<String, Integer> e : mix.entrySet()) {
            Kind kind;
            try {
                kind = Kind.valueOf(e.getKey().trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException unknown) {
                throw new ParameterException(spec.commandLine(), "--mix names '" + e.getKey() + "'; the kinds are plain, read, lwt, hot and transfer");
            }
            if (e.getValue() < 0) throw new ParameterException(spec.commandLine(), "--mix weight of " + e.getKey() + " is negative");
            weights.merge(kind, e.getValue(), Integer::sum);
        }
        int sum = weights.values().stream().mapToInt(Integer::intValue).sum();
        if (sum == 0) throw new ParameterException(spec.commandLine(), "--mix weights add up to 0");
        Kind[] wheel = new Kind[sum];
        double[] credit = new double[Kind.values().length];
        for (int i = 0; i < sum; i++) {
            Kind best = null;
            for (Map.Entry<Kind, Integer> e : weights.entrySet()) {
                credit[e.getKey().ordinal()] += e.getValue() / (double) sum;
                if (best == null || credit[e.getKey().ordinal()] > credit[best.ordinal()]) best = e.getKey();
            }
            credit[best.ordinal()] -= 1;
            wheel[i] = best;
        }
        return wheel;
    }

    private void validate() {
        if ((rate == null) == (closed == null)) throw new ParameterException(spec.commandLine(), "give one of --rate (open loop) and --closed (closed loop)");
        if (rate != null && !(rate > 0)) throw new ParameterException(spec.commandLine(), "--rate is " + rate + "; it must be positive");
        if (closed != null && closed < 1) throw new ParameterException(spec.commandLine(), "--closed is " + closed + "; it must be at least 1");
        if (duration.isNegative() || duration.isZero()) throw new ParameterException(spec.commandLine(), "--duration must be positive");
        if (keys < 1) throw new ParameterException(spec.commandLine(), "--keys is " + keys + "; it must be at least 1");
        if (accounts < 2) throw new ParameterException(spec.commandLine(), "--accounts is " + accounts + "; a transfer needs at least 2");
        if (inFlightMax < 1) throw new ParameterException(spec.commandLine(), "--in-flight-max must be at least 1");
        if (replicationFactor < 1) throw new ParameterException(spec.commandLine(), "--replication-factor must be at least 1");
        if (timeout.toMillis() < 1) throw new ParameterException(spec.commandLine(), "--timeout must be at least 1ms");
        if (!client.equals("driver") && !client.equals("raw")) throw new ParameterException(spec.commandLine(), "--client is '" + client + "'; it is driver or raw");
        if (connections < 1) throw new ParameterException(spec.commandLine(), "--connections must be at least 1");
    }

    /** The workload's session, with the client deadline as the request timeout and room for the requests in flight. */
    private CqlSession connect() {
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, timeout)
                .withInt(DefaultDriverOption.CONNECTION_MAX_REQUESTS, 32_768)
                // Requests past their deadline are orphans until the node answers them; by default the driver closes a
                // connection with more than 256, which under overload measures the driver's reconnections, not the node.
                .withInt(DefaultDriverOption.CONNECTION_MAX_ORPHAN_REQUESTS, 32_767)
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, DefaultConsistencyLevel.QUORUM.name())
                .withString(DefaultDriverOption.REQUEST_SERIAL_CONSISTENCY, DefaultConsistencyLevel.SERIAL.name())
                .withInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_QUIET_PERIOD, 0)
                .withInt(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_QUIET_PERIOD, 0)
                .build();
        return CqlSession.builder().addContactPoints(cluster.hosts).withLocalDatacenter(cluster.dataCenter).withConfigLoader(config).build();
    }

    private static LongAdder[] newCounters() {
        LongAdder[] counters = new LongAdder[Ending.values().length];
        for (int i = 0; i < counters.length; i++) counters[i] = new LongAdder();
        return counters;
    }

    private static void print(PrintWriter out, String line) {
        out.println(line);
        out.flush();
    }
}
