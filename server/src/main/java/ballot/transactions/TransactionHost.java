package ballot.transactions;

import ballot.cql.ConsistencyLevel;
import ballot.cql.WriteType;
import ballot.cql.data.PartitionData;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.error.WriteTimeoutException;
import ballot.cql.schema.TableMetadata;
import ballot.cql.spi.CasRequest;
import ballot.cql.spi.StatementSource;
import ballot.cql.spi.TransactionResult;
import ballot.cql.spi.Transactions;
import ballot.cql.trace.CoordinatorTrace;
import ballot.cql.trace.Tracing;
import ballot.lwt.DemandTicker;
import ballot.lwt.PaxosEngine;
import ballot.net.Messaging;
import ballot.txn.Participant;
import ballot.txn.PartitionKey;
import ballot.txn.Transaction;
import ballot.txn.TxnId;
import ballot.txn.TxnResult;
import ballot.txn.coordinator.TxnCoordinator;
import ballot.txn.spi.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's multi-partition transactions (docs/txn.md §11.1): the core's {@link TxnCoordinator} on single-threaded
 * lanes over {@link PaxosPartitionCas}, answering the query layer once a transaction is decided, and a background
 * sweep that recovers what crashed coordinators left ({@link TxnSweep}).
 *
 * <p>Threading: each lane owns one coordinator, which is not thread-safe; every call into it and every CAS reply runs
 * on the lane. A transaction stays on the lane it was submitted to.
 */
