package ballot.replication;

import ballot.cluster.Membership;
import ballot.cluster.NodeInfo;
import ballot.cql.ConsistencyLevel;
import ballot.cql.WriteType;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.TokenRange;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.error.ReadFailureException;
import ballot.cql.error.ReadTimeoutException;
import ballot.cql.error.TruncateException;
import ballot.cql.error.UnavailableException;
import ballot.cql.error.WriteTimeoutException;
import ballot.cql.index.IndexExpression;
import ballot.cql.schema.KeyspaceMetadata;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import ballot.cql.spi.DataCoordinator;
import ballot.cql.spi.IndexScanResult;
import ballot.net.LogThrottle;
import ballot.net.Messaging;
import ballot.net.MessagingException;
import ballot.storage.Mutation;
import ballot.system.SystemKeyspaces;
import ballot.system.VirtualTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator of plain reads and writes in a cluster (docs/cluster.md): a write goes to every live replica of its
 * partition and completes when the consistency level is met, with hints kept for replicas that miss it; a read asks
 * enough replicas for the level (one for data, the others for digests), and on a mismatch reads the data from all of
 * them, reconciles it and repairs the stale replicas before answering. Levels that cannot be met with the live
 * replicas fail with UNAVAILABLE before anything is sent.
 */
public final class ReplicatedCoordinator implements DataCoordinator {
    private static final Logger log = LoggerFactory.getLogger(ReplicatedCoordinator.class);
    /** A full disk fails every write: one log line per kind of failure every 10 s. */
    private final LogThrottle writeFailures = new LogThrottle(java.util.concurrent.TimeUnit.SECONDS.toNanos(10), System::nanoTime);

    /** Timeouts of the request kinds, as cassandra.yaml names them. */
    public record Timeouts(Duration write, Duration read, Duration range) {}

    private final Membership membership;
    private final Messaging messaging;
    private final LocalReplica local;
    private final SystemKeyspaces system;
    private final Supplier<Schema> schema;
    private final HintStore hints;
    private final Timeouts timeouts;
    /** The wall clock, for hints' times. */
    private final LongSupplier nowMillis;
    /** The monotonic clock statements' deadlines are on. */
    private final LongSupplier nanoTime;
    private final CoordinatorMetrics metrics;
    /** How many times a read cut short by another replica's deletions is read again before its certain rows are answered. */
    private static final int SHORT_READ_ROUNDS_MAX = 8;
    private final Executor scans;
    /** How many partitions without live data a replica's scan answer may carry before it stops (docs/cluster.md). */
    private static final int SCAN_DEAD_PARTITIONS_MAX = 1000;
    private volatile TokenRing ring;
    /** Null until transactions are hosted: then a read that meets an intent is read through them (docs/txn.md §10). */
    private volatile HeldPartitions held;
    /** Placement per replication setting for the current ring; emptied whenever the ring is rebuilt. */
    private final java.util.concurrent.ConcurrentHashMap<Map<String, String>, ReplicaPlacement> placements = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * @param scans runs a scan's steps after its first (they read this replica's storage, which the thread that
     *     delivered the other replicas' answers must not do)
     */
    ReplicatedCoordinator(Membership membership, Messaging messaging, LocalReplica local, SystemKeyspaces system,
            Supplier<Schema> schema, HintStore hints, Timeouts timeouts, LongSupplier nowMillis, LongSupplier nanoTime,
            CoordinatorMetrics metrics, Executor scans) {
        this.scans = scans;
        this.membership = membership;
        this.messaging = messaging;
        this.local = local;
        this.system = system;
        this.schema = schema;
        this.hints = hints;
        this.timeouts = timeouts;
        this.nowMillis = nowMillis;
        this.nanoTime = nanoTime;
        this.metrics = metrics;
        refreshRing();
    }

    /** From now on, a partition the replicas' answers show held by a transaction's intent is read through {@code held}. */
    void honourLocks(HeldPartitions held) {
        this.held = held;
    }

    /** Rebuilds the token ring from membership; called when members join, leave or change tokens. */
    void refreshRing() {
        ring = TokenRing.of(membership.members());
        placements.clear();
    }

    private ReplicaPlacement placement(KeyspaceMetadata ks) {
        TokenRing current = ring;
        return placements.computeIfAbsent(ks.replication(), replication -> new ReplicaPlacement(current, replication));
    }

    TokenRing ring() {
        return ring;
    }

    private String localDc() {
        return membership.self().dataCenter();
    }

    // ---------------------------------------------------------------- replicas

    /**
     * The replicas of {@code token} for the table's keyspace, primary first, once it is known that enough of them are
     * alive for {@code cl}; UNAVAILABLE otherwise. Paxos runs its rounds over these.
     */
    public List<NodeInfo> replicasAvailableFor(TableMetadata table, long token, ConsistencyLevel cl) {
        List<NodeInfo> replicas = replicas(table, token);
        checkAvailable(cl, factors(table), alive(replicas));
        return replicas;
    }

    /** The replicas of {@code token} for the table's keyspace, primary first. */
    public List<NodeInfo> replicas(TableMetadata table, long token) {
        KeyspaceMetadata ks = schema.get().keyspace(table.keyspace());
        if (ks == null || ReplicationStrategy.isLocal(ks.replication()) || ring.isEmpty()) return List.of(membership.self());
        List<NodeInfo> replicas = placement(ks).replicas(token);
        return replicas.isEmpty() ? List.of(membership.self()) : replicas;
    }

    private List<NodeInfo> alive(List<NodeInfo> replicas) {
        List<NodeInfo> alive = new ArrayList<>(replicas.size());
        for (NodeInfo n : replicas) if (isSelf(n) || membership.isAlive(n.hostId())) alive.add(n);
        return alive;
    }

    private boolean isSelf(NodeInfo n) {
        return n.hostId().equals(membership.self().hostId());
    }

