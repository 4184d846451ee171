package ballot.paxos.coordinator;

import ballot.paxos.Ballot;
import ballot.paxos.Bytes;
import ballot.paxos.Decree;
import ballot.paxos.Electorate;
import ballot.paxos.Mark;
import ballot.paxos.NodeId;
import ballot.paxos.PaxosKey;
import ballot.paxos.Proposal;
import ballot.paxos.coordinator.CasResult.Outcome;
import ballot.paxos.message.Accepted;
import ballot.paxos.message.Commit;
import ballot.paxos.message.Committed;
import ballot.paxos.message.Prepare;
import ballot.paxos.message.Promise;
import ballot.paxos.message.Propose;
import ballot.paxos.message.Prune;
import ballot.paxos.message.Rejected;
import ballot.paxos.message.Reply;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The coordinator's state machine for one partition (docs/paxos.md §4): a queue of requests, at most one round in
 * flight (which carries a batch of queued requests, §8), the promise held for the next round (§4.8), decided decrees
 * waiting for their commit level (§4.6), and a proposal whose fate is in doubt (§4.10). Driven only by
 * {@link #submit}, {@link #receive} and {@link #tick}; time comes from the injected clock.
 */
final class PartitionSession {
    private enum Phase { PREPARE, REPLAY, PROPOSE }

    /** One round: a prepare (unless fast), perhaps a replay of an incomplete proposal, then our proposal. */
    private static final class Round {
        Phase phase;
        final List<Pending> batch;
        final boolean fast;
        PrepareRound prepare;
        Map<Bytes, Bytes> states;
        ProposeRound propose;
        Evaluation evaluation;
        long nextRetransmitNanos;
        long graceUntilNanos;
        /** Deciding anything in this round proves the in-doubt proposal never takes effect. */
        boolean decidingResolvesInDoubt;

        Round(Phase phase, List<Pending> batch, boolean fast) {
            this.phase = phase;
            this.batch = batch;
            this.fast = fast;
        }
    }

    /** Our proposal that may have been accepted but was not decided; its requests wait for the next prepare. */
    private record InDoubt(Proposal proposal, List<Pending> requests, Map<Pending, Bytes> seen) {}

    private final Context ctx;
    final PaxosKey key;
    /** Fixed: requests with another electorate have their own session (CasCoordinator), as if from another node. */
    final Electorate electorate;
    /** The next session of the same partition with another electorate, or null; owned by {@link CasCoordinator}. */
    PartitionSession sibling;
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private final List<CommitRound> commits = new ArrayList<>();
    private Round round;
    private Held held;
    private InDoubt inDoubt;
    private boolean backingOff;
    private long backoffUntilNanos;
    private int contentionAttempts;
    private Ballot witnessed = Ballot.ZERO;
    private long minMicros;
    private Ballot pendingPrune;
    /**
     * A ballot our own replica promised in memory only, as one of the quorum (§4.2.5): no proposal of it goes to
     * another replica before ours has accepted it, durably. Null once it has, or when a new prepare begins.
     */
    private Ballot promisedInMemory;
    /** The next prepare asks our replica for a durable promise ({@link #withholdFromOthers}). */
    private boolean ownPromiseDurableNext;
    long lastActiveNanos;
    /** Owned by {@link CasCoordinator}: whether this session is in its eviction queue, and its activity when queued. */
    boolean awaitingEviction;
    long queuedAtNanos;

    PartitionSession(Context ctx, PaxosKey key, Electorate electorate) {
        this.ctx = ctx;
        this.key = key;
        this.electorate = electorate;
        this.lastActiveNanos = ctx.clock.nanoTime();
    }

    /** Requests waiting for the next round. */
    int queued() {
        return queue.size();
    }

    boolean idle() {
        return round == null && queue.isEmpty() && commits.isEmpty() && inDoubt == null && !backingOff;
    }

    // ---------------------------------------------------------------- inputs

    void submit(Pending pending) {
        lastActiveNanos = ctx.clock.nanoTime();
        if (unavailable(pending)) {
            answerUnavailable(pending);
            return;
        }
        if (queue.size() >= ctx.partitionQueueMax) {
            ctx.mark(Mark.OVERLOADED);
            pending.answer(Outcome.OVERLOADED, null);
            return;
        }
        queue.add(pending);
        startIfIdle();
        if (queue.peekLast() == pending) pending.waits(); // still queued (the queue shrinks only from the front)
    }

    /**
     * Too few live voters for a quorum, or live replicas for the request's commit level, by the failure detector. Checked
     * on arrival and before each attempt, as Cassandra does: only for a request in the queue, none of which can take
     * effect any more (never proposed, or in a proposal proven dead or never applied, §4.10, §5.7).
     */
    private boolean unavailable(Pending p) {
        int voters = 0;
        for (NodeId n : electorate.voters()) if (alive(n)) voters++;
        int counted = 0;
        for (NodeId n : p.commitLevel.counted()) if (alive(n)) counted++;
        return voters < electorate.quorum() || counted < p.commitLevel.acks();
    }

    private boolean alive(NodeId node) {
        return node.equals(ctx.self) || ctx.transport.isAlive(node);
    }

    /** A reply for this partition; it may belong to a sibling's rounds, so it only counts as activity when busy. */
    void receive(NodeId from, Reply reply) {
        if (!idle()) lastActiveNanos = ctx.clock.nanoTime();
        if (reply instanceof Promise promise) onPromise(from, promise);
        else if (reply instanceof Rejected rejected) onRejected(from, rejected);
        else if (reply instanceof Accepted accepted) onAccepted(from, accepted);
        else if (reply instanceof Committed committed) acknowledgeCommit(committed.ballot(), from, false);
    }

    void tick() {
        long now = ctx.clock.nanoTime();
        expireDeadlines(now);
        Round r = round;
        if (r != null && r.batch.isEmpty() && inDoubt == null) abandonRound();
        r = round;
        if (r != null && r.phase == Phase.PREPARE && r.graceUntilNanos != 0 && now >= r.graceUntilNanos) onPrepared();
        r = round;
        // A voter marked down since the round began may leave too few to answer: stop waiting for it. (A blocked phase
        // has neither a quorum of promises nor one of acceptances.)
        if (r != null && r.phase == Phase.PREPARE && r.prepare.blocked(this::alive)) onPrepareProgress();
        else if (r != null && r.phase != Phase.PREPARE && r.propose.blocked(this::alive)) onProposeBlocked();
        r = round;
        if (r != null && now >= r.nextRetransmitNanos) retransmit(r, now);
        for (Iterator<CommitRound> it = commits.iterator(); it.hasNext(); ) {
            CommitRound cr = it.next();
            if (now < cr.nextSendNanos) continue;
            if (now >= cr.giveUpNanos && cr.waiters.isEmpty()) {
                it.remove(); // some replica stays behind; §5.3 does not need it, and it is simply not pruned
                continue;
            }
            for (NodeId n : cr.unapplied()) ctx.transport.send(n, new Commit(key, cr.decree));
            cr.nextSendNanos = now + ctx.retransmitNanos;
        }
        if (backingOff && now >= backoffUntilNanos) backingOff = false;
        startIfIdle();
    }

    // ---------------------------------------------------------------- starting rounds

    private void startIfIdle() {
        if (round != null || backingOff) return;
        long now = ctx.clock.nanoTime();
        List<Pending> batch = new ArrayList<>();
        while (!queue.isEmpty() && batch.size() < ctx.batchSizeMax) {
            Pending p = queue.poll();
            if (p.expired(now)) timedOut(p);
            else if (unavailable(p)) answerUnavailable(p); // replicas lost since it arrived
            else batch.add(p);
        }
        if (batch.isEmpty() && inDoubt == null) return;
        for (int i = 0; i < batch.size(); i++) {
            if (i == 0) batch.get(i).leads();
            else batch.get(i).waits();
        }
        if (inDoubt == null && fastPathUsable(batch)) startFast(batch);
        else startPrepare(batch);
    }

    private boolean fastPathUsable(List<Pending> batch) {
        if (!ctx.fastPathEnabled || held == null) return false;
        if (!held.covers(batch)) {
            ctx.mark(Mark.FAST_PATH_QUERY_MISS);
            return false;
        }
        int alive = 0;
        for (NodeId n : held.versions.keySet()) if (electorate.isVoter(n) && alive(n)) alive++;
        return alive >= electorate.quorum();
    }

    /** §4.8: evaluate on the held state and propose with the held ballot; the acceptors check versions (§5.7). */
    private void startFast(List<Pending> batch) {
        Held h = held;
        Round r = new Round(Phase.PROPOSE, batch, true);
        try {
            r.evaluation = Evaluation.run(ctx.model, batch, h.cache(), h.ballot);
        } catch (BallotTooEarly e) {
            held = null;
            catchUp(e, batch);
            return;
        }
        Proposal proposal = new Proposal(h.ballot, h.ballot, r.evaluation.entries, h.predecessor, h.versions);
        Set<NodeId> recipients = new LinkedHashSet<>();
        for (NodeId n : electorate.voters()) if (h.versions.containsKey(n)) recipients.add(n);
        ctx.mark(Mark.FAST_PATH);
        if (proposal.isEmpty()) ctx.mark(Mark.FAST_PATH_EMPTY_VALIDATION);
        for (CommitRound cr : commits) { // the predecessor travels with this proposal; the timer covers the rest
            if (cr.deferred && cr.decree.ballot().equals(h.predecessor.ballot())) cr.deferred = false;
        }
        round = r;
        startPropose(r, proposal, recipients);
    }

    /** §4.2: a fresh ballot, promise + read from every replica. */
    private void startPrepare(List<Pending> batch) {
        held = null; // a new epoch: the prepare supersedes our own held promise anyway
        promisedInMemory = null; // nothing is proposed with an older ballot any more
        sendDeferredCommits();
        Ballot ballot = ctx.ballots.next(Math.max(minMicros, witnessed.micros() + 1));
        Set<Bytes> queries = new LinkedHashSet<>();
        for (Pending p : batch) queries.add(p.request.query());
        if (inDoubt != null) // they may be found never applied and rejoin this round (§4.10)
            for (Pending p : inDoubt.requests()) queries.add(p.request.query());
        Round r = new Round(Phase.PREPARE, batch, false);
        r.prepare = new PrepareRound(ballot, new ArrayList<>(queries), electorate, !ownPromiseDurableNext);
        ownPromiseDurableNext = false;
        r.nextRetransmitNanos = ctx.clock.nanoTime() + ctx.retransmitNanos;
        round = r;
        ctx.mark(Mark.PREPARE);
        for (NodeId n : electorate.voters()) ctx.transport.send(n, prepare(n, r.prepare));
    }

    /** Our own replica may keep the promise in memory until its next write, which proposals wait for (§4.2.5). */
    private Prepare prepare(NodeId to, PrepareRound pr) {
        return new Prepare(key, pr.ballot, pr.queries, pr.ownPromiseInMemory && to.equals(ctx.self));
    }

    private void startPropose(Round r, Proposal proposal, Set<NodeId> recipients) {
        Ballot next = ctx.ballots.next(proposal.spanEndMicros() + 1);
        Ballot prune = pendingPrune;
        pendingPrune = null;
        r.propose = new ProposeRound(key, proposal, next, prune, recipients, electorate);
        r.nextRetransmitNanos = ctx.clock.nanoTime() + ctx.retransmitNanos;
        boolean promiseInMemory = proposal.ballot().equals(promisedInMemory);
        if (promiseInMemory && !recipients.contains(ctx.self))
            throw new IllegalStateException("proposal " + proposal + " leaves out our replica, whose promise is in memory");
        if (promiseInMemory || votesFirst(r, recipients)) r.propose.holdBackAllBut(ctx.self);
        for (NodeId n : recipients) if (!r.propose.heldBack(n)) ctx.transport.send(n, r.propose.proposeTo(n));
        if (prune != null)
            for (NodeId n : electorate.replicas()) if (!recipients.contains(n)) ctx.transport.send(n, new Prune(key, prune));
    }

    /**
     * §4.6.1: when our own replica's acceptance and one more make a quorum, and some request waits for a remote
     * replica to apply its update, our replica votes first; the others then accept and apply in one step, which saves
     * the commit round trip. Without such a request the round would only wait longer for the same decision.
     */
    private boolean votesFirst(Round r, Set<NodeId> recipients) {
        if (r.phase != Phase.PROPOSE || r.propose.proposal.isEmpty() || electorate.quorum() != 2
                || !electorate.isVoter(ctx.self) || !recipients.contains(ctx.self) || recipients.size() < 2) return false;
        for (Pending p : r.batch)
            if (r.evaluation.entryIndex.containsKey(p) && p.commitLevel.acks() > selfAck(p.commitLevel)) return true;
        return false;
    }

    /** Our replica answered the proposal (or a retransmission stopped waiting for it): send it to the others. */
    private void releaseHeldBack(ProposeRound pr) {
        for (NodeId n : pr.released()) {
            Propose propose = pr.proposeTo(n);
            if (propose.decides() == Propose.Decides.ON_ACCEPT) ctx.mark(Mark.DECIDED_ON_ACCEPT);
            ctx.transport.send(n, propose);
        }
    }

    // ---------------------------------------------------------------- phase 1

    private void onPromise(NodeId from, Promise promise) {
        Round r = round;
        if (r != null && r.prepare != null && r.prepare.ballot.equals(promise.ballot())) {
            // After the analysis, late promises are kept and joined when the held promise forms (§4.8).
            if (r.prepare.add(from, promise) && r.phase == Phase.PREPARE) onPrepareProgress();
            return;
        }
        if (held != null && held.mergeLate(from, promise)) ctx.mark(Mark.LATE_PROMISE_MERGED);
    }

    private void onPrepareProgress() {
        Round r = round;
        PrepareRound pr = r.prepare;
        if (pr.promised()) {
            if (!pr.awaitsNoLiveVoter(this::alive) && wantsMorePromises(pr)) {
                // Wait a little for the live replicas outside the quorum: they may settle what the quorum cannot.
                if (r.graceUntilNanos == 0) r.graceUntilNanos = ctx.clock.nanoTime() + ctx.recoveryGraceNanos;
                if (ctx.clock.nanoTime() < r.graceUntilNanos) return;
            }
            onPrepared();
        } else if (pr.blocked(this::alive)) {
            countRoundTrip(r, pr.rejections.keySet());
            held = null;
            round = null;
            // Refusals mean another ballot won. Without one, voters were lost since the round began: the next attempt
            // answers its requests UNAVAILABLE (an in-doubt proposal keeps trying), after the same back-off.
            retry(r.batch, !pr.rejections.isEmpty(), true);
        }
    }

    /**
     * More promises can prove our own in-doubt proposal's fate (§4.10), or prove a checked incomplete proposal
     * unchoosable instead of replaying it, which the same quorum might refuse again and again (§5.7).
     */
    private boolean wantsMorePromises(PrepareRound pr) {
        if (inDoubt != null) return true;
        PromiseAnalysis analysis = PromiseAnalysis.of(electorate, pr.promises, null);
        return analysis.replay() != null && analysis.replay().isChecked();
    }

    /** §4.3: decide what the promises require, then finish an incomplete proposal or evaluate the batch. */
    private void onPrepared() {
        Round r = round;
        PrepareRound pr = r.prepare;
        countRoundTrip(r, pr.promises.keySet());
        PromiseAnalysis analysis = PromiseAnalysis.of(electorate, pr.promises, inDoubt == null ? null : inDoubt.proposal());
        if (pr.ownPromiseInMemory && pr.promises.containsKey(ctx.self)) promisedInMemory = pr.ballot; // §4.2.5
        if (analysis.someStale()) ctx.mark(Mark.PREPARE_FOUND_STALE_COMMIT);
        if (!analysis.dead().isEmpty()) ctx.mark(Mark.PREPARE_SKIPPED_DEAD_PROPOSAL);
        r.states = mergeReads(pr);

        if (inDoubt != null) {
            InDoubt d = inDoubt;
            switch (analysis.inDoubtFate()) {
                case APPLIED -> {
                    ctx.mark(Mark.IN_DOUBT_RESOLVED_APPLIED);
                    inDoubt = null;
                    Decree decree = analysis.inDoubtDecree();
                    CommitRound cr = decree.isPruned() || decree.isEmpty() ? null : newCommitRound(decree);
                    for (Pending p : d.requests()) addWaiter(cr, p, d.seen().get(p));
                    sendCommit(cr, false);
                }
                case NOT_APPLIED -> {
                    ctx.mark(Mark.IN_DOUBT_RESOLVED_NOT_APPLIED);
                    inDoubt = null;
                    r.batch.addAll(0, d.requests());
                }
                case UNKNOWN -> {
                    ctx.mark(Mark.IN_DOUBT_UNRESOLVED);
                    inDoubt = null;
                    for (Pending p : d.requests()) unknown(p);
                }
                case NOT_APPLIED_ONCE_DECIDED -> r.decidingResolvesInDoubt = true;
                case REPLAYING, NONE -> { }
            }
        }
        if (analysis.replay() != null) {
            ctx.mark(Mark.PREPARE_FOUND_INCOMPLETE);
            Proposal incomplete = analysis.replay();
            Decree predecessor = incomplete.predecessor();
            if (analysis.latest().ballot().isAfter(predecessor.ballot())) predecessor = analysis.latest();
            r.phase = Phase.REPLAY;
            startPropose(r, incomplete.reproposedWith(pr.ballot, predecessor), new LinkedHashSet<>(electorate.voters()));
            return;
        }
        Decree predecessor = analysis.latest();
        if (r.decidingResolvesInDoubt) {
            // Decide an empty decree first; our in-doubt requests then run again in this round (§4.10).
            r.phase = Phase.REPLAY;
            startPropose(r, new Proposal(pr.ballot, pr.ballot, List.of(), predecessor, null),
                    new LinkedHashSet<>(electorate.voters()));
            return;
        }
        Map<Bytes, Bytes> readStates = r.states;
        if (r.batch.isEmpty()) { // a recovery-only round: keep the promise for the next requests
            held = Held.fromPrepare(ctx.model, pr.ballot, pr, () -> readStates, predecessor);
            round = null;
            startIfIdle();
            return;
        }
        try {
            r.evaluation = Evaluation.run(ctx.model, r.batch, r.states, pr.ballot);
        } catch (BallotTooEarly e) {
            round = null;
            catchUp(e, r.batch);
            return;
        }
        if (r.evaluation.entries.isEmpty()) {
            // §5.5: nothing to propose, and the reads are linearizable as they are; no empty proposal needed.
            ctx.mark(Mark.READ_ONLY_ROUND);
            if (r.batch.size() > 1) ctx.mark(Mark.BATCHED);
            Set<NodeId> applied = knownApplied(analysis.latest(), pr.promises);
            List<CommitRound.Waiter> waiting = new ArrayList<>();
            for (Pending p : r.batch) {
                Bytes seen = r.evaluation.seen.get(p);
                if (applied == null || p.commitLevel.metBy(applied)) p.answer(Outcome.NOT_APPLIED, seen);
                else waiting.add(new CommitRound.Waiter(p, seen, Outcome.NOT_APPLIED));
            }
            if (!waiting.isEmpty()) {
                ctx.mark(Mark.READ_ONLY_AWAITS_COMMIT);
                commitRoundOf(analysis.latest(), applied).waiters.addAll(waiting);
                sendCommitNow(analysis.latest().ballot());
            }
            held = Held.fromPrepare(ctx.model, pr.ballot, pr, () -> readStates, predecessor);
            round = null;
            contentionAttempts = 0;
            startIfIdle();
            return;
        }
        r.phase = Phase.PROPOSE;
        startPropose(r, new Proposal(pr.ballot, pr.ballot, r.evaluation.entries, predecessor, null),
                new LinkedHashSet<>(electorate.voters()));
    }

    /**
     * §4.4: the replicas known to have applied the latest decree, those whose promises show it and those its commit
     * round (if this session still sends it) heard from; null when it needs no applying: empty, or pruned (applied
     * everywhere, §4.7).
     */
    private Set<NodeId> knownApplied(Decree latest, Map<NodeId, Promise> promises) {
        if (latest.isEmpty() || latest.isPruned()) return null;
        Set<NodeId> applied = new LinkedHashSet<>();
        for (Map.Entry<NodeId, Promise> e : promises.entrySet()) {
            Decree committed = e.getValue().committed();
            if (!committed.ballot().equals(latest.ballot())) continue;
            if (committed.isPruned()) return null;
            applied.add(e.getKey());
        }
        CommitRound sending = commitRound(latest.ballot());
        if (sending != null) applied.addAll(sending.applied);
        return applied;
    }

    /** This session's commit round of the decree of {@code ballot}, if it still sends it. */
    private CommitRound commitRound(Ballot ballot) {
        for (CommitRound cr : commits) if (cr.decree.ballot().equals(ballot)) return cr;
        return null;
    }

    /**
     * The commit round of {@code decree}, new unless this session still sends it, with {@code applied} counted; those
     * it had not heard from cost no round trip of their own (their promises said so).
     */
    private CommitRound commitRoundOf(Decree decree, Set<NodeId> applied) {
        CommitRound cr = commitRound(decree.ballot());
        if (cr == null) cr = newCommitRound(decree);
        for (NodeId n : applied) {
            if (cr.electorate.isReplica(n) && cr.applied.add(n)) cr.appliedWithoutRoundTrip.add(n);
        }
        return cr;
    }

    /**
     * §5.6: the state was written after the ballot's timestamp (a client clock ahead of ours). Nothing was proposed:
     * run the batch again with a ballot after that write, so that what it decides is not shadowed by it.
     */
    private void catchUp(BallotTooEarly e, List<Pending> batch) {
        ctx.mark(Mark.BALLOT_TOO_EARLY);
        minMicros = Math.max(minMicros, e.newestMicros() + 1);
        requeueFront(batch);
        startIfIdle();
    }

    private Map<Bytes, Bytes> mergeReads(PrepareRound pr) {
        Map<Bytes, Bytes> states = new LinkedHashMap<>();
        for (int i = 0; i < pr.queries.size(); i++) {
            List<Bytes> results = new ArrayList<>(pr.promises.size());
            for (Promise p : pr.promises.values()) results.add(p.read().results().get(i));
            states.put(pr.queries.get(i), ctx.model.merge(pr.queries.get(i), results));
        }
        return states;
    }

    // ---------------------------------------------------------------- phase 2

    private void onRejected(NodeId from, Rejected rejected) {
        witnessed = Ballot.max(witnessed, rejected.promised());
        minMicros = Math.max(minMicros, rejected.minMicros());
        Round r = round;
        if (r == null) return;
        if (rejected.phase() == Rejected.Phase.PREPARE) {
            if (r.prepare != null && r.phase == Phase.PREPARE && r.prepare.add(from, rejected)) onPrepareProgress();
        } else if (r.propose != null && r.propose.add(from, rejected)) {
            if (from.equals(ctx.self)) withholdFromOthers(r.propose, Mark.OWN_REFUSAL_WITHHELD_PROPOSAL);
            if (r.propose.blocked(this::alive)) onProposeBlocked();
            else releaseHeldBack(r.propose);
        }
    }

    private void onAccepted(NodeId from, Accepted accepted) {
        acknowledgeCommit(accepted.appliedPredecessor(), from, false);
        if (accepted.applied()) acknowledgeCommit(accepted.ballot(), from, true); // after the decision (§4.6.1)
        if (from.equals(ctx.self) && accepted.ballot().equals(promisedInMemory)) promisedInMemory = null; // durable now
        Round r = round;
        if (r != null && r.propose != null && r.propose.add(from, accepted)) {
            if (r.propose.decided()) onDecided();
            else releaseHeldBack(r.propose);
        }
    }

    /** §4.5-§4.6: a quorum accepted. Answer what can be answered, hold the next promise, send the commit. */
    private void onDecided() {
        Round r = round;
        ProposeRound pr = r.propose;
        Proposal proposal = pr.proposal;
        countRoundTrip(r, pr.accepts.keySet());
        Decree decree = proposal.toDecree();
        // The sole replica applied (and pruned) the decree when it accepted: nothing to commit.
        CommitRound cr = proposal.isEmpty() || pr.sole() ? null : newCommitRound(decree);
        if (pr.sole() && !proposal.isEmpty()) ctx.mark(Mark.PRUNE);
        if (cr != null) cr.applyingOnAccept.addAll(pr.applyingWithoutRefusal());
        boolean holdNext = ctx.fastPathEnabled && pr.promisedNextByQuorum();
        round = null;
        contentionAttempts = 0;

        if (r.phase == Phase.REPLAY) {
            if (inDoubt != null && inDoubt.proposal().origin().equals(proposal.origin())) {
                ctx.mark(Mark.IN_DOUBT_RESOLVED_APPLIED);
                InDoubt d = inDoubt;
                inDoubt = null;
                for (Pending p : d.requests()) addWaiter(cr, p, d.seen().get(p));
            } else if (inDoubt != null && r.decidingResolvesInDoubt) {
                ctx.mark(Mark.IN_DOUBT_RESOLVED_NOT_APPLIED);
                r.batch.addAll(0, inDoubt.requests());
                inDoubt = null;
            }
            acknowledgeAppliedOnAccept(pr, decree);
            Map<Bytes, Bytes> before = r.states;
            held = holdNext ? Held.fromPrepare(ctx.model, pr.promiseNext, r.prepare,
                    () -> Evaluation.applyEntries(ctx.model, before, proposal.entries(), proposal.ballot()), decree) : null;
            boolean continueFast = held != null && !r.batch.isEmpty() && inDoubt == null && held.covers(r.batch);
            sendCommit(cr, continueFast);
            if (continueFast) startFast(r.batch);
            else {
                requeueFront(r.batch);
                startIfIdle();
            }
            return;
        }

        Evaluation e = r.evaluation;
        if (r.batch.size() > 1) ctx.mark(Mark.BATCHED);
        for (Pending p : r.batch) {
            p.fastPath = r.fast;
            if (e.entryIndex.containsKey(p)) addWaiter(cr, p, e.seen.get(p));
            else p.answer(Outcome.NOT_APPLIED, e.seen.get(p));
        }
        if (!holdNext) held = null;
        else if (r.fast) held = held.next(pr.promiseNext, e.finalStates, decree, pr.rejectedFor(Rejected.Reason.STALE));
        else held = Held.fromPrepare(ctx.model, pr.promiseNext, r.prepare, e.finalStates, decree);
        acknowledgeAppliedOnAccept(pr, decree);
        sendCommit(cr, held != null && !queue.isEmpty());
        startIfIdle();
    }

    /**
     * Our replica refused, or has not voted within a retransmission interval on, a proposal of a ballot it may hold
     * only in memory (§4.2.5): the held-back replicas never get it, and the next prepare asks our replica for a durable
     * promise, so that the round does not hinge on its vote again. False if there was nothing to withhold.
     */
    private boolean withholdFromOthers(ProposeRound pr, Mark why) {
        if (!pr.proposal.ballot().equals(promisedInMemory) || !pr.withdrawHeldBack()) return false;
        ctx.mark(why);
        ownPromiseDurableNext = true;
        return true;
    }

    /**
     * Acceptances that also applied the decree (§4.6.1) arrived before its commit round existed: count them now. A
     * replay held back for our replica's vote (§4.2.5) is applied on acceptance too.
     */
    private void acknowledgeAppliedOnAccept(ProposeRound pr, Decree decree) {
        pr.accepts.forEach((node, accepted) -> {
            if (accepted.applied()) acknowledgeCommit(decree.ballot(), node, true);
        });
    }

    /** A quorum of acceptances became impossible: retry, or keep the proposal in doubt (§4.9, §4.10). */
    private void onProposeBlocked() {
        Round r = round;
        ProposeRound pr = r.propose;
        Proposal proposal = pr.proposal;
        Set<NodeId> stale = pr.rejectedFor(Rejected.Reason.STALE);
        boolean contended = !pr.rejectedFor(Rejected.Reason.SUPERSEDED).isEmpty();
        countRoundTrip(r, pr.rejections.keySet());
        if (r.fast && !pr.rejections.isEmpty()) ctx.mark(stale.isEmpty() ? Mark.FAST_PATH_SUPERSEDED : Mark.FAST_PATH_STALE);
        held = null;
        round = null;
        sendCommitNow(proposal.predecessor().ballot()); // the refusers did not apply the predecessor it carried
        if (r.phase == Phase.REPLAY) {
            // Refused by part of the electorate while a voter it needs is down (a checked replay refused as stale, §5.7):
            // the same replicas would refuse the next replay at once, so it waits a back-off as if contended.
            boolean needsDownVoter = pr.silent().stream().anyMatch(n -> !alive(n));
            if (needsDownVoter && !contended) ctx.mark(Mark.REPLAY_AWAITS_DOWN_VOTER);
            retry(r.batch, contended, contended || needsDownVoter);
            return;
        }
        boolean reachedNoAcceptor = pr.accepts.isEmpty() && pr.silent().isEmpty();
        if (reachedNoAcceptor || proposal.isEmpty() || provablyUnchoosable(proposal, stale)) {
            ctx.mark(Mark.RETRY_WITHOUT_SIDE_EFFECTS);
            retry(r.batch, contended);
            return;
        }
        ctx.mark(Mark.PROPOSAL_IN_DOUBT);
        if (inDoubt != null) throw new IllegalStateException("two proposals in doubt on " + key + ": " + inDoubt + " and " + proposal);
        List<Pending> proposed = new ArrayList<>();
        List<Pending> rest = new ArrayList<>();
        for (Pending p : r.batch) (r.evaluation.entryIndex.containsKey(p) ? proposed : rest).add(p);
        inDoubt = new InDoubt(proposal, proposed, r.evaluation.seen);
        for (Pending p : proposed) if (contended) p.contentions++;
        retry(rest, contended);
    }

    /** Our own checked proposal: enough replicas refused it as stale, or can never accept it (§5.7). */
    private boolean provablyUnchoosable(Proposal proposal, Set<NodeId> stale) {
        if (!proposal.isChecked()) return false;
        int excluded = stale.size();
        for (NodeId n : electorate.voters()) if (!proposal.expectedVersions().containsKey(n)) excluded++;
        return excluded >= electorate.blocking();
    }

    private void retry(List<Pending> batch, boolean contended) {
        retry(batch, contended, contended);
    }

    /** Runs the batch again: at once, or after a back-off; {@code contended} counts it as lost to another ballot. */
    private void retry(List<Pending> batch, boolean contended, boolean backOff) {
        requeueFront(batch);
        if (contended) {
            ctx.mark(Mark.CONTENTION);
            for (Pending p : batch) p.contentions++;
        }
        if (backOff) {
            backingOff = true;
            backoffUntilNanos = ctx.clock.nanoTime() + ctx.backoff.delayNanos(contentionAttempts++);
        } else {
            startIfIdle();
        }
    }

    private void requeueFront(List<Pending> batch) {
        for (int i = batch.size() - 1; i >= 0; i--) {
            batch.get(i).waits();
            queue.addFirst(batch.get(i));
        }
    }

    private void abandonRound() {
        round = null;
        held = null;
        sendDeferredCommits();
    }

    // ---------------------------------------------------------------- commit and prune

    private CommitRound newCommitRound(Decree decree) {
        long now = ctx.clock.nanoTime();
        CommitRound cr = new CommitRound(decree, electorate, now + ctx.retransmitNanos, now + ctx.commitRetryNanos);
        commits.add(cr);
        return cr;
    }

    private void addWaiter(CommitRound cr, Pending p, Bytes seen) {
        if (cr == null || p.commitLevel.acks() == 0) {
            p.answer(Outcome.APPLIED, seen); // ANY, nothing to apply, or applied by the sole replica: decided is enough
            return;
        }
        cr.waiters.add(new CommitRound.Waiter(p, seen, Outcome.APPLIED));
    }

    /**
     * §4.6: the local replica always gets the commit at once; the others (learners too) get it now unless the next
     * fast round will carry it as predecessor and no waiter needs their acknowledgement.
     */
    private void sendCommit(CommitRound cr, boolean piggyback) {
        if (cr == null) return;
        Commit commit = new Commit(key, cr.decree);
        boolean selfReplica = electorate.isReplica(ctx.self);
        if (selfReplica) ctx.transport.send(ctx.self, commit);
        boolean remoteNeeded = false;
        for (CommitRound.Waiter w : cr.waiters) if (w.pending().commitLevel.acks() > selfAck(w.pending().commitLevel)) remoteNeeded = true;
        boolean deferred = piggyback && !remoteNeeded && held != null;
        cr.deferred = deferred;
        if (deferred) ctx.mark(Mark.COMMIT_PIGGYBACKED);
        for (NodeId n : electorate.replicas()) {
            if (n.equals(ctx.self) || cr.applied.contains(n) || cr.applyingOnAccept.contains(n)) continue;
            if (deferred && held.versions.containsKey(n)) continue; // will travel on the next proposal
            ctx.transport.send(n, commit);
        }
        cr.nextSendNanos = ctx.clock.nanoTime() + ctx.retransmitNanos;
    }

    private void sendCommitNow(Ballot ballot) {
        CommitRound cr = commitRound(ballot);
        if (cr == null) return;
        cr.deferred = false;
        for (NodeId n : cr.unapplied()) ctx.transport.send(n, new Commit(key, cr.decree));
        cr.nextSendNanos = ctx.clock.nanoTime() + ctx.retransmitNanos;
    }

    /** The next round is not the fast one a deferred commit was waiting for: send it now. */
    private void sendDeferredCommits() {
        for (CommitRound cr : commits) {
            if (!cr.deferred) continue;
            cr.deferred = false;
            for (NodeId n : cr.unapplied()) // our own replica had it at the decision
                if (!n.equals(ctx.self)) ctx.transport.send(n, new Commit(key, cr.decree));
            cr.nextSendNanos = ctx.clock.nanoTime() + ctx.retransmitNanos;
        }
    }

    /** {@code onAccept}: {@code from} applied the decree as it accepted it, in the round trip that decided it. */
    private void acknowledgeCommit(Ballot ballot, NodeId from, boolean onAccept) {
        if (ballot == null || ballot.isZero()) return;
        for (Iterator<CommitRound> it = commits.iterator(); it.hasNext(); ) {
            CommitRound cr = it.next();
            if (!cr.decree.ballot().equals(ballot)) continue;
            if (!cr.electorate.isReplica(from) || !cr.applied.add(from)) return;
            if (onAccept) cr.appliedWithoutRoundTrip.add(from);
            answerSatisfiedWaiters(cr);
            if (cr.appliedEverywhere()) {
                it.remove();
                // The prune rides on the next proposal, or goes on its own when the session is forgotten (§4.7).
                ctx.mark(Mark.PRUNE);
                if (pendingPrune == null || ballot.isAfter(pendingPrune)) pendingPrune = ballot;
            }
            return;
        }
    }

    private void answerSatisfiedWaiters(CommitRound cr) {
        for (Iterator<CommitRound.Waiter> it = cr.waiters.iterator(); it.hasNext(); ) {
            CommitRound.Waiter w = it.next();
            if (w.pending().answered()) {
                it.remove();
            } else if (w.pending().commitLevel.metBy(cr.applied)) {
                // Acknowledgements that took no round trip of their own: our replica's, and those of the deciding accept.
                CommitLevel level = w.pending().commitLevel;
                int free = level.countedIn(cr.appliedWithoutRoundTrip)
                        + (cr.applied.contains(ctx.self) && !cr.appliedWithoutRoundTrip.contains(ctx.self) ? selfAck(level) : 0);
                if (level.acks() > free) w.pending().roundTrips++;
                w.pending().answer(w.outcome(), w.seen());
                it.remove();
            }
        }
    }

    /**
     * Sends the pending prune on its own: the session is being forgotten, so no later proposal of this coordinator
     * will carry it (docs/paxos.md §4.7). Off the requests' path: they were answered long before.
     */
    void flushPrune() {
        if (pendingPrune == null) return;
        Prune prune = new Prune(key, pendingPrune);
        pendingPrune = null;
        for (NodeId n : electorate.replicas()) ctx.transport.send(n, prune);
    }

    /** 1 if this node's own replica counts towards {@code level}: its acknowledgement needs no round trip. */
    private int selfAck(CommitLevel level) {
        return level.counted().contains(ctx.self) ? 1 : 0;
    }

    // ---------------------------------------------------------------- time

    private void expireDeadlines(long now) {
        for (Iterator<Pending> it = queue.iterator(); it.hasNext(); ) {
            Pending p = it.next();
            if (p.expired(now)) {
                it.remove();
                timedOut(p);
            }
        }
        Round r = round;
        if (r != null) {
            for (Iterator<Pending> it = r.batch.iterator(); it.hasNext(); ) {
                Pending p = it.next();
                if (!p.expired(now)) continue;
                it.remove();
                boolean proposed = r.phase == Phase.PROPOSE && r.propose != null && r.evaluation != null
                        && r.evaluation.entryIndex.containsKey(p);
                if (proposed) unknown(p);
                else timedOut(p);
            }
        }
        if (inDoubt != null) {
            inDoubt.requests().removeIf(p -> {
                if (!p.expired(now)) return false;
                unknown(p);
                return true;
            });
            if (inDoubt.requests().isEmpty()) inDoubt = null;
        }
        for (CommitRound cr : commits) {
            cr.waiters.removeIf(w -> {
                if (w.pending().answered()) return true;
                if (!w.pending().expired(now)) return false;
                if (w.outcome() == Outcome.APPLIED) {
                    ctx.mark(Mark.COMMIT_TIMEOUT);
                    w.pending().answer(Outcome.COMMIT_TIMEOUT, w.seen());
                } else {
                    timedOut(w.pending()); // it proposed nothing; what it read is not applied at its level (§4.4)
                }
                return true;
            });
        }
    }

    private void retransmit(Round r, long now) {
        ctx.mark(Mark.RETRANSMIT);
        r.nextRetransmitNanos = now + ctx.retransmitNanos;
        if (r.phase == Phase.PREPARE) {
            for (NodeId n : electorate.voters())
                if (!r.prepare.replied(n)) ctx.transport.send(n, prepare(n, r.prepare));
        } else {
            ProposeRound pr = r.propose;
            if (withholdFromOthers(pr, Mark.OWN_VOTE_OVERDUE)) {
                onProposeBlocked(); // our replica may still accept it: in doubt
                return;
            }
            for (NodeId n : pr.silent()) ctx.transport.send(n, pr.proposeTo(n)); // held-back ones too: our vote is overdue
        }
    }

    private void answerUnavailable(Pending p) {
        ctx.mark(Mark.UNAVAILABLE);
        p.answer(Outcome.UNAVAILABLE, null);
    }

    private void timedOut(Pending p) {
        ctx.mark(Mark.TIMED_OUT);
        p.answer(Outcome.TIMED_OUT, null);
    }

    private void unknown(Pending p) {
        ctx.mark(Mark.UNKNOWN);
        p.answer(Outcome.UNKNOWN, null);
    }

    private void countRoundTrip(Round r, Collection<NodeId> repliers) {
        boolean remote = false;
        for (NodeId n : repliers) if (!n.equals(ctx.self)) remote = true;
        if (!remote) return;
        for (Pending p : r.batch) p.roundTrips++;
        if (inDoubt != null) for (Pending p : inDoubt.requests()) p.roundTrips++;
    }
}
