package ballot.lwt;

import ballot.cluster.Membership;
import ballot.cluster.MembershipListener;
import ballot.cluster.NodeInfo;
import ballot.cql.ConsistencyLevel;
import ballot.cql.WriteType;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Row;
import ballot.cql.error.OverloadedException;
import ballot.cql.error.ReadTimeoutException;
import ballot.cql.error.UnavailableException;
import ballot.cql.error.WriteTimeoutException;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import ballot.cql.spi.CurrentAdmission;
import ballot.cql.spi.CasRequest;
import ballot.cql.spi.CasResult;
import ballot.cql.spi.LwtCoordinator;
import ballot.cql.spi.RequestAdmission;
import ballot.cql.trace.CoordinatorTrace;
import ballot.cql.trace.Trace;
import ballot.cql.trace.Tracing;
import ballot.net.LogThrottle;
import ballot.net.Messaging;
import ballot.net.MessagingException;
import ballot.paxos.BallotGenerator;
import ballot.paxos.Bytes;
import ballot.paxos.Electorate;
import ballot.paxos.NodeId;
import ballot.paxos.PaxosKey;
import ballot.paxos.acceptor.AcceptorShell;
import ballot.paxos.coordinator.BallotTooEarly;
import ballot.paxos.coordinator.CasCoordinator;
import ballot.paxos.coordinator.CommitLevel;
import ballot.paxos.coordinator.WorkSlot;
import ballot.paxos.message.Commit;
import ballot.paxos.message.Message;
import ballot.paxos.message.Prepare;
import ballot.paxos.message.Propose;
import ballot.paxos.message.Prune;
import ballot.paxos.message.Reply;
import ballot.paxos.message.Request;
import ballot.paxos.spi.Clock;
import ballot.paxos.spi.Transport;
import ballot.storage.StorageEngine;
import ballot.system.VirtualTable;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's Paxos: runs conditional statements and SERIAL reads through the core in module {@code paxos} on every
 * replication factor (docs/paxos.md §9, "how the server drives the core").
 *
 * <p>Threading. {@code N} lanes, each one single-threaded executor owning an {@link AcceptorShell} and a
 * {@link CasCoordinator} per class of partition; a partition belongs to the lane its key hashes to, and every request,
 * reply, acceptor request and tick for it runs there, so neither the core's coordinators nor the acceptor need a lock.
 * Once a background keyspace is set, a lane runs its partitions' tasks, their coordinator's tick, prunes and purges
 * only when nothing else waits ({@link LaneExecutor}). A lane whose coordinator
 * has a round in flight or a session to evict ticks every few milliseconds; a quiet lane is not ticked ({@link DemandTicker}). An acceptor step's synced write goes to the {@link GroupCommit} writer while the lane goes on with
 * other partitions (the partition's own next requests wait for it); the writer puts every step that arrived during the
 * previous sync into one synced batch, so steps in flight share an fsync however many there are. A conditional
 * statement's answer is completed on its lane: what the query layer chains on it (the result rows, the response,
 * handing it to the connection) is short and never blocks, and a hand-off to another thread would cost more than it
 * does (a wake-up per LWT, docs/performance.md "Answers on the lane"). The transaction layer's steps are answered on
 * their own executor, since it chains further rounds and their bookkeeping on them; statement threads only wait on
 * futures.
 *
 * <p>Messaging. The core's messages are fire-and-forget; each acceptor request travels as a PAXOS_* request whose
 * response is the acceptor's reply, handed to the lane of its partition. A request to this node is a task on the
 * lane, never a network call. Requests to nodes the failure detector believes down are dropped (the core
 * retransmits), and failed requests are simply lost messages.
 *
 * <p>Answers (docs/paxos.md §4.10): APPLIED and NOT_APPLIED carry the state the condition saw; an update that may
 * have been accepted but whose fate is unknown by the contention timeout is WriteTimeout(CAS); one that had no effect
 * is WriteTimeout(CAS) too (ReadTimeout for a SERIAL read); a decided update short of its commit level is
 * WriteTimeout(SIMPLE) at the commit level; too few live replicas at the start is Unavailable.
 */