    /** Replicas ordered for reading: this node, then its data center, then the rest, in ring order otherwise. */
    private List<NodeInfo> readOrder(List<NodeInfo> replicas) {
        List<NodeInfo> out = new ArrayList<>(replicas.size());
        for (NodeInfo n : replicas) if (isSelf(n)) out.add(n);
        for (NodeInfo n : replicas) if (!isSelf(n) && n.dataCenter().equals(localDc())) out.add(n);
        for (NodeInfo n : replicas) if (!isSelf(n) && !n.dataCenter().equals(localDc())) out.add(n);
        return out;
    }

    /** Replication factor per data center of the table's keyspace ("" = SimpleStrategy's cluster-wide factor). */
    private Map<String, Integer> factors(TableMetadata table) {
        KeyspaceMetadata ks = schema.get().keyspace(table.keyspace());
        if (ks == null || ReplicationStrategy.isLocal(ks.replication())) return Map.of("", 1);
        return placement(ks).factors();
    }

    private void checkAvailable(ConsistencyLevel cl, Map<String, Integer> factors, List<NodeInfo> alive) {
        if (!Consistency.isSatisfiable(cl, factors, alive, localDc())) {
            throw new UnavailableException(cl, Consistency.blockFor(cl, factors, localDc()), Consistency.countable(cl, factors, alive, localDc()));
        }
    }

    // ---------------------------------------------------------------- writes

    @Override
    public CompletableFuture<Void> write(List<PartitionUpdate> updates, ConsistencyLevel consistency, WriteType writeType) {
        return write(updates, consistency, writeType, Deadline.NONE, metrics);
    }

    private CompletableFuture<Void> write(List<PartitionUpdate> updates, ConsistencyLevel consistency, WriteType writeType,
            Deadline deadline, CoordinatorMetrics timers) {
        return timers.time(CoordinatorMetrics.Kind.WRITE, consistency, () -> writeAll(updates, consistency, writeType, deadline));
    }

    private CompletableFuture<Void> writeAll(List<PartitionUpdate> updates, ConsistencyLevel consistency, WriteType writeType,
            Deadline deadline) {
        List<CompletableFuture<Void>> writes = new ArrayList<>(updates.size());
        for (PartitionUpdate update : updates) {
            TableMetadata table = table(update.tableId());
            if (CounterUpdates.hasIncrements(update)) writes.add(writeCounter(table, update, consistency, deadline));
            else writes.add(replicate(table, local.mutation(update), consistency, writeType, null, deadline));
        }
        return CompletableFuture.allOf(writes.toArray(new CompletableFuture[0]));
    }

    /**
     * Sends {@code mutation} to the replicas of its partition and completes when {@code cl} is met; {@code alreadyApplied}
     * is a replica that has it already (a counter leader) and counts as one acknowledgement.
     */
    private CompletableFuture<Void> replicate(TableMetadata table, Mutation mutation, ConsistencyLevel cl, WriteType writeType,
            NodeInfo alreadyApplied, Deadline deadline) {
        List<NodeInfo> replicas = replicas(table, mutation.update().key().token());
        List<NodeInfo> alive = alive(replicas);
        long now = nowMillis.getAsLong();
        if (cl == ConsistencyLevel.ANY && alive.isEmpty()) {
            for (NodeInfo n : replicas) hints.store(n.hostId(), mutation, now);
            return CompletableFuture.completedFuture(null);
        }
        Map<String, Integer> factors = factors(table);
        checkAvailable(cl == ConsistencyLevel.ANY ? ConsistencyLevel.ONE : cl, factors, alive);
        AckTracker tracker = new AckTracker(cl, factors, localDc(), alive.size(), writeType);
        if (deadline.hasPassed()) throw tracker.timeout();
        Duration wait = deadline.stepTimeout(timeouts.write());
        for (NodeInfo n : replicas) {
            if (!alive.contains(n)) hints.store(n.hostId(), mutation, now);
        }
        for (NodeInfo n : alive) {
            if (alreadyApplied != null && n.hostId().equals(alreadyApplied.hostId())) {
                tracker.ack(n);
            } else if (isSelf(n)) {
                try {
                    local.apply(List.of(mutation));
                    tracker.ack(n);
                } catch (RuntimeException e) {
                    if (writeFailures.allow(e.getClass().getName())) log.error("local write failed table={}", table, e);
                    tracker.fail(n, e.getMessage());
                }
            } else {
                messaging.request(n.internode(), ReplicationVerbs.MUTATION, List.of(mutation), wait)
                        .whenComplete((ok, error) -> {
                            if (error == null) {
                                tracker.ack(n);
                            } else {
                                hints.store(n.hostId(), mutation, nowMillis.getAsLong());
                                Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
                                if (cause instanceof MessagingException m && m.reason() == MessagingException.Reason.REMOTE_ERROR)
                                    tracker.fail(n, m.getMessage());
                                else tracker.unanswered(n);
                            }
                        });
            }
        }
        return tracker.result().orTimeout(wait.toMillis() + 100, java.util.concurrent.TimeUnit.MILLISECONDS)
                .handle((ok, error) -> {
                    if (error == null) return null;
                    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
                    if (cause instanceof java.util.concurrent.TimeoutException) throw tracker.timeout();
                    if (cause instanceof RuntimeException r) throw r;
                    throw new CompletionException(cause);
                });
    }

    /** Counter increments go to one replica (the leader), which turns them into its shards and replicates those. */
    private CompletableFuture<Void> writeCounter(TableMetadata table, PartitionUpdate update, ConsistencyLevel cl, Deadline deadline) {
        List<NodeInfo> replicas = replicas(table, update.key().token());
        List<NodeInfo> alive = readOrder(alive(replicas));
        checkAvailable(cl == ConsistencyLevel.ANY ? ConsistencyLevel.ONE : cl, factors(table), alive);
        NodeInfo leader = alive.get(0);
        if (isSelf(leader)) return leadCounter(table, update, cl, deadline);
        if (deadline.hasPassed()) throw counterTimeout(table, cl);
        return messaging.request(leader.internode(), ReplicationVerbs.COUNTER_LEADER,
                        new ReplicationVerbs.CounterCommand(update, cl.code()), deadline.stepTimeout(timeouts.write()))
                .exceptionally(e -> {
                    throw counterTimeout(table, cl);
                });
    }

