package ballot.bench.e2e;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.config.ProgrammaticDriverConfigLoaderBuilder;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The end-to-end load client: prepared single-partition INSERTs, then prepared single-partition SELECTs, through the
 * DataStax Java driver 4, against any node that speaks CQL (Ballot or Apache Cassandra), with the same settings for
 * both. {@code src-bench/e2e.sh} runs it against each; docs/performance.md holds the method and the results.
 *
 * <p>Workload: keyspace {@code bench} (SimpleStrategy, replication factor {@code --rf}, default 1), table
 * {@code kv (k int PRIMARY KEY, name text, n int, payload text)}, consistency {@code --consistency} (default ONE),
 * {@code --keys} keys. INSERT writes
 * keys 0, 1, 2, ... (wrapping), so the first {@code --keys} inserts cover every key; SELECT reads uniformly random
 * keys, and any key the INSERT phase did not reach is written first, unmeasured. {@code name} is about 10 bytes,
 * {@code payload} {@code --value-bytes} bytes of text.
 *
 * <p>Phases {@code lwt-uniform} and {@code lwt-hot} send {@code INSERT ... IF NOT EXISTS} (serial SERIAL, commit at
 * {@code --consistency}) of new rows of {@code kvc (p bigint, c bigint, payload text, PRIMARY KEY (p, c))}: each row in its
 * own partition, or every row in partition 0, to compare LWT throughput on one hot partition with the uniform case.
 *
 * <p>Phase {@code scan} reads the whole of {@code kv} (every key below {@code --keys} written first, unmeasured) with
 * {@code SELECT k, name, n, payload FROM bench.kv} in pages of {@code --scan-page} rows (default 5,000), over and over:
 * an operation is a row, its latency is that of the page fetch that brought it, and a scan that does not return
 * exactly {@code --keys} rows counts once as missing. {@code --concurrency} scans run at once.
 *
 * <p>Phase {@code indexed} creates a storage-attached index on {@code n} once every key is written, waits until it
 * answers, then runs {@code SELECT k, name FROM bench.kv WHERE n = ?} for random keys' {@code n}: an equality
 * query on an index, without the partition key (a row not found counts as missing).
 *
 * <p>Load: a closed loop holding exactly {@code --concurrency} requests in flight (a new request goes out when one
 * completes) on {@code --connections} connections. Each phase runs {@code --warmup} seconds unrecorded, then
 * {@code --duration} seconds recorded. Latency is from {@code executeAsync} to completion, in an HdrHistogram;
 * throughput is completions inside the recorded window divided by its length. With {@code --server-pid} (a PID, or a
 * comma-separated list for a cluster), the nodes' CPU time over the recorded window is read from /proc, so that
 * throughput per CPU-second can be compared too.
 *
 * <p>Output: a progress line every {@code --report-every} seconds, a summary per phase, and one machine-readable
 * {@code RESULT key=value ...} line per phase for scripts.
 *
 * <pre>
 * java -cp src-bench/target/benchmarks.jar ballot.bench.e2e.DriverLoad --port 19500 [--host 127.0.0.1]
 *     [--dc datacenter1] [--target ballot] [--phases insert,select] [--keys 100000] [--concurrency 64]
 *     [--connections 1] [--warmup 20] [--duration 30] [--value-bytes 100] [--report-every 5] [--server-pid PID,...]
 *     [--rf 1] [--consistency ONE] [--protocol V5] [--scan-page 5000]
 * </pre>
 */
public final class DriverLoad {
    private static final String KEYSPACE = "bench";
    private static final String TABLE = KEYSPACE + ".kv";
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    private static final int PAYLOADS = 256;
    /** Writes in flight while filling the keys a reading phase needs, whatever the phase's own concurrency. */
    private static final int FILL_IN_FLIGHT = 64;

    /**
     * INSERT and SELECT of {@code kv}; LWT_UNIFORM and LWT_HOT: {@code INSERT ... IF NOT EXISTS} of new rows of
     * {@code kvc (p, c)}, each into its own partition (uniform) or all into partition 0 (one hot partition), so that
     * the two differ only in how the same conditional inserts share partitions.
     */
    enum Phase {
        INSERT, SELECT, LWT_UNIFORM, LWT_HOT, SCAN, INDEXED;