public final class PaxosEngine implements LwtCoordinator, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PaxosEngine.class);
    private static final String INCARNATION = "paxos/incarnation";
    /**
     * Registers each lane keeps in memory ({@link AcceptorShell}): enough for the rounds in flight and hot partitions,
     * so most steps skip a RocksDB read; few enough that, under a stream of new partitions, entries die young instead
     * of being promoted and marked by G1 (the same holds for the coordinator's idle sessions).
     */
    private static final int CACHED_REGISTERS_PER_LANE = 1024;
    /** Deferred promises (docs/paxos.md §4.2.5) waiting per lane before the oldest is written out on its own. */
    private static final int DEFERRED_PROMISES_PER_LANE = 1024;
    /** How far after a round's ballot a write in its state may be and still move the round's ballot past it (§5.6). */
    private static final long BALLOT_CATCH_UP_MAX_MICROS = 1_000_000;

    /**
     * @param contentionTimeout how long a request may take in all, retries after contention included
     *     ({@code cas_contention_timeout_in_ms})
     * @param lanes single-threaded executors partitions are spread over (at least 2)
     * @param tick how often each lane's coordinator checks deadlines, retransmissions and back-off
     * @param messageTimeout how long one internode Paxos request waits for its reply (the core retransmits anyway)
     * @param groupCommitMax the most acceptor steps one synced batch holds ({@link GroupCommit})
     * @param purgeGrace how long a partition's registers outlive its last Paxos step before they are purged
     *     (docs/paxos.md §4.13); at least ten contention timeouts, so no request still waits on what they record
     * @param partitionQueueMax the most conditional statements that may wait for one partition's next round on this
     *     coordinator; the next is answered OVERLOADED ({@code admission_partition_lwt_queue_max}, docs/admission.md)
     * @param syncVotes whether promises, acceptances and the commits that clear one are synced before their reply
     *     ({@code paxos_sync: always}), or only written to the log, which the storage syncs on its own schedule
     *     ({@code commitlog}; docs/paxos.md §4.15)
     */
    public record Options(Duration contentionTimeout, int lanes, Duration tick, Duration messageTimeout, int groupCommitMax,
            Duration purgeGrace, int partitionQueueMax, boolean syncVotes) {
        public Options {
            if (purgeGrace.compareTo(contentionTimeout.multipliedBy(10)) < 0)
                throw new IllegalArgumentException("paxos_purge_grace_period_in_seconds is " + purgeGrace.toSeconds() + "; must be at least ten "
                        + "times cas_contention_timeout_in_ms (" + contentionTimeout.toMillis() + ")");
            if (contentionTimeout.isNegative() || contentionTimeout.isZero())
                throw new IllegalArgumentException("cas contention timeout is " + contentionTimeout + "; must be positive");
            if (lanes < 1) throw new IllegalArgumentException("paxos lanes is " + lanes + "; must be >= 1");
            if (tick.isNegative() || tick.isZero()) throw new IllegalArgumentException("paxos tick is " + tick + "; must be positive");
            if (groupCommitMax < 1) throw new IllegalArgumentException("paxos group commit size is " + groupCommitMax + "; must be >= 1");
            if (partitionQueueMax < 1)
                throw new IllegalArgumentException("admission_partition_lwt_queue_max is " + partitionQueueMax + "; must be >= 1");
        }

        /**
         * N = cores (at least 2) lanes, a 5 ms tick, messages waiting as long as the contention timeout, groups of
         * 1024, at most {@code partitionQueueMax} statements waiting per partition.
         */
        public static Options defaults(Duration contentionTimeout, Duration purgeGrace, int partitionQueueMax, boolean syncVotes) {
            return new Options(contentionTimeout, Math.max(2, Runtime.getRuntime().availableProcessors()), Duration.ofMillis(5),
                    contentionTimeout, 1024, purgeGrace, partitionQueueMax, syncVotes);
        }
    }

    private final NodeId self;
    private final int incarnation;
    private final Options options;
    private final Function<UUID, TableMetadata> tables;
    private final Clock clock;
    private final RocksPaxosStore store;
    private final Lane[] lanes;
    private final GroupCommit groupCommit;
    private final ThreadPoolExecutor answers;
    private final RegisterPurge purge;
    /** Puts each lane's tick on the lane. */
    private final ScheduledThreadPoolExecutor ticker;
    private final PruneBatches prunes;
    private final PaxosStats stats;
    private final LogThrottle throttle = new LogThrottle(TimeUnit.SECONDS.toNanos(10), System::nanoTime);
    private final CqlReadModel readModel;
    private final Transport transport = new MessagingTransport();
    private final Function<UUID, VirtualTable> virtualTables;
    private volatile Membership membership;
    private volatile Placement placement;
    private volatile java.util.function.Predicate<UUID> abstained = tableId -> false;
    /** The keyspaces whose partitions' lane tasks are background work ({@link #runInBackground}); null: none. */
    private volatile Set<String> background;
    /** Each known table's class: a table never changes keyspace, so a partition's class is fixed once its table is known. */
    private final Map<UUID, Boolean> backgroundTables = new ConcurrentHashMap<>();
    private final Supplier<Schema> schema;
    /** Whether a partition's transaction state holds an intent ({@link #honourLocks}); none until transactions are hosted. */
    private volatile Predicate<byte[]> locked = state -> false;
    private volatile Messaging messaging;
    private volatile NodeIds nodeIds;

    /**
     * @param virtualTables the node's generated table of an id, or null: a SERIAL read of one reads it locally
     * @param wallMicros the node's timestamp clock: ballots' micros are the write timestamps of what they decide
     * @param metrics where {@link PaxosStats} registers its meters
     */
    public PaxosEngine(StorageEngine storage, Supplier<Schema> schema, Function<UUID, VirtualTable> virtualTables, UUID hostId,
            LongSupplier wallMicros, Options options, MeterRegistry metrics) {
        this.options = options;
        this.virtualTables = virtualTables;
        this.schema = schema;
        this.self = NodeIds.of(hostId);
        this.tables = id -> {
            TableMetadata table = schema.get().table(id);
            if (table == null) throw new IllegalStateException("unknown table id " + id + " (dropped, or schema not yet agreed)");
            return table;
        };
        this.clock = new Clock() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public long wallMicros() {
                return wallMicros.getAsLong();
            }
        };
        this.readModel = new CqlReadModel(tables);
        this.groupCommit = new GroupCommit(storage, options.groupCommitMax(), options.syncVotes());
        this.store = new RocksPaxosStore(storage, tables, () -> (int) (wallMicros.getAsLong() / 1_000_000), groupCommit);
        byte[] previous = storage.getMeta(INCARNATION);
        this.incarnation = previous == null ? 1 : ByteBuffer.wrap(previous).getInt() + 1;
        storage.putMeta(INCARNATION, ByteBuffer.allocate(4).putInt(0, incarnation).array());
        this.answers = pool("paxos-answer", 2);
        this.ticker = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "paxos-ticker");
            t.setDaemon(true);
            return t;
        });
        this.prunes = new PruneBatches(ticker, this::sendPrunes);
        this.stats = new PaxosStats(metrics, storage, groupCommit, this::queues); // before the lanes: their acceptors report to it
        this.purge = new RegisterPurge(storage, store, new RegisterPurge.Engine() {
            @Override
            public void purge(PaxosKey key, long floorMicros, java.util.function.Consumer<Boolean> done) {
                Lane lane = lane(key);
                lane.execute(() -> done.accept(lane.acceptor.purge(key, floorMicros)), true); // background work, whatever the keyspace
            }

            @Override
            public void finish(UUID tableId, ballot.cql.data.PartitionKey key) {
                TableMetadata table = schema.get().table(tableId);
                if (table == null) return; // dropped: nothing reads it any more
                // The proposal's electorate is not recorded: in a cluster of several data centers it may have been
                // LOCAL_SERIAL's, and a SERIAL round must not finish it (docs/paxos.md §11). Its registers stay.
                Membership members = membership;
                if (members == null || members.members().stream().map(NodeInfo::dataCenter).distinct().count() > 1) return;
                ReadSpec nothing = new ReadSpec(List.of(), false, 1, 1, (int) (wallMicros.getAsLong() / 1_000_000));
                try {
                    cas(ballot.cql.spi.CasRequest.read(table, key, nothing), ConsistencyLevel.SERIAL, ConsistencyLevel.ONE);
                } catch (RuntimeException unavailable) {
                    // too few replicas alive now: a later pass tries again
                }
            }
        }, wallMicros, options.purgeGrace());
        this.lanes = new Lane[options.lanes()];
        for (int i = 0; i < lanes.length; i++) lanes[i] = new Lane(i);
        log.info("paxos ready node={} incarnation={} lanes={} contention_timeout={}ms paxos_sync={}", self, incarnation, lanes.length,
                options.contentionTimeout().toMillis(), options.syncVotes() ? "always" : "commitlog");
    }

    private static ThreadPoolExecutor pool(String name, int threads) {
        AtomicInteger n = new AtomicInteger();
        return new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * How far behind the Paxos lanes are, for admission control (docs/admission.md): of each lane, the longest any of
     * its tasks waited for its thread since the last call; of those, the least. Every lane behind means the CPU is
     * short; one lane behind is a hot partition, which the per-partition cap answers, not fewer slots for everyone.
     */
    public long takeLaneDelayNanos() {
        long least = Long.MAX_VALUE;
        for (Lane lane : lanes) least = Math.min(least, lane.delayMaxNanos.getAndSet(0));
        return least;
    }

    /**
     * Installs the acceptor's verbs; called before the node joins, so no peer finds them missing. Their handlers only
     * queue the request on its lane, so they run on the network thread (as do the replies to this node's requests).
     */
    public void handle(Messaging messaging) {
        messaging.handle(PaxosVerbs.PREPARE, (prepare, from) -> vote(prepare), Messaging.Dispatch.HAND_OVER);
        messaging.handle(PaxosVerbs.PROPOSE, (propose, from) -> vote(propose), Messaging.Dispatch.HAND_OVER);
        messaging.handle(PaxosVerbs.COMMIT, (commit, from) -> accept(commit), Messaging.Dispatch.HAND_OVER);
        messaging.handle(PaxosVerbs.PRUNE, (batch, from) -> {
            for (Prune prune : batch) accept(prune); // nobody waits for a prune: the batch is answered once queued
            return CompletableFuture.completedFuture(null);
        }, Messaging.Dispatch.HAND_OVER);
    }

    /** Starts coordinating, once the node is a member of the cluster; {@code placement} gives partitions' electorates. */
    public void start(Membership membership, Messaging messaging, Placement placement) {
        this.membership = membership;
        this.messaging = messaging;
        this.placement = placement;
        NodeIds ids = new NodeIds(membership);
        ids.refresh();
        this.nodeIds = ids;
        membership.listen(new MembershipListener() {
            public void joined(NodeInfo node) { ids.refresh(); }
            public void left(NodeInfo node) { ids.refresh(); }
            public void changed(NodeInfo node) { ids.refresh(); }
        });
        purge.start();
    }

    /** Counters of outcomes, round trips and protocol marks since the start. */
    public PaxosStats stats() {
        return stats;
    }

    /** The lanes' coordinator queues as of their last ticks. */
    private PaxosStats.Queues queues() {
        int partitions = 0, queued = 0, queuedMax = 0;
        for (Lane lane : lanes) {
            PaxosStats.Queues q = lane.queues();
            partitions += q.partitions();
            queued += q.queued();
            queuedMax = Math.max(queuedMax, q.queuedMax());
        }
        return new PaxosStats.Queues(partitions, queued, queuedMax);
    }

    // ---------------------------------------------------------------- coordinator side

    @Override
    public CompletableFuture<CasResult> cas(CasRequest request, ConsistencyLevel serial, ConsistencyLevel commit) {
        boolean read = request.isRead();
        if (read) {
            VirtualTable virtual = virtualTables.apply(request.table().id());
            if (virtual != null) {
                placement.replicas(request.table(), request.key().token(), serial); // Unavailable as for any read
                return CompletableFuture.completedFuture(new CasResult(false, virtual.read(request.key(), request.read())));
            }
        }
        TableMetadata table = request.table();
        Bytes query = CqlValues.Query.of(table.id(), request.read(), true).encode();
        Evaluation evaluation = read ? null : new Evaluation(request, query, locked);
        ballot.paxos.coordinator.CasRequest coreRequest = read ? ballot.paxos.coordinator.CasRequest.read(query) : evaluation;
        CompletableFuture<CasResult> future = new CompletableFuture<>();
        Round round = submit(table, request.key(), coreRequest, serial, read ? null : commit, false, "", slot(CurrentAdmission.take()), ON_LANE);
        round.result.whenComplete((result, failure) -> {
            if (failure != null) future.completeExceptionally(failure);
            else answer(future, result, request, evaluation, round, serial, commit);
        });
        return future;
    }

    /**
     * One compare-and-set of the transaction layer (docs/txn.md §11.1) on {@code key}: {@code request} reads and writes
     * the partition's transaction state along with its rows. The core's answer is passed on as it is, on the answer
     * executor; Unavailable comes as a failed future.
     */
    public CompletableFuture<ballot.paxos.coordinator.CasResult> transactionStep(TableMetadata table, ballot.cql.data.PartitionKey key,
            ballot.paxos.coordinator.CasRequest request, ConsistencyLevel commit, String what) {
        try {
            Round round = submit(table, key, request, ConsistencyLevel.SERIAL, commit, true, what, WorkSlot.NONE, answers);
            round.result.thenAccept(result -> stats.record(result, false, false, clock.nanoTime() - round.arrivedNanos));
            return round.result;
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Throws Unavailable unless enough of the partition's replicas are alive now for a transaction step committed at
     * {@code commit} (a quorum of voters, and the commit level): a transaction checks every participant before it
     * places anything, as a conditional statement is refused before its first round.
     */
    public void checkTransactionStep(TableMetadata table, ballot.cql.data.PartitionKey key, ConsistencyLevel commit) {
        Participants participants = Participants.ofTransactionStep(placement.replicas(table, key.token(), ConsistencyLevel.SERIAL),
                membership.self().dataCenter(), commit);
        Electorate electorate = participants.electorate();
        CommitLevel level = participants.commitLevel();
        if (alive(electorate.voters()) >= electorate.quorum() && alive(level.counted()) >= level.acks()) return;
        stats.unavailable(false);
        throw unavailable(electorate, level, ConsistencyLevel.SERIAL, participants.commitConsistency());
    }

    /** Too few live replicas: the Unavailable of the serial level when a quorum of voters is not alive, else of the commit level. */
    private UnavailableException unavailable(Electorate electorate, CommitLevel level, ConsistencyLevel serial, ConsistencyLevel commit) {
        int voters = alive(electorate.voters());
        return voters < electorate.quorum() ? new UnavailableException(serial, electorate.quorum(), voters)
                : new UnavailableException(commit, level.acks(), alive(level.counted()));
    }

    /** Makes conditional statements and SERIAL reads that find {@code locked} transaction state fail with {@link IntentFound}. */
    public void honourLocks(Predicate<byte[]> locked) {
        this.locked = locked;
    }

    /** A request handed to a lane: its electorate and commit level, and the core's answer once it comes. */
    private record Round(CompletableFuture<ballot.paxos.coordinator.CasResult> result, Electorate electorate, CommitLevel level,
            long arrivedNanos) {}

    /** Completes a conditional statement's answer on its lane (the class comment says why). */
    private static final Executor ON_LANE = Runnable::run;

    /**
     * Hands {@code request} to its partition's lane, whose answer completes on {@code answerOn}. {@code commit} null: a
     * read, which commits nothing. Throws Unavailable when too few replicas are alive to start.
     */
    private Round submit(TableMetadata table, ballot.cql.data.PartitionKey partition, ballot.paxos.coordinator.CasRequest request,
            ConsistencyLevel serial, ConsistencyLevel commit, boolean transactionStep, String what, WorkSlot slot, Executor answerOn) {
        List<NodeInfo> replicas;
        Participants participants;
        try {
            replicas = placement.replicas(table, partition.token(), serial);
            participants = transactionStep ? Participants.ofTransactionStep(replicas, membership.self().dataCenter(), commit)
                    : Participants.of(replicas, membership.self().dataCenter(), serial, commit);
        } catch (UnavailableException e) {
            stats.unavailable(commit == null);
            throw e;
        }
        PaxosKey key = CqlValues.key(table.id(), partition);
        Electorate electorate = participants.electorate();
        CommitLevel level = participants.commitLevel();
        long arrived = clock.nanoTime();
        long deadline = arrived + options.contentionTimeout().toNanos();
        CompletableFuture<ballot.paxos.coordinator.CasResult> future = new CompletableFuture<>();
        Lane lane = lane(key);
        // A traced conditional statement's trace is its session; transaction steps another node sent here are traced
        // in that node's session, through this node's part of it (a replica's trace), where each round is one event
        // on start and one on its outcome: its messages are traced only for a session coordinated here.
        Trace trace = Tracing.current();
        CoordinatorTrace session = trace instanceof CoordinatorTrace t ? t : null;
        if (trace != null) {
            trace.event("Starting Paxos" + what + " on " + table.keyspace() + "." + table.name() + " with " + replicas.size()
                    + " replicas (serial " + serial + ", commit " + (commit == null ? "none" : participants.commitConsistency()) + ")");
        }
        boolean background = isBackground(key);
        try {
            lane.execute(() -> {
                if (session != null) lane.traced.add(key, session);
                try {
                    lane.coordinator(background).submit(key, electorate, request, level, deadline, slot, result -> {
                        if (trace != null) {
                            if (session != null) lane.traced.remove(key, session);
                            trace.event("Paxos" + what + " " + result.outcome() + " after " + result.roundTrips() + " round trips and "
                                    + result.contentions() + " contentions" + (result.fastPath() ? " (fast path)" : ""));
                        }
                        try {
                            answerOn.execute(() -> future.complete(result));
                        } catch (RejectedExecutionException e) {
                            future.completeExceptionally(new IllegalStateException("node is stopping"));
                        }
                    });
                } catch (RuntimeException e) {
                    if (session != null) lane.traced.remove(key, session);
                    future.completeExceptionally(e);
                    throw e;
                }
            }, background);
        } catch (RejectedExecutionException e) {
            future.completeExceptionally(new IllegalStateException("node is stopping"));
        }
        return new Round(future, electorate, level, arrived);
    }

    /** The request's admission as the core sees it: given back while the request waits on its partition. */
    private static WorkSlot slot(RequestAdmission.Admitted admitted) {
        if (admitted == null) return WorkSlot.NONE;
        return new WorkSlot() {
            @Override
            public void giveBack() {
                admitted.pause();
            }

            @Override
            public void takeBack() {
                admitted.resume();
            }
        };
    }

    /** Maps the core's answer to the query layer's (docs/paxos.md §4.10). Runs on the partition's lane. */
    private void answer(CompletableFuture<CasResult> future, ballot.paxos.coordinator.CasResult result, CasRequest request,
            Evaluation evaluation, Round round, ConsistencyLevel serial, ConsistencyLevel commit) {
        Electorate electorate = round.electorate();
        CommitLevel level = round.level();
        stats.record(result, request.isRead(), evaluation != null && evaluation.error != null, clock.nanoTime() - round.arrivedNanos());
        if (log.isDebugEnabled()) {
            log.debug("cas answered table={} read={} outcome={} commit={} round_trips={} contentions={} fast_path={}", request.table(),
                    request.isRead(), result.outcome(), level, result.roundTrips(), result.contentions(), result.fastPath());
        }
        try {
            switch (result.outcome()) {
                case APPLIED -> future.complete(new CasResult(true, CqlValues.decodeResult(result.current())));
                case NOT_APPLIED -> {
                    RuntimeException error = evaluation == null ? null : evaluation.error;
                    if (error != null) {
                        future.completeExceptionally(error);
                        return;
                    }
                    CqlValues.Result current = CqlValues.decodeResultWithTxn(result.current());
                    // A transaction holds the partition (docs/txn.md §11.1): the caller runs the statement as one.
                    if (current.txn() != null && locked.test(current.txn().state())) {
                        future.completeExceptionally(new IntentFound(request.table(), request.key()));
                        return;
                    }
                    future.complete(new CasResult(false, request.isRead() ? limit(current.data(), request.read()) : current.data()));
                }
                case COMMIT_TIMEOUT -> future.completeExceptionally(
                        new WriteTimeoutException(commit, 0, level.acks(), WriteType.SIMPLE, 0));
                case UNKNOWN -> future.completeExceptionally(
                        new WriteTimeoutException(serial, 0, electorate.quorum(), WriteType.CAS, result.contentions()));
                case TIMED_OUT -> future.completeExceptionally(request.isRead()
                        ? new ReadTimeoutException(serial, 0, electorate.quorum(), false)
                        : new WriteTimeoutException(serial, 0, electorate.quorum(), WriteType.CAS, result.contentions()));
                case OVERLOADED -> future.completeExceptionally(new OverloadedException("Overloaded: "
                        + options.partitionQueueMax() + " conditional statements already wait for this partition of "
                        + request.table().keyspace() + "." + request.table().name()
                        + " on this coordinator (admission_partition_lwt_queue_max); retry later"));
                case UNAVAILABLE -> future.completeExceptionally(unavailable(electorate, level, serial, commit));
            }
        } catch (RuntimeException e) {
            log.error("cannot answer a conditional statement on table {} outcome={}", request.table(), result.outcome(), e);
            future.completeExceptionally(e);
        }
    }

    /** A SERIAL read's rows up to its limit: the Paxos query reads whole slices so that its result can be advanced. */
    public static PartitionData limit(PartitionData data, ReadSpec spec) {
        int limit = Math.min(spec.rowLimit(), spec.partitionRowLimit());
        int live = 0;
        List<Row> rows = new ArrayList<>();
        for (Row r : data.rows()) {
            if (live >= limit) break;
            rows.add(r);
            if (r.hasLiveData(spec.nowInSec())) live++;
        }
        if (rows.size() == data.rows().size()) return data;
        return new PartitionData(data.key(), data.partitionDeletion(), data.rangeTombstones(), data.staticRow(), rows);
    }

    private int alive(Collection<NodeId> nodes) {
        int alive = 0;
        for (NodeId n : nodes) if (transport.isAlive(n)) alive++;
        return alive;
    }

    /**
     * A conditional statement as the core sees it: the condition and update of the query layer, over encoded state.
     * An error of the statement itself (say, a list index out of bounds) is a "no update" for the core, and the
     * statement's error for the client; the core may evaluate again, and the last evaluation decides.
     */
    private static final class Evaluation implements ballot.paxos.coordinator.CasRequest {
        private final CasRequest request;
        private final Bytes query;
        private final Predicate<byte[]> locked;
        volatile RuntimeException error;

        Evaluation(CasRequest request, Bytes query, Predicate<byte[]> locked) {
            this.request = request;
            this.query = query;
            this.locked = locked;
        }

        @Override
        public Bytes query() {
            return query;
        }

        @Override
        public Optional<Bytes> evaluate(Bytes current, long timestampMicros) {
            PartitionData state;
            PartitionUpdate update;
            try {
                CqlValues.Result result = CqlValues.decodeResultWithTxn(current);
                // Never over a transaction's intent: not applied here, and run again as a transaction (§11.1).
                if (result.txn() != null && locked.test(result.txn().state())) {
                    error = null;
                    return Optional.empty();
                }
                state = result.data();
                update = request.apply(state, timestampMicros);
                error = null;
            } catch (RuntimeException e) {
                error = e;
                return Optional.empty();
            }
            if (update == null) return Optional.empty();
            // A write stamped by a client clock a little ahead of ours would shadow the update: take a later ballot.
            // Far ahead (a USING TIMESTAMP in the future), following it would push every later ballot there too.
            long newest = state.newestTimestamp();
            if (newest >= timestampMicros && newest - timestampMicros < BALLOT_CATCH_UP_MAX_MICROS) throw new BallotTooEarly(newest);
            return Optional.of(CqlValues.encodeEntry(update, timestampMicros));
        }

        @Override
        public String toString() {
            return "cas(" + request.table() + ")";
        }
    }

    // ---------------------------------------------------------------- acceptor side

    /**
     * A peer's prepare or proposal: no reply where this replica abstains (docs/paxos.md §4.14), which the peer sees
     * as a failed request, as if the message were lost.
     */
    private CompletableFuture<Reply> vote(Request request) {
        return accept(request).thenCompose(reply -> reply != null ? CompletableFuture.completedFuture(reply)
                : CompletableFuture.failedFuture(new MessagingException(MessagingException.Reason.REMOTE_ERROR,
                        "this replica abstains from the votes of table " + CqlValues.tableId(request.key()) + " (docs/paxos.md 4.14)")));
    }

    /**
     * Makes this replica abstain from the LWT votes of the tables {@code tableIds} accepts (docs/paxos.md §4.14): the
     * node's choice, fixed when it first joined a cluster. Until the node sets it, it abstains from none.
     */
    public void abstainFrom(java.util.function.Predicate<UUID> tableIds) {
        this.abstained = tableIds;
    }

    /**
     * Makes the Paxos lane tasks of the tables of {@code keyspaces} background work (docs/admission.md, "Paxos lanes"):
     * their coordinators' steps and their acceptors' run only when no other lane task waits. Called before
     * {@link #start}, with {@code admission_background_keyspaces}; an empty set leaves every lane FIFO.
     */
    public void runInBackground(Set<String> keyspaces) {
        this.background = keyspaces.isEmpty() ? null : Set.copyOf(keyspaces);
    }

    /** An acceptor step's class: its partition's, except a prune's, which rides on later traffic anyway (docs/paxos.md §4.7). */
    private boolean isBackgroundStep(Request request) {
        return request instanceof Prune || isBackground(request.key());
    }

    /** A table this node does not know yet is first class until it does; it is then fixed (a session never moves). */
    private boolean isBackground(PaxosKey key) {
        Set<String> keyspaces = background;
        if (keyspaces == null) return false;
        UUID id = CqlValues.tableId(key);
        Boolean known = backgroundTables.get(id);
        if (known != null) return known;
        TableMetadata table = schema.get().table(id);
        if (table == null) return false;
        boolean inBackground = keyspaces.contains(table.keyspace());
        backgroundTables.put(id, inBackground);
        return inBackground;
    }

    /** Runs a peer's acceptor request on its partition's lane; the reply is sent once the step is persisted. */
    private CompletableFuture<Reply> accept(Request request) {
        CompletableFuture<Reply> reply = new CompletableFuture<>();
        Lane lane = lane(request.key());
        boolean background = isBackgroundStep(request);
        try {
            lane.execute(() -> lane.acceptor.receive(request, AcceptorShell.Answer.completing(reply, lane::failed)), background);
        } catch (RejectedExecutionException e) {
            reply.completeExceptionally(new IllegalStateException("node is stopping"));
        }
        Trace trace = Tracing.current();
        if (trace == null) return reply;
        return reply.thenApply(r -> {
            trace.event(PaxosTraces.acceptor(r));
            return r;
        });
    }

    // ---------------------------------------------------------------- transport

    /** A batch of prunes to one peer (PruneBatches); lost if the peer is down or does not answer, as a prune may be. */
    private void sendPrunes(NodeId to, List<Prune> batch) {
        NodeInfo node = nodeIds.node(to);
        if (node == null || !membership.isAlive(node.hostId())) return;
        messaging.request(node.internode(), PaxosVerbs.PRUNE, batch, options.messageTimeout(), Messaging.Dispatch.HAND_OVER)
                .whenComplete((nothing, error) -> {
                    if (error != null) log.debug("{} prunes to {} lost: {}", batch.size(), node.internode(), error.toString());
                });
    }

    private final class MessagingTransport implements Transport {
        @Override
        public void send(NodeId to, Message message) {
            if (!(message instanceof Request request))
                throw new IllegalArgumentException("replies travel as responses, not as messages: " + message);
            Lane lane = lane(request.key());
            CoordinatorTrace trace = lane.traced.of(request.key());
            boolean background = isBackground(request.key());
            if (to.equals(self)) {
                if (trace != null) trace.event(PaxosTraces.sending(request, "this node"));
                lane.execute(() -> lane.acceptor.receive(request, new AcceptorShell.Answer() {
                    @Override
                    public void reply(Reply reply) {
                        if (reply == null) return;
                        if (trace != null) trace.event(PaxosTraces.received(reply, "this node"));
                        lane.coordinator(background).receive(self, reply);
                    }

                    @Override
                    public void fail(RuntimeException failure) {
                        lane.failed(failure);
                    }
                }), isBackgroundStep(request));
                return;
            }
            NodeInfo node = nodeIds.node(to);
            if (node == null || !membership.isAlive(node.hostId())) return; // lost; the core retransmits
            if (trace != null) trace.event(PaxosTraces.sending(request, node.internode().toString()));
            if (request instanceof Prune prune) {
                prunes.add(to, prune);
                return;
            }
            CompletableFuture<Reply> response = trace == null ? request(node, request) : Tracing.call(trace, () -> request(node, request));
            response.whenComplete((reply, error) -> {
                if (error != null) {
                    log.debug("paxos {} to {} failed: {}", request.getClass().getSimpleName(), node.internode(), error.toString());
                } else if (reply != null) {
                    if (trace != null) trace.event(PaxosTraces.received(reply, node.internode().toString()));
                    try {
                        lane.execute(() -> lane.coordinator(background).receive(to, reply), background);
                    } catch (RejectedExecutionException stopping) {
                        // the node is stopping: the reply is lost, as any message may be
                    }
                }
            });
        }

        /** The reply is only handed to the lane, so it completes on the network thread. */
        private CompletableFuture<Reply> request(NodeInfo node, Request request) {
            Duration timeout = options.messageTimeout();
            Messaging.Dispatch handOver = Messaging.Dispatch.HAND_OVER;
            if (request instanceof Prepare p) return messaging.request(node.internode(), PaxosVerbs.PREPARE, p, timeout, handOver);
            if (request instanceof Propose p) return messaging.request(node.internode(), PaxosVerbs.PROPOSE, p, timeout, handOver);
            if (request instanceof Commit c) return messaging.request(node.internode(), PaxosVerbs.COMMIT, c, timeout, handOver);
            throw new IllegalArgumentException("unknown request " + request);
        }

        @Override
        public boolean isAlive(NodeId node) {
            if (node.equals(self)) return true;
            NodeIds ids = nodeIds;
            NodeInfo info = ids == null ? null : ids.node(node);
            return info != null && membership.isAlive(info.hostId());
        }
    }

    // ---------------------------------------------------------------- lanes

    private Lane lane(PaxosKey key) {
        return lanes[Math.floorMod(key.bytes().hashCode(), lanes.length)];
    }

    /**
     * One single-threaded executor and the coordinators confined to it: one for the partitions of each class
     * (docs/admission.md, "Paxos lanes"), so that each class's tick is queued with that class's replies.
     */
    private final class Lane {
        private final int index;
        private final LaneExecutor executor;
        final AcceptorShell acceptor;
        private final ClassCoordinator firstClass, backgroundClass;
        /** The traces of traced requests in flight, by partition; lane thread only. */
        final PartitionTraces traced = new PartitionTraces();
        /** The longest a task waited for this lane's thread since {@link #takeLaneDelayNanos} last read it. */
        final java.util.concurrent.atomic.AtomicLong delayMaxNanos = new java.util.concurrent.atomic.AtomicLong();
        /** The coordinators' {@code quiet()} after the lane's last task: a quiet lane is not ticked (an idle node ticks nothing). */
        private volatile boolean quiet = true;
        private final DemandTicker ticks;

        Lane(int index) {
            this.index = index;
            this.executor = new LaneExecutor("paxos-" + index);
            acceptor = new AcceptorShell(self, store, this::execute, stats::mark, key -> abstained.test(CqlValues.tableId(key)),
                    CACHED_REGISTERS_PER_LANE, DEFERRED_PROMISES_PER_LANE);
            SplittableRandom random = new SplittableRandom(new SecureRandom().nextLong());
            // One generator for both: a partition of a table this node learns of late moves from the first class to
            // the background one (isBackground), and its ballots must stay unique (docs/paxos.md §4.1).
            BallotGenerator ballots = new BallotGenerator(clock, self, incarnation);
            firstClass = new ClassCoordinator(this, false, random.split(), ballots);
            backgroundClass = new ClassCoordinator(this, true, random.split(), ballots);
            ticks = new DemandTicker(ticker, options.tick(), () -> !quiet, () -> {
                firstClass.tick();
                if (background != null) backgroundClass.tick(); // without a background keyspace it has no partitions
            });
        }

        /** The coordinator of a partition in {@code background}'s class; lane thread only. */
        CasCoordinator coordinator(boolean background) {
            return (background ? backgroundClass : firstClass).coordinator;
        }

        PaxosStats.Queues queues() {
            PaxosStats.Queues f = firstClass.queues, b = backgroundClass.queues;
            return new PaxosStats.Queues(f.partitions() + b.partitions(), f.queued() + b.queued(), Math.max(f.queuedMax(), b.queuedMax()));
        }

        /** Runs {@code task} ahead of background work: persists completed (they free their partitions). */
        void execute(Runnable task) {
            execute(task, false);
        }

        /** Lanes have a background class only while a background keyspace is set: otherwise every task is FIFO. */
        void execute(Runnable task, boolean background) {
            long queued = System.nanoTime();
            executor.execute(() -> {
                delayMaxNanos.accumulateAndGet(System.nanoTime() - queued, Math::max);
                run(task);
            }, background && PaxosEngine.this.background != null);
        }

        /**
         * A failed step is a bug or a storage failure: logged, and the lane goes on (nothing was acknowledged); a step of
         * a table dropped meanwhile is only noted at debug level. After each task the lane publishes whether its
         * coordinator needs ticks, and wakes the ticker if it does.
         */
        private void run(Runnable task) {
            try {
                task.run();
            } catch (RuntimeException | AssertionError e) {
                failed(e);
            }
            boolean nowQuiet = firstClass.coordinator.quiet() && backgroundClass.coordinator.quiet();
            if (quiet != nowQuiet) quiet = nowQuiet; // a volatile write only on a change: this runs after every step
            if (!nowQuiet) ticks.wake();
        }

        void failed(Throwable e) {
            if (e instanceof StorageEngine.TableDroppedException) {
                log.debug("paxos step of a table dropped meanwhile not answered lane={}: {}", index, e.getMessage());
                return;
            }
            if (throttle.allow("lane " + index + " " + e.getClass().getName())) log.error("paxos step failed lane={}", index, e);
        }

        void stop() {
            int dropped = executor.stop();
            if (dropped > 0) log.warn("paxos lane {} stopped with {} tasks still queued: dropped, as lost messages are", index, dropped);
        }
    }

    /** The coordinator of one class of a lane's partitions, and its tick, queued in that class. */
    private final class ClassCoordinator {
        final CasCoordinator coordinator;
        private final Lane lane;
        private final boolean background;
        private final AtomicBoolean tickQueued = new AtomicBoolean();
        /** The coordinator's queues after its last tick; written on the lane, read by the metrics gauges. */
        volatile PaxosStats.Queues queues = PaxosStats.Queues.EMPTY;

        ClassCoordinator(Lane lane, boolean background, SplittableRandom random, BallotGenerator ballots) {
            this.lane = lane;
            this.background = background;
            this.coordinator = CasCoordinator.builder()
                    .self(self, incarnation)
                    .ballots(ballots)
                    .transport(transport)
                    .clock(clock)
                    .random(random::nextLong)
                    .readModel(readModel)
                    .observer(stats::mark)
                    .partitionQueueMax(options.partitionQueueMax())
                    .build();
        }

        /**
         * Queues a tick behind the waiting tasks of its class: a tick that overtook the replies queued for its
         * partitions would find them unanswered and retransmit (with background work queued, that fed on itself).
         */
        void tick() {
            if (!tickQueued.compareAndSet(false, true)) return; // the lane is behind: one tick in its queue is enough
            try {
                lane.execute(() -> {
                    tickQueued.set(false);
                    coordinator.tick();
                    queues = new PaxosStats.Queues(coordinator.sessions(), coordinator.queuedAtTick(), coordinator.queuedMaxAtTick());
                }, background);
            } catch (RejectedExecutionException stopping) {
                // the lane is stopping
            }
        }
    }

    @Override
    public void close() {
        purge.close();
        ticker.shutdownNow();
        for (Lane lane : lanes) lane.stop();
        try {
            groupCommit.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        answers.shutdown();
        log.info("paxos stopped {}", stats);
    }
}