public final class TransactionHost implements Transactions, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TransactionHost.class);

    /**
     * @param lanes single-threaded coordinators transactions are spread over
     * @param timeout how long a statement waits for its transaction to be decided before it is answered with a timeout;
     *     a little under the drivers' default request timeout (2 s for the Java driver)
     * @param epochLifetime how long an attempt may run before others may recover it (docs/txn.md §7)
     * @param background how long the background finish, recovery and sweep resend lost steps
     * @param retention how long a decided record is kept after its deadline; it must exceed {@code background}
     * @param sweepPeriod how often the sweep scans the node's transaction states
     */
    public record Options(int lanes, Duration timeout, Duration epochLifetime, Duration background, Duration retention,
            Duration sweepPeriod) {
        public Options {
            if (lanes < 1) throw new IllegalArgumentException("transaction lanes is " + lanes + "; must be >= 1");
        }

        public static Options defaults() {
            return new Options(2, Duration.ofMillis(1500), Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(15),
                    Duration.ofSeconds(1));
        }
    }

    private final Options options;
    private final Function<UUID, TableMetadata> tables;
    private final LongSupplier wallMicros;
    private final Lane[] lanes;
    private final ScheduledExecutorService ticker;
    /** Ticks the lanes whose coordinators are not quiet, every millisecond; none while all are. */
    private final DemandTicker ticks;
    private final AtomicInteger next = new AtomicInteger();
    private final Map<ballot.txn.Mark, Counter> marks = new EnumMap<>(ballot.txn.Mark.class);
    private final MeterRegistry metrics;
    private final ballot.storage.StorageEngine storage;
    private final PaxosEngine engine;

    /** Where partitions' steps run; this node's own Paxos until {@link #coordinateOn}. */
    private volatile PaxosPartitionCas.Route route = PaxosPartitionCas.Route.LOCAL;
    /** Rebuilds the compare-and-sets of a statement another node sent steps of; null until {@link #coordinateOn}. */
    private volatile Function<StatementSource, List<CasRequest>> rebuild;
    /** Runs steps other nodes send here, on this node's Paxos. */
    private final PaxosPartitionCas here;
    /** The sessions of traced statements' transactions until they are answered; their steps are traced in them. */
    private final Map<TxnId, CoordinatorTrace> traced = new ConcurrentHashMap<>();

    /**
     * @param tables the table of an id; throws for one that does not exist
     * @param wallMicros the node's wall clock in microseconds: ages and deadlines, compared with decree timestamps
     */
    public TransactionHost(PaxosEngine engine, ballot.storage.StorageEngine storage, Function<UUID, TableMetadata> tables,
            LongSupplier wallMicros, Options options, MeterRegistry metrics) {
        this.engine = engine;
        this.options = options;
        this.tables = tables;
        this.wallMicros = wallMicros;
        this.metrics = metrics;
        for (ballot.txn.Mark mark : ballot.txn.Mark.values()) {
            marks.put(mark, Counter.builder("ballot.txn.events").tag("event", mark.name().toLowerCase())
                    .description("Notable steps of the transaction protocol (docs/txn.md), by kind").register(metrics));
        }
        SecureRandom seeds = new SecureRandom();
        this.lanes = new Lane[options.lanes()];
        for (int i = 0; i < lanes.length; i++) lanes[i] = new Lane(i, engine, seeds.nextLong());
        this.ticker = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "txn-ticker"));
        this.ticks = new DemandTicker(ticker, Duration.ofMillis(1), () -> {
            for (Lane lane : lanes) if (!lane.quiet) return true;
            return false;
        }, () -> {
            for (Lane lane : lanes) if (!lane.quiet) lane.execute(lane.coordinator::tick);
        });
        // Quiet coordinators still hold record retirements, due a retention window later (docs/txn.md §4.3).
        long period = options.sweepPeriod().toMillis();
        ticker.scheduleWithFixedDelay(() -> {
            for (Lane lane : lanes) lane.execute(lane.coordinator::tick);
        }, period, period, TimeUnit.MILLISECONDS);
        this.here = new PaxosPartitionCas(engine, tables, Runnable::run, () -> PaxosPartitionCas.Route.LOCAL, id -> null);
        this.storage = storage;
        log.info("transactions ready lanes={} timeout={}ms epoch_lifetime={}ms", lanes.length, options.timeout().toMillis(),
                options.epochLifetime().toMillis());
    }

    /** Installs the verb other nodes send steps with; before the node joins, so no peer finds it missing. */
    public void handle(Messaging messaging) {
        messaging.handle(TxnVerbs.STEP, (request, from) -> runSteps(request));
    }

    /**
     * From now on each partition's steps run on the node {@code coordinatorOf} names (null: this node), its first live
     * replica (docs/txn.md §11.1, "Coordination"), and the sweep scans for the partitions this node coordinates;
     * {@code rebuild} rebuilds the compare-and-sets of a statement from what its client sent.
     */
    public void coordinateOn(Function<PartitionKey, InetSocketAddress> coordinatorOf, Messaging messaging, Duration stepTimeout,
            Function<StatementSource, List<CasRequest>> rebuild) {
        this.rebuild = rebuild;
        this.route = new PaxosPartitionCas.Route() {
            @Override
            public InetSocketAddress coordinator(PartitionKey key) {
                return coordinatorOf.apply(key);
            }

            @Override
            public CompletableFuture<byte[]> send(InetSocketAddress to, byte[] steps) {
                return messaging.request(to, TxnVerbs.STEP, steps, stepTimeout);
            }
        };
        TxnSweep sweep = new TxnSweep(storage, wallMicros, TxnCoordinator.sweptAfter(options.retention(), options.background()),
                options.sweepPeriod(), key -> coordinatorOf.apply(key) == null, key -> lane(key.hashCode()).sweep(key));
        ticker.scheduleWithFixedDelay(sweep::pass, options.sweepPeriod().toMillis(), options.sweepPeriod().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Steps another node sent: run here, whatever this node thinks of the partition's coordinator (no forwarding on). */
    private CompletableFuture<byte[]> runSteps(byte[] bytes) {
        Function<StatementSource, List<CasRequest>> rebuilding = rebuild;
        if (rebuilding == null) return CompletableFuture.failedFuture(new IllegalStateException("this node coordinates no transactions yet"));
        TxnStepCodec.Request request;
        try {
            request = TxnStepCodec.decode(bytes, rebuilding);
        } catch (RuntimeException e) {
            log.warn("transaction steps from a peer cannot be decoded or rebuilt: {}", e.toString());
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<byte[]> replies = new CompletableFuture<>();
        here.runHere(TxnKeys.of(request.tableId(), request.key()), request.steps(), Tracing.current(), answers -> {
            List<ballot.txn.step.Reply> list = answers != null ? answers
                    : java.util.Collections.nCopies(request.steps().size(), ballot.txn.step.Reply.UNKNOWN);
            try {
                replies.complete(TxnStepCodec.encodeReplies(list, request.tableId(), request.key()));
            } catch (RuntimeException e) {
                replies.completeExceptionally(e);
            }
        });
        return replies;
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private Lane lane(int hash) {
        return lanes[Math.floorMod(hash, lanes.length)];
    }

    @Override
    public CompletableFuture<TransactionResult> run(List<CasRequest> participants, ConsistencyLevel serial, ConsistencyLevel commit,
            StatementSource source) {
        if (participants.isEmpty()) throw new IllegalArgumentException("a transaction without participants");
        if (participants.size() > PARTICIPANTS_MAX) {
            throw new InvalidRequestException("A transaction may involve at most " + PARTICIPANTS_MAX + " partitions; this one involves "
                    + participants.size());
        }
        List<Participant<TxnValue>> parts = new ArrayList<>(participants.size());
        Set<PartitionKey> keys = new HashSet<>();
        for (int i = 0; i < participants.size(); i++) {
            CasRequest request = participants.get(i);
            PartitionKey key = TxnKeys.of(request.table().id(), request.key());
            if (!keys.add(key)) throw new IllegalArgumentException("partition " + request.key() + " appears twice in one transaction");
            parts.add(new Participant<>(key, new CqlOperation(request, i, source, commit)));
        }
        // Unavailable before anything is placed, as a conditional statement is refused before its first round.
        ConsistencyLevel placed = PaxosPartitionCas.commitOfValues(commit);
        for (CasRequest request : participants) engine.checkTransactionStep(request.table(), request.key(), placed);
        long now = wallMicros.getAsLong();
        // The home is the first participant: its state holds the record (docs/txn.md §11.1).
        Transaction<TxnValue> txn = new Transaction<>(new TxnId(UUID.randomUUID()), now, now + options.epochLifetime().toNanos() / 1000,
                parts.get(0).key(), parts);
        CompletableFuture<TransactionResult> future = new CompletableFuture<>();
        long started = System.nanoTime();
        future.whenComplete((result, failure) -> Timer.builder("ballot.txn.latency")
                .description("Transactions from submission to the answer, by outcome")
                .tag("outcome", failure != null ? failure.getClass().getSimpleName().replace("Exception", "").toUpperCase(java.util.Locale.ROOT)
                        : result.applied() ? "APPLIED" : "NOT_APPLIED")
                .publishPercentileHistogram().register(metrics).record(System.nanoTime() - started, TimeUnit.NANOSECONDS));
        CoordinatorTrace trace = Tracing.current() instanceof CoordinatorTrace t ? t : null;
        if (trace != null) {
            trace.event("Starting transaction " + txn.id().uuid() + " over " + parts.size() + " partitions");
            traced.put(txn.id(), trace);
        }
        Lane lane = lane(next.getAndIncrement());
        lane.execute(() -> lane.coordinator.submit(txn, options.timeout().toNanos(), result -> lane.answer(txn, result, future, serial)));
        return future;
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        for (Lane lane : lanes) lane.executor.shutdownNow();
    }

    /** One coordinator and the thread it runs on. */
    private final class Lane {
        private final ExecutorService executor;
        private final TxnCoordinator<TxnValue> coordinator;
        /** The coordinator's {@code quiet()} after the lane's last task: a quiet lane is not ticked (an idle node ticks nothing). */
        private volatile boolean quiet = true;

        Lane(int index, PaxosEngine engine, long seed) {
            this.executor = Executors.newSingleThreadExecutor(r -> daemon(r, "txn-lane-" + index));
            SplittableRandom random = new SplittableRandom(seed);
            this.coordinator = TxnCoordinator.builder(new PaxosPartitionCas(engine, tables, this::execute, () -> route, traced::get))
                    .clock(new Clock() {
                        @Override
                        public long nanoTime() {
                            return System.nanoTime();
                        }

                        @Override
                        public long wallMicros() {
                            return wallMicros.getAsLong();
                        }
                    })
                    .random(random::nextLong)
                    .observer(mark -> marks.get(mark).increment())
                    .epochLifetime(options.epochLifetime())
                    .background(options.background())
                    .retention(options.retention())
                    .build();
        }

        void execute(Runnable task) {
            try {
                executor.execute(() -> {
                    try {
                        task.run();
                    } catch (RuntimeException e) {
                        log.error("transaction lane task failed", e);
                    }
                    boolean nowQuiet = coordinator.quiet();
                    if (quiet != nowQuiet) quiet = nowQuiet; // a volatile write only on a change
                    if (!nowQuiet) ticks.wake();
                });
            } catch (RejectedExecutionException e) {
                // the node is stopping: whatever waits on this lane is answered by its own timeout
            }
        }

        void sweep(PartitionKey key) {
            execute(() -> coordinator.sweep(key, clean -> { }));
        }

        /**
         * The core's answer is the client's. A commit is answered at its commit point, when every intent is in place
         * (docs/txn.md §4.2), before its writes are resolved: a plain read that meets one of its intents waits for the
         * resolution (§10), so a QUORUM read after the answer sees the writes.
         */
        void answer(Transaction<TxnValue> txn, TxnResult<TxnValue> result, CompletableFuture<TransactionResult> future,
                ConsistencyLevel serial) {
            CoordinatorTrace trace = traced.remove(txn.id());
            if (trace != null) { // before the answer, which ends the session
                trace.event("Transaction " + txn.id().uuid() + " " + result.outcome().name().toLowerCase(java.util.Locale.ROOT)
                        + (result.outcome() == TxnResult.Outcome.ABORTED ? ": " + result.reason() : ""));
            }
            switch (result.outcome()) {
                case COMMITTED -> future.complete(new TransactionResult(true, reads(txn, result)));
                case ABORTED -> {
                    String reason = result.reason();
                    if (reason.startsWith(CqlOperation.INVALID_PREFIX))
                        future.completeExceptionally(new InvalidRequestException(reason.substring(CqlOperation.INVALID_PREFIX.length())));
                    else future.complete(new TransactionResult(false, reads(txn, result)));
                }
                case UNKNOWN -> future.completeExceptionally(new WriteTimeoutException(serial, 0, 1, WriteType.CAS, 0));
            }
        }

        /** What each participant read, in participant order (null where the answer has nothing). */
        private List<PartitionData> reads(Transaction<TxnValue> txn, TxnResult<TxnValue> result) {
            List<PartitionData> reads = new ArrayList<>(txn.participants().size());
            for (Participant<TxnValue> p : txn.participants()) {
                TxnValue seen = result.reads().get(p.key());
                reads.add(seen instanceof TxnValue.Read r ? r.data() : null);
            }
            return reads;
        }
    }
}
