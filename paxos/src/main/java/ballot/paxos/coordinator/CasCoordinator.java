package ballot.paxos.coordinator;

import ballot.paxos.BallotGenerator;
import ballot.paxos.Electorate;
import ballot.paxos.NodeId;
import ballot.paxos.PaxosKey;
import ballot.paxos.message.Reply;
import ballot.paxos.spi.Clock;
import ballot.paxos.spi.Observer;
import ballot.paxos.spi.RandomSource;
import ballot.paxos.spi.ReadModel;
import ballot.paxos.spi.Transport;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The compare-and-set coordinator of one node (docs/paxos.md §4): leaderless per-partition Paxos with prepare+read,
 * a promise held across rounds for one-round-trip steady state, hot-partition batching, contention back-off, and
 * outcomes that never call a possibly-applied update "failed".
 *
 * <p>It is a pure state machine: inputs are {@link #submit}, {@link #receive} (replies from replicas) and
 * {@link #tick} (call every few milliseconds); outputs are messages through the {@link Transport} and answers through
 * each request's callback, invoked synchronously from those calls. Not thread-safe: the server confines each
 * instance to one thread and routes every partition to the same instance (e.g. N instances keyed by partition hash).
 */
public final class CasCoordinator {
    private final Context ctx;
    private final long sessionIdleNanos;
    private final int idleSessionsMax;
    /**
     * Each partition's sessions: one per electorate, chained through {@link PartitionSession#sibling} (usually one;
     * SERIAL and LOCAL_SERIAL requests on one partition, or a ring change, make more).
     */
    private final Map<PaxosKey, PartitionSession> sessions = new HashMap<>();
    private int sessionCount;
    /**
     * The sessions that are not idle. Invariant: every session that is not {@link PartitionSession#idle()} is here, so
     * {@link #tick} visits only these (an idle session's tick does nothing) and its cost follows the partitions in
     * flight, not every partition served in the last {@code sessionIdle}.
     */
    private final Set<PartitionSession> busy = new LinkedHashSet<>();
    /**
     * Candidates for eviction, oldest first. Invariant: every idle session is here exactly once (its
     * {@code awaitingEviction} flag), so late replies to an idle partition cost no entry; a session active again since
     * it was queued goes back to the tail when it reaches the head.
     */
    private final ArrayDeque<PartitionSession> idle = new ArrayDeque<>();
    /** Queue lengths summed over partitions, and the longest, as the last {@link #tick} left them. */
    private int queuedAtTick;
    private int queuedMaxAtTick;

    private CasCoordinator(Context ctx, long sessionIdleNanos, int idleSessionsMax) {
        this.ctx = ctx;
        this.sessionIdleNanos = sessionIdleNanos;
        this.idleSessionsMax = idleSessionsMax;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Runs {@code request} on {@code key}'s replicas. {@code callback} receives exactly one {@link CasResult}, at the
     * latest at the first {@link #tick} after {@code deadlineNanos} (on this coordinator's {@link Clock#nanoTime()}).
     * The callback runs inside the state machine's transition: it must not throw or call back into this coordinator
     * (complete a future and return). Requests of one partition with different electorates run in separate sessions,
     * never in one round: each is decided by its own electorate's quorums (docs/paxos.md §11). {@code slot} is given
     * back while the request waits in the partition's queue (see {@link WorkSlot}).
     */
    public void submit(PaxosKey key, Electorate electorate, CasRequest request, CommitLevel commitLevel,
            long deadlineNanos, WorkSlot slot, Consumer<CasResult> callback) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(commitLevel, "commitLevel");
        Objects.requireNonNull(callback, "callback");
        Objects.requireNonNull(slot, "slot");
        for (NodeId n : commitLevel.counted())
            if (!electorate.isReplica(n)) throw new IllegalArgumentException("commit level " + commitLevel + " counts " + n + ", not a replica of " + electorate);
        PartitionSession session = session(key, electorate);
        session.submit(new Pending(request, commitLevel, deadlineNanos, slot, callback));
        track(session);
    }

    private PartitionSession session(PaxosKey key, Electorate electorate) {
        PartitionSession first = sessions.get(key);
        for (PartitionSession s = first; s != null; s = s.sibling) if (s.electorate.equals(electorate)) return s;
        PartitionSession created = new PartitionSession(ctx, key, electorate);
        created.sibling = first;
        sessions.put(key, created);
        sessionCount++;
        return created;
    }

    /** A reply from a replica; replies for finished rounds and unknown partitions are ignored. */
    public void receive(NodeId from, Reply reply) {
        for (PartitionSession s = sessions.get(reply.key()); s != null; s = s.sibling) { // each ignores others' ballots
            s.receive(from, reply);
            track(s);
        }
    }

    private void forget(PartitionSession session) {
        sessionCount--;
        PartitionSession first = sessions.get(session.key);
        if (first == session) {
            if (session.sibling == null) sessions.remove(session.key);
            else sessions.put(session.key, session.sibling);
            return;
        }
        for (PartitionSession s = first; s != null; s = s.sibling) {
            if (s.sibling == session) {
                s.sibling = session.sibling;
                return;
            }
        }
    }

    private void track(PartitionSession session) {
        if (!session.idle()) busy.add(session);
        else if (!busy.contains(session)) awaitEviction(session);
    }

    private void awaitEviction(PartitionSession session) {
        if (session.awaitingEviction) return;
        session.awaitingEviction = true;
        session.queuedAtNanos = session.lastActiveNanos;
        idle.add(session);
    }

    /** Deadlines, retransmission, back-off and eviction of idle partitions. */
    public void tick() {
        long now = ctx.clock.nanoTime();
        int queued = 0;
        int queuedMax = 0;
        for (Iterator<PartitionSession> it = busy.iterator(); it.hasNext(); ) {
            PartitionSession session = it.next();
            session.tick();
            int q = session.queued();
            queued += q;
            queuedMax = Math.max(queuedMax, q);
            if (session.idle()) {
                it.remove();
                awaitEviction(session);
            }
        }
        queuedAtTick = queued;
        queuedMaxAtTick = queuedMax;
        evictIdle(now);
    }

    /**
     * Drops the sessions (and held promises) of partitions idle for {@code sessionIdle}, and the longest idle ones
     * beyond {@code idleSessionsMax}. A head that was active since it was queued moves to the tail; each pass stops
     * at the first head idle for less than that (and within the limit), so it looks at each session at most once.
     */
    private void evictIdle(long now) {
        for (int left = idle.size(); left > 0; left--) {
            PartitionSession s = idle.poll();
            if (busy.contains(s)) {
                s.awaitingEviction = false; // busy again: tick queues it when it idles
            } else if (now - s.lastActiveNanos >= sessionIdleNanos || sessionCount - busy.size() > idleSessionsMax) {
                s.awaitingEviction = false;
                s.flushPrune(); // no next proposal will carry it (§4.7): the purge needs the decree pruned (§4.13)
                forget(s);
            } else if (s.lastActiveNanos == s.queuedAtNanos) {
                idle.addFirst(s); // the oldest idle session is not due yet: nothing behind it is either
                return;
            } else {
                s.queuedAtNanos = s.lastActiveNanos;
                idle.add(s);
            }
        }
    }

    /** Partition sessions with state on this coordinator (a gauge for the server). */
    public int sessions() {
        return sessionCount;
    }

    /**
     * Whether a {@link #tick} would do nothing: no partition has a round in flight or a session left to evict. Only a
     * request or a reply ends it, so a shell may stop ticking a quiet coordinator until one arrives.
     */
    public boolean quiet() {
        return busy.isEmpty() && idle.isEmpty();
    }

    /**
     * Requests waiting behind their partition's round in flight (§8), summed over partitions, as of the last
     * {@link #tick}: counted there, in the pass it makes anyway (a gauge for the server).
     */
    public int queuedAtTick() {
        return queuedAtTick;
    }

    /** The longest single partition's queue as of the last {@link #tick}. */
    public int queuedMaxAtTick() {
        return queuedMaxAtTick;
    }

    /** Settings are validated in {@link #build()}; errors name the setting and the value. */
    public static final class Builder {
        private NodeId self;
        private int incarnation;
        private Transport transport;
        private Clock clock;
        private RandomSource random;
        private ReadModel readModel;
        private Observer observer = Observer.NONE;
        private int batchSizeMax = 32;
        private int partitionQueueMax = Integer.MAX_VALUE;
        private Duration retransmit = Duration.ofMillis(100);
        private Duration backoffBase = Duration.ofMillis(1);
        private Duration backoffMax = Duration.ofMillis(100);
        private Duration recoveryGrace = Duration.ofMillis(20);
        private Duration commitRetry = Duration.ofSeconds(2);
        private Duration sessionIdle = Duration.ofSeconds(10);
        private int idleSessionsMax = 1024;
        private boolean fastPath = true;
        private BallotGenerator ballots;

        private Builder() {}

        /** This node, and its restart counter (persisted by the server, different on every start). */
        public Builder self(NodeId self, int incarnation) {
            this.self = self;
            this.incarnation = incarnation;
            return this;
        }

        /**
         * The generator to issue ballots from, when this coordinator shares one with others of this node that run on
         * the same thread and may coordinate the same partition: ballots of one node are unique only if one generator
         * issues them (§4.1). By default the coordinator has its own.
         */
        public Builder ballots(BallotGenerator ballots) {
            this.ballots = ballots;
            return this;
        }

        public Builder transport(Transport transport) {
            this.transport = transport;
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        public Builder random(RandomSource random) {
            this.random = random;
            return this;
        }

        public Builder readModel(ReadModel readModel) {
            this.readModel = readModel;
            return this;
        }

        public Builder observer(Observer observer) {
            this.observer = observer;
            return this;
        }

        /** Most requests of one partition decided by one round (§8). */
        public Builder batchSizeMax(int batchSizeMax) {
            this.batchSizeMax = batchSizeMax;
            return this;
        }

        /**
         * The most requests that may wait for one partition's next round on this coordinator; the next is answered
         * OVERLOADED at once, so one hot partition cannot hold unbounded memory (docs/admission.md).
         */
        public Builder partitionQueueMax(int partitionQueueMax) {
            this.partitionQueueMax = partitionQueueMax;
            return this;
        }

        /** How long to wait for a reply before sending a request again. */
        public Builder retransmit(Duration retransmit) {
            this.retransmit = retransmit;
            return this;
        }

        /** Contention back-off: the first ceiling and the largest one (§4.9). */
        public Builder backoff(Duration base, Duration max) {
            this.backoffBase = base;
            this.backoffMax = max;
            return this;
        }

        /**
         * How long a prepare waits for replicas beyond the quorum when they may settle something the quorum cannot:
         * the fate of an in-doubt proposal (§4.10), or whether a checked incomplete proposal is unchoosable (§5.7).
         */
        public Builder recoveryGrace(Duration recoveryGrace) {
            this.recoveryGrace = recoveryGrace;
            return this;
        }

        /** How long a decided decree's commit is resent to replicas that have not applied it. */
        public Builder commitRetry(Duration commitRetry) {
            this.commitRetry = commitRetry;
            return this;
        }

        /** An idle partition's state (and held promise) is dropped after this long. */
        public Builder sessionIdle(Duration sessionIdle) {
            this.sessionIdle = sessionIdle;
            return this;
        }

        /**
         * The most idle partitions whose state (and held promise) is kept; beyond it the longest idle go first. Under
         * a stream of new partitions this keeps the state short-lived, where 10 s of it would be promoted to the old
         * generation and marked there.
         */
        public Builder idleSessionsMax(int idleSessionsMax) {
            this.idleSessionsMax = idleSessionsMax;
            return this;
        }

        /** Whether rounds may use a promise held from the previous round (§4.8); on by default. */
        public Builder fastPath(boolean fastPath) {
            this.fastPath = fastPath;
            return this;
        }

        public CasCoordinator build() {
            require(self, "self");
            require(transport, "transport");
            require(clock, "clock");
            require(random, "random");
            require(readModel, "readModel");
            require(observer, "observer");
            if (incarnation < 0) throw new IllegalArgumentException("incarnation is " + incarnation + "; must be >= 0");
            if (batchSizeMax < 1) throw new IllegalArgumentException("batchSizeMax is " + batchSizeMax + "; must be >= 1");
            if (partitionQueueMax < 1) throw new IllegalArgumentException("partitionQueueMax is " + partitionQueueMax + "; must be >= 1");
            positive(retransmit, "retransmit");
            positive(backoffBase, "backoff base");
            positive(backoffMax, "backoff max");
            if (backoffMax.compareTo(backoffBase) < 0)
                throw new IllegalArgumentException("backoff max is " + backoffMax + "; must be >= backoff base " + backoffBase);
            notNegative(recoveryGrace, "recoveryGrace");
            notNegative(commitRetry, "commitRetry");
            notNegative(sessionIdle, "sessionIdle");
            if (idleSessionsMax < 0) throw new IllegalArgumentException("idleSessionsMax is " + idleSessionsMax + "; must be >= 0");
            if (ballots != null && !ballots.issuesFor(self, incarnation))
                throw new IllegalArgumentException("ballots are issued for another node or incarnation than " + self + "/" + incarnation);
            Context ctx = new Context(self, transport, clock, ballots != null ? ballots : new BallotGenerator(clock, self, incarnation), readModel,
                    observer, new Backoff(random, backoffBase.toNanos(), backoffMax.toNanos()), batchSizeMax,
                    retransmit.toNanos(), recoveryGrace.toNanos(), commitRetry.toNanos(), fastPath, partitionQueueMax);
            return new CasCoordinator(ctx, sessionIdle.toNanos(), idleSessionsMax);
        }

        private static void require(Object value, String setting) {
            if (value == null) throw new IllegalArgumentException(setting + " is not set");
        }

        private static void positive(Duration value, String setting) {
            if (value == null || value.isZero() || value.isNegative())
                throw new IllegalArgumentException(setting + " is " + value + "; must be positive");
        }

        private static void notNegative(Duration value, String setting) {
            if (value == null || value.isNegative())
                throw new IllegalArgumentException(setting + " is " + value + "; must not be negative");
        }
    }
}
