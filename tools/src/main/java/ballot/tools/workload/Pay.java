package ballot.tools.workload;

import ballot.tools.ledger.Algorithm;
import ballot.tools.ledger.Ledger;
import ballot.tools.ledger.LedgerCounters;
import ballot.tools.ledger.LedgerTables;
import ballot.txn.transfer.TransferOutcome;
import ballot.tools.workload.PopTotals.PopTotal;
import ballot.tools.workload.TransferChoice.Payment;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * lightest's pay: N transfers between random accounts that pop registered, W at a time, each made by a {@link Ledger}
 * with the chosen algorithm. A transfer whose outcome is TIMED_OUT_UNKNOWN is retried with the same id (so it cannot
 * happen twice) until it resolves, at most {@link #RETRIES_MAX} times within {@link #RETRY_WINDOW}; one still unknown
 * after that is counted as unresolved. {@code --check} runs the ledger check afterwards.
 */
@Command(name = "pay", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Make transfers between accounts registered by pop; exit status 1 if any failed with an error or --check fails.")
final class Pay implements Callable<Integer> {
    static final int RETRIES_MAX = 10;
    static final Duration RETRY_WINDOW = Duration.ofSeconds(60);
    private static final long RETRY_PAUSE_MILLIS_MAX = 1_000;

    @Option(names = {"-n", "--transfers"}, paramLabel = "N", defaultValue = "10000", description = "transfers to make (default ${DEFAULT-VALUE})")
    long transfers;

    @Option(names = "--zipfian", description = "pick accounts from a zipfian distribution (a few hot accounts) instead of uniformly")
    boolean zipfian;

    @Option(names = "--algorithm", paramLabel = "ALGORITHM", defaultValue = "lwt",
            description = "how each transfer is made: lwt (the article's conditional steps), batch (a read, then one conditional batch over "
                    + "both accounts), txn (one BEGIN TRANSACTION statement) (default ${DEFAULT-VALUE})")
    Algorithm algorithm;

    @Option(names = "--check", description = "afterwards, finish abandoned transfers and check the total balance, as the check command does")
    boolean check;

    @Mixin
    LoadOptions load;

    @Mixin
    ClusterOptions cluster;

    @Spec
    CommandSpec spec;

    private final LongAdder retries = new LongAdder();

    @Override
    public Integer call() throws InterruptedException {
        validate();
        PrintWriter out = spec.commandLine().getOut();
        String keyspace = cluster.keyspaceCql();
        try (CqlSession session = cluster.connect(load.workers)) {
            Optional<PopTotal> registered;
            try {
                registered = PopTotals.read(session, keyspace, load.seed, load.quorumConsistency());
            } catch (InvalidQueryException e) {
                print(out, "pay: cannot read " + keyspace + ".pop_totals (" + e.getMessage() + "): run pop first");
                return 1;
            }
            if (registered.isEmpty() || registered.get().accounts() < 2) {
                print(out, "pay: " + keyspace + ".pop_totals records " + registered.map(PopTotal::accounts).orElse(0L) + " accounts with seed " + load.seed
                        + "; a transfer needs two: run pop first (with this --seed)");
                return 1;
            }
            long accounts = registered.get().accounts();
            LedgerTables.create(session, cluster.keyspaceId());
            Ledger ledger = Ledger.builder(session).keyspace(cluster.keyspaceId()).algorithm(algorithm).serialConsistency(load.consistency).build();
            TransferChoice choice = new TransferChoice(new Accounts(load.seed), accounts, zipfian);
            print(out, String.format(Locale.ROOT, "pay: %d transfers among accounts 0..%d of seed %d in %s, %s, algorithm %s, %d workers, LWT at %s (commit %s)",
                    transfers, accounts - 1, load.seed, keyspace, zipfian ? "zipfian (theta " + Zipfian.THETA + ")" : "uniform", algorithm, load.workers,
                    load.consistency, load.writeConsistency()));
            ExecutorService workers = Executors.newFixedThreadPool(load.workers, daemonThreads());
            LoadResult<TransferOutcome> result;
            try {
                result = load.boundedLoad(line -> print(out, line))
                        .run(transfers, TransferOutcome.class, index -> CompletableFuture.supplyAsync(() -> pay(ledger, choice.next(ThreadLocalRandom.current())), workers));
            } finally {
                workers.shutdownNow();
            }
            print(out, Report.summary("pay", "transfers", result, Pay::label));
            LedgerCounters counters = ledger.counters();
            print(out, String.format(Locale.ROOT, "pay: retries %d (same id, after TIMED_OUT_UNKNOWN), lock conflicts %d, balance conflicts %d, "
                    + "recoveries %d, stale locks released %d", retries.sum(), counters.lockConflicts(), counters.balanceConflicts(), counters.recoveries(),
                    counters.staleLocksReleased()));
            PrintWriter err = spec.commandLine().getErr();
            Report.errors(result).forEach(err::println);
            err.flush();
            boolean passed = !check || new LedgerCheck(session, cluster.keyspaceId(), ledger, load.quorumConsistency(), line -> print(out, line))
                    .run(LedgerCheck.WAIT_DEFAULT);
            return result.errorCount() == 0 && passed ? 0 : 1;
        }
    }

    private void validate() {
        if (transfers < 1) throw new ParameterException(spec.commandLine(), "--transfers is " + transfers + "; it must be at least 1");
        load.validate(spec);
        if (!load.conditional())
            throw new ParameterException(spec.commandLine(), "--consistency is " + load.consistency + "; pay's statements are conditional, so it must be SERIAL or LOCAL_SERIAL");
    }

    /** One transfer, retried with its id while its outcome is unknown, within the bounds. */
    private TransferOutcome pay(Ledger ledger, Payment payment) {
        UUID id = Uuids.timeBased();
        TransferOutcome outcome = ledger.transfer(id, payment.source(), payment.destination(), payment.amount());
        long deadlineNanos = System.nanoTime() + RETRY_WINDOW.toNanos();
        for (int retry = 1; outcome == TransferOutcome.TIMED_OUT_UNKNOWN && retry <= RETRIES_MAX && System.nanoTime() - deadlineNanos < 0; retry++) {
            try {
                // the cluster was slow or failing: give it a moment, longer each time
                Thread.sleep(Math.min(RETRY_PAUSE_MILLIS_MAX, 50L << retry));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return outcome;
            }
            retries.increment();
            outcome = ledger.transfer(id, payment.source(), payment.destination(), payment.amount());
        }
        return outcome;
    }

    private static String label(TransferOutcome outcome) {
        return switch (outcome) {
            case COMPLETED -> "completed";
            case INSUFFICIENT_FUNDS -> "overdraft";
            case SOURCE_NOT_FOUND -> "source not found";
            case DESTINATION_NOT_FOUND -> "destination not found";
            case SAME_ACCOUNT -> "same account";
            case TIMED_OUT_UNKNOWN -> "unresolved";
        };
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "pay-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    private static void print(PrintWriter out, String line) {
        out.println(line);
        out.flush();
    }
}