    private WriteTimeoutException counterTimeout(TableMetadata table, ConsistencyLevel cl) {
        return new WriteTimeoutException(cl, 0, Consistency.blockFor(cl, factors(table), localDc()), WriteType.COUNTER, 0);
    }

    /** Leads a counter write another coordinator sent to this node, within the configured timeouts. */
    CompletableFuture<Void> leadCounter(TableMetadata table, PartitionUpdate update, ConsistencyLevel cl) {
        return leadCounter(table, update, cl, Deadline.NONE);
    }

    private CompletableFuture<Void> leadCounter(TableMetadata table, PartitionUpdate update, ConsistencyLevel cl, Deadline deadline) {
        if (deadline.hasPassed()) throw counterTimeout(table, cl);
        Mutation shards = local.applyIncrements(update);
        return replicate(table, shards, cl, WriteType.COUNTER, membership.self(), deadline);
    }

    // ---------------------------------------------------------------- reads

    @Override
    public CompletableFuture<PartitionData> read(TableMetadata table, PartitionKey key, ReadSpec spec, ConsistencyLevel cl) {
        return read(table, key, spec, cl, Deadline.NONE, metrics);
    }

    /** Tables the node generates are answered from memory at once: no replica to wait for, no deadline to miss. */
    private CompletableFuture<PartitionData> read(TableMetadata table, PartitionKey key, ReadSpec spec, ConsistencyLevel cl,
            Deadline deadline, CoordinatorMetrics timers) {
        VirtualTable virtual = system.table(table.id());
        if (virtual != null) return CompletableFuture.completedFuture(virtual.read(key, spec));
        return timers.time(CoordinatorMetrics.Kind.READ, cl, () -> readReplicas(table, key, spec, cl, deadline));
    }

    private CompletableFuture<PartitionData> readReplicas(TableMetadata table, PartitionKey key, ReadSpec spec, ConsistencyLevel cl,
            Deadline deadline) {
        return readReplicas(table, key, spec, cl, deadline, SHORT_READ_ROUNDS_MAX);
    }