        String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    record Options(String host, int port, String dataCenter, String target, List<Phase> phases, int keys,
                   int concurrency, int connections, Duration warmup, Duration duration, int valueBytes,
                   Duration reportEvery, List<Long> serverPids, int replicationFactor, String consistency, String protocol,
                   int scanPage) {}

    /** What one recorded phase measured. */
    record PhaseResult(Phase phase, double seconds, long ops, Histogram latencyNanos, long errors,
                       Map<String, Long> errorKinds, long missing, double serverCpuSeconds, double clientCpuSeconds) {
        double opsPerSecond() {
            return ops / seconds;
        }
    }

    private final Options options;
    private final CqlSession session;
    private final SplittableRandom random = new SplittableRandom(42);
    private final String[] payloads = new String[PAYLOADS];
    private PreparedStatement insert;
    private PreparedStatement select;
    private PreparedStatement conditionalInsert;
    private PreparedStatement indexedSelect;
    /** Rows the LWT phases have inserted; each request inserts a new one, so every condition holds. */
    private long lwtIssued;
    /** Next key the INSERT phase writes; keys below it (up to --keys) exist. */
    private long insertsIssued;

    private DriverLoad(Options options, CqlSession session) {
        this.options = options;
        this.session = session;
        for (int i = 0; i < PAYLOADS; i++) {
            StringBuilder s = new StringBuilder(options.valueBytes());
            for (int j = 0; j < options.valueBytes(); j++) s.append((char) ('a' + random.nextInt(26)));
            payloads[i] = s.toString();
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("DriverLoad: " + e.getMessage());
            System.exit(2);
            return;
        }
        List<PhaseResult> results = new ArrayList<>();
        try (CqlSession session = connect(options)) {
            DriverLoad load = new DriverLoad(options, session);
            System.out.printf(Locale.ROOT, "[%s] connected to %s:%d (%d node(s)), protocol %s, RF %d at %s, %d keys, %d in flight on %d connection(s) per node%n",
                    options.target(), options.host(), options.port(), session.getMetadata().getNodes().size(),
                    session.getContext().getProtocolVersion(), options.replicationFactor(), options.consistency(),
                    options.keys(), options.concurrency(), options.connections());
            load.createSchema();
            for (Phase phase : options.phases()) results.add(load.run(phase));
        }
        System.out.println();
        for (PhaseResult r : results) printSummary(options, r);
        for (PhaseResult r : results) printResultLine(options, r);
        boolean failed = results.stream().anyMatch(r -> r.errors() > 0 || r.ops() == 0);
        System.exit(failed ? 1 : 0);
    }

    // ---------------------------------------------------------------- setup