    /** @param rounds how many more times a short read may be read again after its repair ({@link #resolveMismatch}) */
    private CompletableFuture<PartitionData> readReplicas(TableMetadata table, PartitionKey key, ReadSpec spec, ConsistencyLevel cl,
            Deadline deadline, int rounds) {
        List<NodeInfo> replicas = replicas(table, key.token());
        List<NodeInfo> alive = readOrder(alive(replicas));
        Map<String, Integer> factors = factors(table);
        checkAvailable(cl, factors, alive);
        List<NodeInfo> targets = targets(cl, factors, alive);
        int blockFor = Consistency.blockFor(cl, factors, localDc());
        if (deadline.hasPassed()) throw new ReadTimeoutException(cl, 0, blockFor, false);
        if (targets.size() == 1) {
            return readFrom(targets.get(0), new ReplicationVerbs.ReadCommand(table.id(), key, spec, false), deadline)
                    .exceptionally(e -> {
                        throw new ReadTimeoutException(cl, 0, blockFor, false);
                    })
                    .thenCompose(answer -> isHeld(answer.txn()) ? readHeld(table, key, spec, cl, blockFor, deadline)
                            : CompletableFuture.completedFuture(answer.data()));
        }
        List<CompletableFuture<ReplicationVerbs.ReadResponse>> answers = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            answers.add(readFrom(targets.get(i), new ReplicationVerbs.ReadCommand(table.id(), key, spec, i > 0), deadline));
        }
        return allSettled(answers).thenCompose(settled -> {
            int received = 0;
            for (CompletableFuture<ReplicationVerbs.ReadResponse> f : answers) if (!f.isCompletedExceptionally()) received++;
            if (received < targets.size()) {
                throw new ReadTimeoutException(cl, received, blockFor, !answers.get(0).isCompletedExceptionally());
            }
            TxnStamp newest = null;
            for (CompletableFuture<ReplicationVerbs.ReadResponse> f : answers) newest = TxnStamp.newer(newest, f.join().txn());
            if (isHeld(newest)) return readHeld(table, key, spec, cl, blockFor, deadline);
            PartitionData data = answers.get(0).join().data();
            byte[] digest = LocalReplica.digest(data);
            boolean match = true;
            for (int i = 1; i < answers.size(); i++) match &= Arrays.equals(digest, answers.get(i).join().digest());
            if (match) return CompletableFuture.completedFuture(data);
            return resolveMismatch(table, key, spec, cl, targets, blockFor, deadline, rounds);
        });
    }

    /**
     * Digests disagreed: read the data from every target, reconcile, repair the stale ones, then answer. What is
     * answered stops where an answer cut by the limit stopped ({@link Reconciler#certainUpTo}); if that leaves fewer
     * rows than the limit, the partition is read again, which the repair has made the answers agree on up to there
     * (short-read protection), at most {@code rounds} more times: then the rows that are certain are the answer.
     */
    private CompletableFuture<PartitionData> resolveMismatch(TableMetadata table, PartitionKey key, ReadSpec spec, ConsistencyLevel cl,
            List<NodeInfo> targets, int blockFor, Deadline deadline, int rounds) {
        if (deadline.hasPassed()) throw new ReadTimeoutException(cl, blockFor, blockFor, true);
        List<CompletableFuture<ReplicationVerbs.ReadResponse>> answers = new ArrayList<>();
        for (NodeInfo n : targets) answers.add(readFrom(n, new ReplicationVerbs.ReadCommand(table.id(), key, spec, false), deadline));
        return allSettled(answers).thenCompose(settled -> {
            List<PartitionData> versions = new ArrayList<>();
            for (CompletableFuture<ReplicationVerbs.ReadResponse> f : answers) {
                if (f.isCompletedExceptionally()) throw new ReadTimeoutException(cl, versions.size(), blockFor, true);
                versions.add(f.join().data());
            }
            java.nio.ByteBuffer[] cut = Reconciler.certainUpTo(table, versions, spec);
            PartitionData merged = Reconciler.merge(table, versions, spec);
            PartitionData certain = cut == null ? merged : Reconciler.upTo(table, merged, cut, spec);
            return repair(table, certain, targets, versions, deadline).thenCompose(v -> {
                boolean shortRead = cut != null && certain.liveRowCount(spec.nowInSec()) < Math.min(spec.rowLimit(), spec.partitionRowLimit());
                if (!shortRead || rounds == 0) return CompletableFuture.completedFuture(certain);
                return readReplicas(table, key, spec, cl, deadline, rounds - 1);
            });
        });
    }

    /** Whether the newest of the replicas' stamps shows an intent, and this node reads such partitions through transactions. */
    private boolean isHeld(TxnStamp newest) {
        return held != null && newest != null && newest.intent();
    }

    /**
     * A partition whose newest transaction state holds an intent, read through the transaction layer once the intent
     * is resolved (docs/txn.md §10): the replicas' rows may lack writes the transaction's client was already told of.
     * It keeps the read's deadline; too few live replicas for the linearizable read is answered as such, anything
     * else that stops it as a read timeout at the read's level.
     */
    private CompletableFuture<PartitionData> readHeld(TableMetadata table, PartitionKey key, ReadSpec spec, ConsistencyLevel cl,
            int blockFor, Deadline deadline) {
        metrics.heldRead();
        return held.readResolved(table, key, spec)
                .orTimeout(deadline.stepTimeout(timeouts.read()).toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS)
                .exceptionallyCompose(e -> {
                    Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
                    if (cause instanceof UnavailableException) return CompletableFuture.failedFuture(cause);
                    log.debug("a read of {}.{} held by a transaction did not complete: {}", table.keyspace(), table.name(), cause.toString());
                    return CompletableFuture.failedFuture(new ReadTimeoutException(cl, 0, blockFor, false));
                });
    }

    /** Blocking read repair: the reconciled partition is written to every replica whose answer differed from it. */
    private CompletableFuture<Void> repair(TableMetadata table, PartitionData merged, List<NodeInfo> targets, List<PartitionData> versions,
            Deadline deadline) {
        byte[] digest = LocalReplica.digest(merged);
        Mutation repair = local.mutation(new PartitionUpdate(table.id(), merged.key(), merged.partitionDeletion(),
                merged.rangeTombstones(), merged.staticRow(), merged.rows()));
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        Duration wait = deadline.stepTimeout(timeouts.write());
        for (int i = 0; i < targets.size(); i++) {
            if (Arrays.equals(digest, LocalReplica.digest(versions.get(i)))) continue;
            NodeInfo n = targets.get(i);
            if (isSelf(n)) {
                local.apply(List.of(repair));
            } else {
                writes.add(messaging.request(n.internode(), ReplicationVerbs.MUTATION, List.of(repair), wait)
                        .exceptionally(e -> {
                            log.debug("read repair of {} on {} failed: {}", table, n.internode(), e.toString());
                            return null;
                        }));
            }
        }
        return CompletableFuture.allOf(writes.toArray(new CompletableFuture[0]));
    }

    private CompletableFuture<ReplicationVerbs.ReadResponse> readFrom(NodeInfo node, ReplicationVerbs.ReadCommand command, Deadline deadline) {
        if (isSelf(node)) {
            try {
                return CompletableFuture.completedFuture(ReplicaHandlers.read(local, command));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        return messaging.request(node.internode(), ReplicationVerbs.READ, command, deadline.stepTimeout(timeouts.read()));
    }

    /** The replicas to ask: as many as the level needs, from the right data centers, closest first. */
    private List<NodeInfo> targets(ConsistencyLevel cl, Map<String, Integer> factors, List<NodeInfo> aliveInReadOrder) {
        int blockFor = Consistency.blockFor(cl, factors, localDc());
        List<NodeInfo> targets = new ArrayList<>();
        if (cl == ConsistencyLevel.EACH_QUORUM && !factors.containsKey("")) {
            Map<String, Integer> needed = new java.util.HashMap<>(factors);
            needed.replaceAll((dc, rf) -> rf / 2 + 1);
            for (NodeInfo n : aliveInReadOrder) {
                int left = needed.getOrDefault(n.dataCenter(), 0);
                if (left > 0) {
                    targets.add(n);
                    needed.put(n.dataCenter(), left - 1);
                }
            }
            return targets;
        }
        for (NodeInfo n : aliveInReadOrder) {
            if (targets.size() >= blockFor) break;
            if (Consistency.counts(cl, factors, n, localDc())) targets.add(n);
        }
        return targets;
    }

    // ---------------------------------------------------------------- scans

    @Override
    public CompletableFuture<List<PartitionData>> scan(TableMetadata table, TokenRange range, ReadSpec spec, int partitionLimit,
            ConsistencyLevel cl) {
        return scan(table, range, spec, partitionLimit, cl, Deadline.NONE, metrics);
    }

    private CompletableFuture<List<PartitionData>> scan(TableMetadata table, TokenRange range, ReadSpec spec, int partitionLimit,
            ConsistencyLevel cl, Deadline deadline, CoordinatorMetrics timers) {
        VirtualTable virtual = system.table(table.id());
        if (virtual != null) return CompletableFuture.completedFuture(virtual.scan(range, spec, partitionLimit));
        return timers.time(CoordinatorMetrics.Kind.RANGE, cl, () -> scanReplicas(table, range, spec, partitionLimit, cl, deadline));
    }

    private CompletableFuture<List<PartitionData>> scanReplicas(TableMetadata table, TokenRange range, ReadSpec spec, int partitionLimit,
            ConsistencyLevel cl, Deadline deadline) {
        KeyspaceMetadata ks = schema.get().keyspace(table.keyspace());
        TokenRing current = ring;
        if (ks == null || ReplicationStrategy.isLocal(ks.replication()) || current.isEmpty()) {
            if (deadline.hasPassed()) throw new ReadTimeoutException(cl, 0, 1, false);
            return CompletableFuture.completedFuture(local.scan(table.id(), range, spec, partitionLimit, 0).partitions());
        }
        return new RangeScan(table, ks, current, range, spec, partitionLimit, cl, deadline).next();
    }

    /**
     * One scan over a token range, walked one ring segment at a time (each segment has one replica set). Replicas answer
     * with their deleted partitions too, so that one replica's deletions shadow another's older data. What the merged
     * answers make certain is kept (short-read protection, {@link Reconciler#scanCertainty}); the segment is then read
     * on from the last certain partition, and a partition that an answer cut inside and the answers disagree on is read
     * again on its own ({@link #readReplicas}, which protects its rows the same way).
     */
    private final class RangeScan {
        private final TableMetadata table;
        private final KeyspaceMetadata ks;
        private final TokenRing ring;
        private final TokenRange range;
        private final ReadSpec spec;
        private final int partitionLimit;
        private final ConsistencyLevel cl;
        private final Deadline deadline;
        private final List<PartitionData> out = new ArrayList<>();
        private int rowsLeft;
        private long start;
        private PartitionKey after;

        RangeScan(TableMetadata table, KeyspaceMetadata ks, TokenRing ring, TokenRange range, ReadSpec spec, int partitionLimit,
                ConsistencyLevel cl, Deadline deadline) {
            this.table = table;
            this.ks = ks;
            this.ring = ring;
            this.range = range;
            this.spec = spec;
            this.partitionLimit = partitionLimit;
            this.cl = cl;
            this.deadline = deadline;
            this.rowsLeft = spec.rowLimit();
            this.after = range.startAfter();
            // A resumed scan starts at the partition it stopped after, not at the range's first token.
            this.start = after != null ? Math.max(range.start(), after.token()) : range.start();
        }

        private boolean full() {
            return out.size() >= partitionLimit || rowsLeft <= 0;
        }

        CompletableFuture<List<PartitionData>> next() {
            if (range.isEmpty() || start > range.end() || full()) return CompletableFuture.completedFuture(out);
            long owner = ring.token(ring.firstIndex(start));
            long end = owner >= start ? Math.min(owner, range.end()) : range.end();
            TokenRange part = new TokenRange(start, after != null && after.token() >= start && after.token() <= end ? after : null, end);
            List<NodeInfo> alive = readOrder(alive(ReplicationStrategy.replicas(ring, ks.replication(), owner)));
            Map<String, Integer> factors = factors(table);
            checkAvailable(cl, factors, alive);
            List<NodeInfo> targets = targets(cl, factors, alive);
            int blockFor = Consistency.blockFor(cl, factors, localDc());
            if (deadline.hasPassed()) throw new ReadTimeoutException(cl, 0, blockFor, false);
            ReadSpec partSpec = new ReadSpec(spec.slices(), spec.reversed(), rowsLeft, spec.partitionRowLimit(), spec.nowInSec());
            int asked = partitionLimit - out.size();
            // One answer is not merged: it needs no deletions, and leaving them out keeps a scan served here from
            // stopping every thousand deleted partitions.
            int deadMax = targets.size() > 1 ? SCAN_DEAD_PARTITIONS_MAX : 0;
            ReplicationVerbs.ScanCommand command = new ReplicationVerbs.ScanCommand(table.id(), part, partSpec, asked, deadMax);
            Duration wait = deadline.stepTimeout(timeouts.range());
            List<CompletableFuture<ReplicationVerbs.ScanResponse>> answers = new ArrayList<>();
            for (NodeInfo n : targets) {
                try {
                    answers.add(isSelf(n)
                            ? CompletableFuture.completedFuture(local.scan(table.id(), part, partSpec, asked, deadMax))
                            : messaging.request(n.internode(), ReplicationVerbs.SCAN, command, wait));
                } catch (RuntimeException e) {
                    answers.add(CompletableFuture.failedFuture(e));
                }
            }
            return allSettled(answers).thenComposeAsync(settled -> {
                List<List<PartitionData>> received = new ArrayList<>();
                Map<PartitionKey, TxnStamp> newest = new HashMap<>();
                for (CompletableFuture<ReplicationVerbs.ScanResponse> f : answers) {
                    if (f.isCompletedExceptionally()) continue;
                    received.add(f.join().partitions());
                    f.join().txn().forEach((k, stamp) -> newest.merge(k, stamp, TxnStamp::newer));
                }
                if (received.size() < answers.size()) throw new ReadTimeoutException(cl, received.size(), blockFor, !received.isEmpty());
                Set<PartitionKey> heldKeys = new HashSet<>();
                newest.forEach((k, stamp) -> {
                    if (isHeld(stamp)) heldKeys.add(k);
                });
                Reconciler.ScanCertainty certainty = Reconciler.scanCertainty(received, partSpec, asked, deadMax);
                PartitionKey certainUpTo = certainty.upTo();
                Set<PartitionKey> reread = certainty.reread();
                List<PartitionData> merged = new ArrayList<>();
                Set<PartitionKey> present = new HashSet<>();
                for (PartitionData p : Reconciler.mergeScans(table, received, partSpec)) {
                    if (certainUpTo != null && p.key().compareTo(certainUpTo) > 0) break;
                    merged.add(p);
                    present.add(p.key());
                }
                // A partition held by an intent that no replica has rows for yet (a transaction's insert) is read through
                // the transaction like the others, in its place in token order; one past the certain part comes later.
                boolean placed = false;
                for (PartitionKey k : heldKeys) {
                    if (present.contains(k) || (certainUpTo != null && k.compareTo(certainUpTo) > 0)) continue;
                    merged.add(new PartitionData(k, DeletionTime.LIVE, List.of(), null, List.of()));
                    placed = true;
                }
                if (placed) merged.sort(java.util.Comparator.comparing(PartitionData::key));
                Supplier<CompletableFuture<List<PartitionData>>> onwards = () -> {
                    if (certainUpTo != null) {
                        // Read this segment on from the last certain partition.
                        start = certainUpTo.token();
                        after = certainUpTo;
                    } else {
                        if (end >= range.end() || end == Long.MAX_VALUE) return CompletableFuture.completedFuture(out);
                        start = end + 1;
                        after = null;
                    }
                    return next();
                };
                CompletableFuture<Void> taken = take(merged, 0, reread, heldKeys, blockFor);
                return taken.isDone() ? taken.thenCompose(v -> onwards.get()) : taken.thenComposeAsync(v -> onwards.get(), scans);
            }, scans);
        }

        /**
         * Adds {@code merged}'s partitions from {@code i} on, reading those in {@code reread} again on their own, and
         * those a transaction's intent holds ({@code heldKeys}) through the transaction layer (docs/txn.md §10).
         */
        private CompletableFuture<Void> take(List<PartitionData> merged, int i, Set<PartitionKey> reread, Set<PartitionKey> heldKeys,
                int blockFor) {
            for (; i < merged.size() && !full(); i++) {
                PartitionData p = merged.get(i);
                boolean isHeld = heldKeys.contains(p.key());
                if (isHeld || reread.contains(p.key())) {
                    ReadSpec one = new ReadSpec(spec.slices(), spec.reversed(), rowsLeft, spec.partitionRowLimit(), spec.nowInSec());
                    int following = i + 1;
                    CompletableFuture<PartitionData> whole = isHeld ? readHeld(table, p.key(), one, cl, blockFor, deadline)
                            : readReplicas(table, p.key(), one, cl, deadline);
                    // Carried on by the scan's executor: the read may complete on a Paxos or messaging thread, and the
                    // rest of the segment reads this replica's storage.
                    java.util.function.Function<PartitionData, CompletableFuture<Void>> rest = data -> {
                        add(data);
                        return take(merged, following, reread, heldKeys, blockFor);
                    };
                    return whole.isDone() ? whole.thenCompose(rest) : whole.thenComposeAsync(rest, scans);
                }
                add(p);
            }
            return CompletableFuture.completedFuture(null);
        }

        private void add(PartitionData p) {
            if (!p.hasLiveData(spec.nowInSec())) return;
            out.add(p);
            rowsLeft -= p.liveRowCount(spec.nowInSec());
        }
    }

    // ---------------------------------------------------------------- index queries

    /** How many times an index query's chunk is asked again after waiting for the transactions holding its partitions. */
    private static final int HELD_INDEX_RETRIES = 2;

    @Override
    public CompletableFuture<IndexScanResult> indexScan(TableMetadata table, IndexExpression expression, List<String> used,
            TokenRange range, ReadSpec spec, int partitionLimit, ConsistencyLevel cl) {
        return metrics.time(CoordinatorMetrics.Kind.RANGE, cl, () -> CompletableFuture.completedFuture(
                indexScanReplicas(table, expression, used, range, spec, partitionLimit, cl)));
    }

    /**
     * Walks the token range as {@link #scanReplicas} does, asking each sub-range's replicas for their index answer.
     * With several replicas, what is certain is only what every answer covers: the chunk stops at the first
     * partition where an answer was cut by the limits, and rows not all answers returned are read again
     * ({@link #protect}). docs/indexes.md, "Queries".
     */
    private IndexScanResult indexScanReplicas(TableMetadata table, IndexExpression expression, List<String> used, TokenRange range,
            ReadSpec spec, int partitionLimit, ConsistencyLevel cl) {
        KeyspaceMetadata ks = schema.get().keyspace(table.keyspace());
        TokenRing current = ring;
        boolean local = ks == null || ReplicationStrategy.isLocal(ks.replication()) || current.isEmpty();
        List<PartitionData> out = new ArrayList<>();
        int rowsLeft = spec.rowLimit();
        PartitionKey after = range.startAfter();
        long start = after != null ? Math.max(range.start(), after.token()) : range.start();
        while (!range.isEmpty() && start <= range.end() && out.size() < partitionLimit && rowsLeft > 0) {
            long end = range.end();
            List<NodeInfo> targets = List.of(membership.self());
            Map<String, Integer> factors = Map.of("", 1);
            if (!local) {
                long owner = current.token(current.firstIndex(start));
                end = owner >= start ? Math.min(owner, range.end()) : range.end();
                List<NodeInfo> alive = readOrder(alive(ReplicationStrategy.replicas(current, ks.replication(), owner)));
                factors = factors(table);
                checkAvailable(cl, factors, alive);
                targets = targets(cl, factors, alive);
            }
            TokenRange part = new TokenRange(start, after != null && after.token() >= start && after.token() <= end ? after : null, end);
            ReadSpec partSpec = new ReadSpec(spec.slices(), spec.reversed(), rowsLeft, spec.partitionRowLimit(), spec.nowInSec());
            ReplicationVerbs.IndexScanCommand command = new ReplicationVerbs.IndexScanCommand(table.id(), expression, used, part, partSpec,
                    partitionLimit - out.size());
            int blockFor = Consistency.blockFor(cl, factors, localDc());
            java.util.Set<PartitionKey> heldKeys = new java.util.TreeSet<>();
            List<List<PartitionData>> answers = ask(targets, command, cl, blockFor, heldKeys);
            // Partitions held by an intent may lack their transaction's writes in the index (docs/txn.md §11.1): wait
            // for (or recover) the transactions holding this chunk's, then ask again. Bounded: later transactions may
            // hold them again.
            Cut chunk = cutOf(answers, rowsLeft, command.partitionLimit(), spec.nowInSec());
            for (int again = 0; held != null && again < HELD_INDEX_RETRIES; again++) {
                List<PartitionKey> waitFor = new ArrayList<>();
                for (PartitionKey key : heldKeys) if (chunk.key() == null || key.compareTo(chunk.key()) <= 0) waitFor.add(key);
                if (waitFor.isEmpty() || !awaitResolved(table, waitFor, partSpec, cl, blockFor)) break;
                heldKeys.clear();
                answers = ask(targets, command, cl, blockFor, heldKeys);
                chunk = cutOf(answers, rowsLeft, command.partitionLimit(), spec.nowInSec());
            }
            PartitionKey cut = chunk.key();
            boolean cutByRows = chunk.byRows();
            List<PartitionData> merged = answers.size() == 1 ? answers.get(0) : protect(table, answers, cut, partSpec, cl);
            for (PartitionData p : merged) {
                if (!p.hasLiveData(spec.nowInSec())) continue;
                out.add(p);
                rowsLeft -= p.liveRowCount(spec.nowInSec());
            }
            if (cut != null) {
                // Nothing left after protection: the chunk must still move on, so read the cut partition itself (its
                // rows are filtered by the query); it is complete unless the read stopped at the row limit.
                if (out.isEmpty()) {
                    PartitionData whole = readReplicas(table, cut, partSpec, cl, Deadline.NONE).join();
                    return new IndexScanResult(List.of(whole), whole.liveRowCount(spec.nowInSec()) < partSpec.rowLimit(), false);
                }
                return new IndexScanResult(out, !cutByRows, false);
            }
            if (end >= range.end() || end == Long.MAX_VALUE) break;
            start = end + 1;
            after = null;
        }
        return new IndexScanResult(out, true, out.size() < partitionLimit && rowsLeft > 0);
    }

    /** Where a chunk's answers stop being certain: the first partition where one stopped at the limits; null if none did. */
    private record Cut(PartitionKey key, boolean byRows) {}

    private static Cut cutOf(List<List<PartitionData>> answers, int rowsLeft, int partitionLimit, int nowInSec) {
        PartitionKey cut = null;
        boolean byRows = false;
        for (List<PartitionData> answer : answers) {
            int live = 0;
            for (PartitionData p : answer) live += p.liveRowCount(nowInSec);
            boolean cutHere = live >= rowsLeft || answer.size() >= partitionLimit;
            if (!cutHere || answer.isEmpty()) continue;
            PartitionKey last = answer.get(answer.size() - 1).key();
            if (cut == null || last.compareTo(cut) < 0) cut = last;
            byRows |= live >= rowsLeft;
        }
        return new Cut(cut, byRows);
    }

    /**
     * Waits, all at once, for the transactions holding {@code keys} to be decided (a SERIAL read of each, which
     * recovers an abandoned one). False if one could not be in time: the partitions may not even match the query, so
     * that does not fail it, and it answers from what the index holds (docs/txn.md §13).
     */
    private boolean awaitResolved(TableMetadata table, List<PartitionKey> keys, ReadSpec spec, ConsistencyLevel cl, int blockFor) {
        CompletableFuture<?>[] reads = new CompletableFuture<?>[keys.size()];
        for (int i = 0; i < keys.size(); i++) reads[i] = readHeld(table, keys.get(i), spec, cl, blockFor, Deadline.NONE);
        try {
            CompletableFuture.allOf(reads).join();
            return true;
        } catch (CompletionException e) {
            log.debug("an index query of {}.{} goes on without waiting for the transactions holding {}: {}", table.keyspace(),
                    table.name(), keys, e.getCause() == null ? e.toString() : e.getCause().toString());
            return false;
        }
    }

    /**
     * Each target's answer; READ_FAILURE if a target's index is still building, READ_TIMEOUT if one does not answer.
     * {@code held} receives the partitions the targets found held by an intent.
     */
    private List<List<PartitionData>> ask(List<NodeInfo> targets, ReplicationVerbs.IndexScanCommand command, ConsistencyLevel cl, int blockFor,
            java.util.Set<PartitionKey> held) {
        List<List<PartitionData>> answers = new ArrayList<>();
        Map<java.net.InetSocketAddress, ballot.cql.error.RequestFailureReason> unavailable = new java.util.LinkedHashMap<>();
        for (NodeInfo n : targets) {
            ReplicationVerbs.IndexScanResponse response;
            try {
                response = isSelf(n) ? ReplicaHandlers.indexScan(local, command)
                        : messaging.request(n.internode(), ReplicationVerbs.INDEX_SCAN, command, timeouts.range()).join();
            } catch (CompletionException | MessagingException e) {
                throw new ReadTimeoutException(cl, answers.size(), blockFor, !answers.isEmpty());
            }
            held.addAll(response.held());
            if (response.available()) answers.add(response.partitions());
            else unavailable.put(n.internode(), ballot.cql.error.RequestFailureReason.INDEX_NOT_AVAILABLE);
        }
        if (!unavailable.isEmpty()) throw new ReadFailureException(cl, answers.size(), blockFor, unavailable);
        return answers;
    }

    /**
     * Merges several replicas' answers up to {@code cut} (the first partition where an answer stopped at the limits;
     * null if none did). Partitions every answer returned with the same rows are reconciled as they are; the others
     * are read again at {@code cl} (with read repair): a replica that did not return a row may hold a newer value
     * that no longer matches (Cassandra's replica filtering protection).
     */
    private List<PartitionData> protect(TableMetadata table, List<List<PartitionData>> answers, PartitionKey cut, ReadSpec spec,
            ConsistencyLevel cl) {
        java.util.TreeMap<PartitionKey, List<PartitionData>> byKey = new java.util.TreeMap<>();
        for (List<PartitionData> answer : answers) {
            for (PartitionData p : answer) {
                if (cut == null || p.key().compareTo(cut) <= 0) byKey.computeIfAbsent(p.key(), k -> new ArrayList<>()).add(p);
            }
        }
        List<PartitionData> out = new ArrayList<>();
        for (Map.Entry<PartitionKey, List<PartitionData>> e : byKey.entrySet()) {
            List<PartitionData> versions = e.getValue();
            if (versions.size() == answers.size() && sameRows(versions)) {
                out.add(Reconciler.merge(table, versions, spec));
                continue;
            }
            java.util.TreeSet<java.nio.ByteBuffer[]> rows = new java.util.TreeSet<>(table.clusteringOrder());
            for (PartitionData p : versions) for (ballot.cql.data.Row r : p.rows()) rows.add(r.clustering().values());
            List<ballot.cql.data.Slice> slices = new ArrayList<>();
            for (java.nio.ByteBuffer[] r : rows) slices.add(ballot.cql.data.Slice.of(r));
            ReadSpec again = slices.isEmpty() || table.clustering().isEmpty() ? spec : spec.withSlices(slices);
            out.add(readReplicas(table, e.getKey(), again, cl, Deadline.NONE).join());
        }
        return out;
    }

    private static boolean sameRows(List<PartitionData> versions) {
        List<ballot.cql.data.Clustering> first = versions.get(0).rows().stream().map(ballot.cql.data.Row::clustering).toList();
        for (PartitionData p : versions) {
            if (!p.rows().stream().map(ballot.cql.data.Row::clustering).toList().equals(first)) return false;
            if ((p.staticRow() == null) != (versions.get(0).staticRow() == null)) return false;
        }
        return true;
    }

    // ---------------------------------------------------------------- truncate

    @Override
    public CompletableFuture<Void> truncate(TableMetadata table) {
        return truncate(table, Deadline.NONE);
    }

    private CompletableFuture<Void> truncate(TableMetadata table, Deadline deadline) {
        Collection<NodeInfo> members = ring.isEmpty() ? List.of(membership.self()) : ring.nodes();
        List<CompletableFuture<Void>> truncations = new ArrayList<>();
        for (NodeInfo n : members) {
            if (!isSelf(n) && !membership.isAlive(n.hostId())) {
                throw new TruncateException("Cannot achieve consistency level ALL: node " + n.internode().getAddress().getHostAddress()
                        + " is down; TRUNCATE needs every node");
            }
        }
        if (deadline.hasPassed()) throw new TruncateException("TRUNCATE timed out before it began on any node");
        Duration wait = deadline.stepTimeout(timeouts.range());
        for (NodeInfo n : members) {
            if (isSelf(n)) local.truncate(table.id());
            else truncations.add(messaging.request(n.internode(), ReplicationVerbs.TRUNCATE, table.id(), wait));
        }
        return CompletableFuture.allOf(truncations.toArray(new CompletableFuture[0])).exceptionally(e -> {
            throw new TruncateException("TRUNCATE did not complete on every node: " + e.getMessage());
        });
    }

    @Override
    public DataCoordinator within(Duration timeout) {
        return new View(deadlineAfter(timeout), metrics);
    }

    @Override
    public DataCoordinator withReadDeadline(boolean range) {
        return new View(deadlineAfter(range ? timeouts.range() : timeouts.read()), metrics);
    }

    private Deadline deadlineAfter(Duration timeout) {
        return Deadline.at(nanoTime.getAsLong() + timeout.toNanos(), nanoTime);
    }

    /**
     * This coordinator for the writes the node makes for itself (system_traces): the same paths and timeouts, kept out
     * of the client request latency metrics ({@code ballot.coordinator.*}).
     */
    public DataCoordinator unmetered() {
        return new View(Deadline.NONE, CoordinatorMetrics.NONE);
    }

    /**
     * This coordinator with a deadline shared by every operation (one statement execution with USING TIMEOUT), and
     * the metrics its operations are timed in.
     */
    private final class View implements DataCoordinator {
        private final Deadline deadline;
        private final CoordinatorMetrics timers;

        View(Deadline deadline, CoordinatorMetrics timers) {
            this.deadline = deadline;
            this.timers = timers;
        }

        @Override
        public CompletableFuture<Void> write(List<PartitionUpdate> updates, ConsistencyLevel consistency, WriteType writeType) {
            return ReplicatedCoordinator.this.write(updates, consistency, writeType, deadline, timers);
        }

        @Override
        public CompletableFuture<PartitionData> read(TableMetadata table, PartitionKey key, ReadSpec spec, ConsistencyLevel consistency) {
            return ReplicatedCoordinator.this.read(table, key, spec, consistency, deadline, timers);
        }

        @Override
        public CompletableFuture<List<PartitionData>> scan(TableMetadata table, TokenRange range, ReadSpec spec, int partitionLimit,
                ConsistencyLevel consistency) {
            return ReplicatedCoordinator.this.scan(table, range, spec, partitionLimit, consistency, deadline, timers);
        }

        /** Index queries keep the range timeout for each step (the deadline is not threaded through them yet). */
        @Override
        public CompletableFuture<IndexScanResult> indexScan(TableMetadata table, IndexExpression expression, List<String> used,
                TokenRange range, ReadSpec spec, int partitionLimit, ConsistencyLevel consistency) {
            return ReplicatedCoordinator.this.indexScan(table, expression, used, range, spec, partitionLimit, consistency);
        }

        @Override
        public CompletableFuture<Void> truncate(TableMetadata table) {
            return ReplicatedCoordinator.this.truncate(table, deadline);
        }

        @Override
        public DataCoordinator within(Duration timeout) {
            return new View(deadlineAfter(timeout), timers);
        }

        @Override
        public DataCoordinator withReadDeadline(boolean range) {
            return deadline != Deadline.NONE ? this : new View(deadlineAfter(range ? timeouts.range() : timeouts.read()), timers);
        }
    }

    private TableMetadata table(UUID id) {
        TableMetadata table = schema.get().table(id);
        if (table == null) throw new InvalidRequestException("table " + id + " was dropped");
        return table;
    }

    private static <T> CompletableFuture<Void> allSettled(List<CompletableFuture<T>> futures) {
        CompletableFuture<?>[] handled = new CompletableFuture[futures.size()];
        for (int i = 0; i < handled.length; i++) handled[i] = futures.get(i).handle((v, e) -> null);
        return CompletableFuture.allOf(handled);
    }
}