    private static CqlSession connect(Options o) {
        ProgrammaticDriverConfigLoaderBuilder config = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, REQUEST_TIMEOUT)
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, o.consistency())
                .withInt(DefaultDriverOption.CONNECTION_POOL_LOCAL_SIZE, o.connections())
                .withInt(DefaultDriverOption.CONNECTION_MAX_REQUESTS, Math.max(1024, o.concurrency()))
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(30))
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(30));
        if (o.protocol() != null) config.withString(DefaultDriverOption.PROTOCOL_VERSION, o.protocol());
        return CqlSession.builder()
                .addContactPoint(new InetSocketAddress(o.host(), o.port()))
                .withLocalDatacenter(o.dataCenter())
                .withConfigLoader(config.build())
                .build();
    }

    private void createSchema() {
        Duration ddlTimeout = Duration.ofSeconds(60);
        session.execute(SimpleStatement.newInstance("CREATE KEYSPACE IF NOT EXISTS " + KEYSPACE
                + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': " + options.replicationFactor() + "}")
                .setTimeout(ddlTimeout));
        session.execute(SimpleStatement.newInstance("CREATE TABLE IF NOT EXISTS " + TABLE
                + " (k int PRIMARY KEY, name text, n int, payload text)").setTimeout(ddlTimeout));
        insert = session.prepare("INSERT INTO " + TABLE + " (k, name, n, payload) VALUES (?, ?, ?, ?)");
        select = session.prepare("SELECT k, name, n, payload FROM " + TABLE + " WHERE k = ?");
        if (options.phases().stream().anyMatch(p -> p == Phase.LWT_UNIFORM || p == Phase.LWT_HOT)) {
            session.execute(SimpleStatement.newInstance("CREATE TABLE IF NOT EXISTS " + KEYSPACE
                    + ".kvc (p bigint, c bigint, payload text, PRIMARY KEY (p, c))").setTimeout(ddlTimeout));
            conditionalInsert = session.prepare("INSERT INTO " + KEYSPACE + ".kvc (p, c, payload) VALUES (?, ?, ?) IF NOT EXISTS");
        }
    }

    // ---------------------------------------------------------------- phases

    private PhaseResult run(Phase phase) throws InterruptedException {
        if ((phase == Phase.SELECT || phase == Phase.SCAN || phase == Phase.INDEXED) && insertsIssued < options.keys()) fillMissingKeys();
        if (phase == Phase.INDEXED) createIndex();
        drive(phase, "warm-up", options.warmup());
        return drive(phase, "measure", options.duration());
    }

    /**
     * Writes the keys the INSERT phase did not reach, so that every SELECT or scan finds its row, with at least 64 writes
     * in flight. Not measured. A write that fails (a timeout on an overloaded node) is retried, up to 5 times per key.
     */
    private void fillMissingKeys() throws InterruptedException {
        long from = insertsIssued;
        System.out.printf(Locale.ROOT, "[%s] writing keys %d..%d before SELECT (unmeasured)%n", options.target(), from, options.keys() - 1);
        List<Integer> keys = new ArrayList<>();
        while (insertsIssued < options.keys()) keys.add((int) (insertsIssued++ % options.keys()));
        int inFlight = Math.max(options.concurrency(), FILL_IN_FLIGHT);
        for (int attempt = 1; !keys.isEmpty(); attempt++) {
            if (attempt > 5) throw new IllegalStateException(keys.size() + " keys could not be written in 5 attempts before SELECT");
            Semaphore permits = new Semaphore(inFlight);
            List<Integer> failed = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int k : keys) {
                permits.acquire();
                session.executeAsync(insertOf(k)).whenComplete((rs, error) -> {
                    if (error != null) failed.add(k);
                    permits.release();
                });
            }
            if (!permits.tryAcquire(inFlight, REQUEST_TIMEOUT.plusSeconds(5).toNanos(), TimeUnit.NANOSECONDS))
                throw new IllegalStateException("writes still in flight " + REQUEST_TIMEOUT.plusSeconds(5).toSeconds() + " s after the fill");
            if (!failed.isEmpty()) System.out.printf(Locale.ROOT, "[%s] %d writes failed; retrying them%n", options.target(), failed.size());
            keys = new ArrayList<>(failed);
        }
    }

    private BoundStatement nextInsert() {
        return insertOf((int) (insertsIssued++ % options.keys()));
    }

    private BoundStatement insertOf(int k) {
        return insert.bind(k, "user-" + k, k * 31, payloads[k % PAYLOADS]);
    }

    private BoundStatement nextConditionalInsert(Phase phase) {
        long row = lwtIssued++;
        long partition = phase == Phase.LWT_HOT ? 0 : row;
        return conditionalInsert.bind(partition, row, payloads[(int) (row % PAYLOADS)]).setSerialConsistencyLevel(DefaultConsistencyLevel.SERIAL);
    }

    /**
     * A storage-attached index on {@code n} (unique: {@code k * 31}), created after the rows are written so the node
     * builds it in the background; waits, unmeasured, until it answers.
     */
    private void createIndex() throws InterruptedException {
        session.execute(SimpleStatement.newInstance("CREATE CUSTOM INDEX IF NOT EXISTS kv_n ON " + TABLE
                + " (n) USING 'StorageAttachedIndex'").setTimeout(Duration.ofSeconds(60)));
        indexedSelect = session.prepare("SELECT k, name FROM " + TABLE + " WHERE n = ?");
        long started = System.nanoTime();
        System.out.printf(Locale.ROOT, "[%s] waiting for the index on n to be built (unmeasured)%n", options.target());
        while (true) {
            try {
                if (session.execute(indexedSelect.bind(31 * (options.keys() - 1))).one() != null) break;
            } catch (com.datastax.oss.driver.api.core.DriverException building) {
                // the index is not queryable yet
            }
            if (System.nanoTime() - started > TimeUnit.MINUTES.toNanos(10)) throw new IllegalStateException("the index on n was not built in 10 minutes");
            Thread.sleep(500);
        }
        System.out.printf(Locale.ROOT, "[%s] index on n answers after %.1f s%n", options.target(), (System.nanoTime() - started) / 1e9);
    }

    private BoundStatement nextIndexed() {
        return indexedSelect.bind(31 * random.nextInt(options.keys()));
    }

    private BoundStatement nextSelect() {
        return select.bind(random.nextInt(options.keys()));
    }

    /**
     * Runs {@code phase} for {@code length} with a fixed number of requests in flight, printing progress; the result
     * covers completions inside the window only (requests still in flight at the end are waited for, not counted).
     */
    private PhaseResult drive(Phase phase, String stage, Duration length) throws InterruptedException {
        Semaphore permits = new Semaphore(options.concurrency());
        Recorder recorder = new Recorder(3);
        LongAdder errors = new LongAdder();
        LongAdder missing = new LongAdder();
        Map<String, LongAdder> errorKinds = new ConcurrentHashMap<>();
        Histogram total = new Histogram(3);
        long cpuServerStart = serverCpuTicks();
        long cpuClientStart = clientCpuNanos();
        long start = System.nanoTime();
        long end = start + length.toNanos();
        long reportEvery = options.reportEvery().toNanos();
        long nextReport = start + reportEvery;
        long lastReport = start;
        String label = "[" + options.target() + " " + phase.label() + " " + stage + "]";
        java.util.concurrent.atomic.AtomicBoolean over = new java.util.concurrent.atomic.AtomicBoolean();

        while (true) {
            long now = System.nanoTime();
            if (now >= nextReport || now >= end) {
                Histogram interval = recorder.getIntervalHistogram();
                total.add(interval);
                double seconds = (now - lastReport) / 1e9;
                System.out.printf(Locale.ROOT, "%s %5.1fs  %9.0f ops/s  p50 %7.3f ms  p99 %7.3f ms  max %8.3f ms  errors %d%n",
                        label, (now - start) / 1e9, interval.getTotalCount() / seconds, millis(interval.getValueAtPercentile(50)),
                        millis(interval.getValueAtPercentile(99)), millis(interval.getMaxValue()), errors.sum());
                lastReport = now;
                nextReport = now + reportEvery;
                if (now >= end) break;
            }
            long waitNanos = Math.min(nextReport, end) - now;
            if (!permits.tryAcquire(waitNanos, TimeUnit.NANOSECONDS)) continue;
            if (phase == Phase.SCAN) {
                scan(recorder, missing, errors, errorKinds, permits, over);
                continue;
            }
            BoundStatement statement = switch (phase) {
                case INSERT -> nextInsert();
                case SELECT -> nextSelect();
                case LWT_UNIFORM, LWT_HOT -> nextConditionalInsert(phase);
                case SCAN -> throw new IllegalStateException("scans are driven page by page");
                case INDEXED -> nextIndexed();
            };
            long sent = System.nanoTime();
            CompletionStage<AsyncResultSet> response = session.executeAsync(statement);
            response.whenComplete((rs, error) -> {
                long latency = System.nanoTime() - sent;
                if (error == null) {
                    recorder.recordValue(latency);
                    if ((phase == Phase.SELECT || phase == Phase.INDEXED) && rs.one() == null) missing.increment();
                    // a new row's condition always holds: not applied means a bug, counted as missing
                    if ((phase == Phase.LWT_UNIFORM || phase == Phase.LWT_HOT) && !rs.wasApplied()) missing.increment();
                } else {
                    errors.increment();
                    errorKinds.computeIfAbsent(error.getClass().getSimpleName(), e -> new LongAdder()).increment();
                }
                permits.release();
            });
        }
        long stopped = System.nanoTime();
        over.set(true); // scans in flight stop at their next page
        double serverCpu = (serverCpuTicks() - cpuServerStart) / (double) clockTicksPerSecond();
        double clientCpu = (clientCpuNanos() - cpuClientStart) / 1e9;
        long errorCount = errors.sum();
        long missingCount = missing.sum();
        Map<String, Long> kinds = new LinkedHashMap<>();
        errorKinds.forEach((k, v) -> kinds.put(k, v.sum()));
        awaitInFlight(permits);
        return new PhaseResult(phase, (stopped - start) / 1e9, total.getTotalCount(), total, errorCount, kinds,
                missingCount, options.serverPids().isEmpty() ? Double.NaN : serverCpu, clientCpu);
    }

    /**
     * Reads the whole table page by page, recording each page's fetch latency once per row it brought; releases its
     * permit when the scan ends, or at its next page once the phase is {@code over}.
     */
    private void scan(Recorder recorder, LongAdder missing, LongAdder errors, Map<String, LongAdder> errorKinds, Semaphore permits,
            java.util.concurrent.atomic.AtomicBoolean over) {
        SimpleStatement statement = SimpleStatement.newInstance("SELECT k, name, n, payload FROM " + TABLE).setPageSize(options.scanPage());
        nextPage(session.executeAsync(statement), System.nanoTime(), 0, recorder, missing, errors, errorKinds, permits, over);
    }

    private void nextPage(CompletionStage<AsyncResultSet> page, long sent, long rowsBefore, Recorder recorder, LongAdder missing,
            LongAdder errors, Map<String, LongAdder> errorKinds, Semaphore permits, java.util.concurrent.atomic.AtomicBoolean over) {
        page.whenComplete((rs, error) -> {
            if (error != null) {
                errors.increment();
                errorKinds.computeIfAbsent(error.getClass().getSimpleName(), e -> new LongAdder()).increment();
                permits.release();
                return;
            }
            long latency = System.nanoTime() - sent;
            int rows = rs.remaining();
            if (rows > 0) recorder.recordValueWithCount(latency, rows);
            long total = rowsBefore + rows;
            if (rs.hasMorePages()) {
                if (over.get()) permits.release();
                else nextPage(rs.fetchNextPage(), System.nanoTime(), total, recorder, missing, errors, errorKinds, permits, over);
                return;
            }
            if (total != options.keys()) missing.increment();
            permits.release();
        });
    }

    private void awaitInFlight(Semaphore permits) throws InterruptedException {
        long waitNanos = REQUEST_TIMEOUT.plusSeconds(5).toNanos();
        if (!permits.tryAcquire(options.concurrency(), waitNanos, TimeUnit.NANOSECONDS))
            throw new IllegalStateException((options.concurrency() - permits.availablePermits())
                    + " requests still in flight " + waitNanos / 1_000_000_000L + " s after the phase ended");
    }

    // ---------------------------------------------------------------- CPU accounting

    /** utime + stime of the server processes in clock ticks, summed; 0 without --server-pid (Linux /proc only). */
    private long serverCpuTicks() {
        long ticks = 0;
        for (long pid : options.serverPids()) {
            try {
                String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
                // The command name (field 2) is in parentheses and may hold spaces; count fields after its closing one.
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            } catch (IOException | RuntimeException e) {
                throw new IllegalStateException("cannot read the CPU time of server pid " + pid + ": " + e.getMessage(), e);
            }
        }
        return ticks;
    }

    private static long clockTicksPerSecond() {
        return Long.getLong("ballot.bench.clockTicks", 100);
    }

    private static long clientCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    // ---------------------------------------------------------------- output

    private static double millis(long nanos) {
        return nanos / 1e6;
    }

    private static void printSummary(Options o, PhaseResult r) {
        Histogram h = r.latencyNanos();
        System.out.printf(Locale.ROOT, "%s %s: %d ops in %.1f s = %.0f ops/s; latency ms p50 %.3f p99 %.3f p99.9 %.3f max %.3f; "
                        + "errors %d%s%s; server CPU %.1f s (%.1f us/op), client CPU %.1f s%n",
                o.target(), r.phase().name(), r.ops(), r.seconds(), r.opsPerSecond(), millis(h.getValueAtPercentile(50)),
                millis(h.getValueAtPercentile(99)), millis(h.getValueAtPercentile(99.9)), millis(h.getMaxValue()), r.errors(),
                r.errorKinds().isEmpty() ? "" : " " + r.errorKinds(), r.phase() == Phase.SELECT || r.phase() == Phase.INDEXED ? "; rows not found " + r.missing()
                        : r.phase() == Phase.SCAN ? "; scans with a wrong row count " + r.missing() : "",
                r.serverCpuSeconds(), r.serverCpuSeconds() * 1e6 / Math.max(1, r.ops()), r.clientCpuSeconds());
    }

    private static void printResultLine(Options o, PhaseResult r) {
        Histogram h = r.latencyNanos();
        System.out.printf(Locale.ROOT, "RESULT target=%s phase=%s seconds=%.2f ops=%d ops_per_s=%.1f p50_ms=%.3f p99_ms=%.3f "
                        + "p999_ms=%.3f max_ms=%.3f errors=%d missing=%d server_cpu_s=%.2f client_cpu_s=%.2f concurrency=%d keys=%d%n",
                o.target(), r.phase().label(), r.seconds(), r.ops(), r.opsPerSecond(),
                millis(h.getValueAtPercentile(50)), millis(h.getValueAtPercentile(99)), millis(h.getValueAtPercentile(99.9)),
                millis(h.getMaxValue()), r.errors(), r.missing(), r.serverCpuSeconds(), r.clientCpuSeconds(), o.concurrency(), o.keys());
    }

    // ---------------------------------------------------------------- arguments

    static Options parse(String[] args) {
        Map<String, String> values = new LinkedHashMap<>(Map.of(
                "--host", "127.0.0.1", "--dc", "datacenter1", "--target", "node", "--phases", "insert,select",
                "--keys", "100000", "--concurrency", "64", "--connections", "1", "--warmup", "20", "--duration", "30",
                "--value-bytes", "100"));
        values.put("--report-every", "5");
        values.put("--server-pid", "");
        values.put("--rf", "1");
        values.put("--consistency", "ONE");
        values.put("--scan-page", "5000");
        for (int i = 0; i < args.length; i += 2) {
            String name = args[i];
            if (!values.containsKey(name) && !name.equals("--port") && !name.equals("--protocol"))
                throw new IllegalArgumentException("unknown option '" + name + "'");
            if (i + 1 >= args.length) throw new IllegalArgumentException(name + " needs a value");
            values.put(name, args[i + 1]);
        }
        if (!values.containsKey("--port")) throw new IllegalArgumentException("--port is required");
        List<Phase> phases = new ArrayList<>();
        for (String p : values.get("--phases").split(",")) {
            try {
                phases.add(Phase.valueOf(p.trim().toUpperCase(Locale.ROOT).replace('-', '_')));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--phases takes insert, select, lwt-uniform, lwt-hot, scan and indexed, not '" + p + "'");
            }
        }
        return new Options(values.get("--host"), positive(values, "--port"), values.get("--dc"), values.get("--target"),
                List.copyOf(phases), positive(values, "--keys"), positive(values, "--concurrency"),
                positive(values, "--connections"), Duration.ofSeconds(atLeast(values, "--warmup", 0)),
                Duration.ofSeconds(positive(values, "--duration")), atLeast(values, "--value-bytes", 0),
                Duration.ofSeconds(positive(values, "--report-every")), pids(values.get("--server-pid")),
                positive(values, "--rf"), values.get("--consistency").toUpperCase(Locale.ROOT), values.get("--protocol"),
                positive(values, "--scan-page"));
    }

    private static List<Long> pids(String list) {
        List<Long> pids = new ArrayList<>();
        for (String p : list.split(",")) {
            if (p.isBlank() || p.trim().equals("0")) continue;
            try {
                pids.add(Long.parseLong(p.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--server-pid takes process ids separated by commas, not '" + list + "'");
            }
        }
        return List.copyOf(pids);
    }

    private static int positive(Map<String, String> values, String name) {
        return atLeast(values, name, 1);
    }

    private static int atLeast(Map<String, String> values, String name, int min) {
        String value = values.get(name);
        try {
            int n = Integer.parseInt(value);
            if (n < min) throw new IllegalArgumentException(name + " must be at least " + min + ", was " + n);
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, was '" + value + "'");
        }
    }
}
