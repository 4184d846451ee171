package ballot.txn.coordinator;

import ballot.txn.Attempt;
import ballot.txn.Decision;
import ballot.txn.Intent;
import ballot.txn.Mark;
import ballot.txn.Participant;
import ballot.txn.PartitionKey;
import ballot.txn.Record;
import ballot.txn.Transaction;
import ballot.txn.TxnResult;
import ballot.txn.step.Finalize;
import ballot.txn.step.OnePhase;
import ballot.txn.step.Place;
import ballot.txn.step.ReadRecord;
import ballot.txn.step.Reply;
import ballot.txn.step.Reply.Placement;
import ballot.txn.step.Reply.Placement.Outcome;
import ballot.txn.step.Restart;
import ballot.txn.step.Stage;
import ballot.txn.step.Step;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One submitted transaction, from submission to the client's answer (docs/txn.md §4). Epoch 0 stages the record and
 * places every intent in one round; the answer is {@code COMMITTED} once every placement and the record agree (§8 C1),
 * or what the record says. Dead epochs restart with the same age (§5). After the answer, {@link Finish} takes over.
 *
 * <p>Replies are tagged with the generation they were sent in; a restart, join or abort starts a new generation, so
 * late replies about an epoch this run has left are ignored (their effects are covered by the epoch rules, §3.3),
 * except a placement of a released epoch that landed late: its intent is released too (§4.5).
 */
final class Run<V> {
    private final Context<V> ctx;
    private final Transaction<V> txn;
    private final Consumer<TxnResult<V>> answer;
    private final long timeoutAtNanos;
    private int epoch;
    private long deadlineMicros;
    private int generation;
    private boolean staged;
    /** The placed participants of the current epoch and the committed value each read. */
    private final Map<PartitionKey, V> reads = new LinkedHashMap<>();
    /** The value the current epoch's refused operation read, and where (null: none refused). */
    private Map.Entry<PartitionKey, V> refusal;
    /** Participants where the current epoch holds no intent and never will (it died, was refused, fenced or expired). */
    private final Set<PartitionKey> absent = new HashSet<>();
    /** This transaction's dead attempts whose intents were released, on a fence's proof or the record's word (§4.5). */
    private final Set<Attempt> released = new HashSet<>();
    /** Decisions about blocking intents, carried by later placements (§5). */
    private final Map<Attempt, Decision> decisions = new LinkedHashMap<>();
    /** Restarts so far: each backs off longer. */
    private int restarts;
    private boolean answered;
    /** Answered and handed to {@link Finish}, or abandoned at the timeout: sends nothing more. */
    private boolean over;

    Run(Context<V> ctx, Transaction<V> txn, long timeoutAtNanos, Consumer<TxnResult<V>> answer) {
        this.ctx = ctx;
        this.txn = txn;
        this.timeoutAtNanos = timeoutAtNanos;
        this.answer = answer;
        this.deadlineMicros = txn.deadlineMicros();
    }

    void start() {
        if (txn.onePhase()) onePhase();
        else placeEpoch(true);
    }

    boolean over() {
        return over;
    }

    /**
     * At the client's deadline an undecided transaction is answered UNKNOWN (§4.8) and recovered at once by this
     * coordinator, which commits it if every intent is in place and aborts it otherwise, so that its locks do not wait
     * for its deadline (§6.2). A 1PC transaction holds no locks.
     */
    void tick(long nowNanos) {
        if (over || nowNanos < timeoutAtNanos) return;
        ctx.observer.mark(Mark.TIMED_OUT);
        respond(TxnResult.unknown());
        over = true;
        if (!txn.onePhase()) Recovery.ofOwn(ctx, attempt(), txn.home(), deadlineMicros, txn.keys()).start();
    }

    private Attempt attempt() {
        return new Attempt(txn.id(), epoch);
    }

    private void placeEpoch(boolean stage) {
        generation++;
        staged = !stage;
        reads.clear();
        absent.clear();
        refusal = null;
        if (stage) {
            Record record = Record.staging(txn.id(), 0, txn.ageMicros(), deadlineMicros, txn.keys());
            send(txn.home(), new Stage<>(record), r -> onStaged(((Reply.RecordSeen) r).record()));
        }
        for (Participant<V> p : txn.participants()) place(p);
    }

    /**
     * A placement whose reply comes after its epoch was released (it landed late) is released too, so that no intent
     * of a dead epoch outlives this run's knowledge of it.
     */
    private void place(Participant<V> p) {
        Attempt placing = attempt();
        Place<V> step = new Place<>(placing, txn.home(), txn.ageMicros(), deadlineMicros, p.operation(),
                List.copyOf(decisions.values()), ctx.options.reservationMicros());
        int gen = generation;
        ctx.send(p.key(), step, timeoutAtNanos, reply -> {
            Placement<V> placement = cast(reply);
            if (gen == generation && !over) onPlacement(p, placement);
            else if (placement.outcome() == Outcome.PLACED && released.contains(placing)) {
                ctx.observer.mark(Mark.LATE_PLACEMENT_RELEASED);
                Finish.resolve(ctx, new Decision(placing, false), List.of(p.key()));
            }
        }, () -> { });
    }

    private void onStaged(Record record) {
        if (record != null) {
            followRecord(record);
            return;
        }
        ctx.observer.mark(Mark.EXPIRED); // epoch 0 can never stage now (§3.1)
        restartFrom(epoch, false);
    }

    private void onPlacement(Participant<V> p, Placement<V> placement) {
        switch (placement.outcome()) {
            case PLACED -> {
                reads.put(p.key(), placement.seen());
                commitIfComplete();
            }
            case REFUSED -> {
                ctx.observer.mark(Mark.REFUSED);
                absent.add(p.key());
                refusal = new java.util.AbstractMap.SimpleImmutableEntry<>(p.key(), placement.seen());
                abort(placement.reason());
            }
            case FENCED -> {
                absent.add(p.key());
                if (placement.reason() != null) abort(placement.reason());
                else died(null);
            }
            case DIED -> {
                ctx.observer.mark(placement.blocker() == null ? Mark.DIED_AT_RESERVATION : Mark.DIED);
                absent.add(p.key());
                died(placement.blocker());
            }
            case EXPIRED -> {
                ctx.observer.mark(Mark.EXPIRED);
                absent.add(p.key());
                restartFrom(epoch, false);
            }
            case APPLIED -> {
                ctx.observer.mark(Mark.ALREADY_APPLIED);
                readOwnRecord();
            }
            case SUPERSEDED -> readOwnRecord();
            case WAIT -> {
                ctx.observer.mark(Mark.WAITED);
                await(placement.blocker(), () -> place(p));
            }
            case DECIDED -> throw new IllegalStateException("a placement answered " + placement);
        }
    }

    /** Every intent placed and the record staging for this epoch: committed (§8 C1); answer, then finish. */
    private void commitIfComplete() {
        if (!staged || reads.size() < txn.participants().size()) return;
        ctx.observer.mark(Mark.PARALLEL_COMMIT);
        respond(TxnResult.committed(reads));
        over = true;
        Finish.commit(ctx, attempt(), txn.home(), txn.keys());
    }

    /** A refusal fenced this epoch with a final reason: record it; whatever the record then says is the answer. */
    private void abort(String reason) {
        generation++;
        send(txn.home(), Finalize.abort(attempt(), reason, deadlineMicros, txn.keys()), r -> followRecord(((Reply.RecordSeen) r).record()));
    }

    /**
     * A participant answered {@code DIED} or {@code FENCED}: it holds no intent of this epoch and never will, so the
     * epoch can never commit (§8 I3), and its intents are released at once, before the record says so. The restart
     * waits, holding nothing, until the older transaction it died against ({@code killer}, if any) is decided, or
     * for a back-off; then the next epoch gets its whole lifetime (§5.2).
     */
    private void died(Intent<V> killer) {
        generation++;
        Attempt dead = attempt();
        released.add(dead);
        Finish.resolve(ctx, new Decision(dead, false), holding());
        reads.clear();
        int gen = generation;
        Runnable restart = () -> {
            if (gen == generation && !over) restartFrom(dead.epoch(), true);
        };
        if (killer != null) afterDecided(killer, restart);
        else ctx.after(ctx.backoff(restarts++), restart);
    }

    /** The participants where the current epoch may hold an intent (placements still in flight included). */
    private List<PartitionKey> holding() {
        return txn.keys().stream().filter(k -> !absent.contains(k)).toList();
    }

    /**
     * Moves the record past epoch {@code from} (§3.2), which the sender knows can never commit: a participant fenced
     * it ({@link #died}, {@code waited}: the next epoch is placed at once), or an expiry or the record says so. An
     * expiry alone does not prove the epoch dead (a committed epoch's released intent answers the same), so its intents
     * are released only on the record's decision (§8 I3), at once, so that nobody dies or waits behind a dead lock;
     * the next epoch is placed after a back-off.
     */
    private void restartFrom(int from, boolean waited) {
        generation++;
        ctx.observer.mark(Mark.RESTARTED);
        Attempt held = attempt();
        List<PartitionKey> holding = holding();
        reads.clear();
        long deadline = Math.max(ctx.clock.wallMicros() + ctx.options.epochLifetimeMicros(), deadlineMicros);
        send(txn.home(), new Restart<>(txn.id(), from, txn.ageMicros(), deadline, txn.keys()), r -> {
            Record record = ((Reply.RecordSeen) r).record();
            record.decide(held.epoch()).filter(d -> !d.committed() && released.add(held))
                    .ifPresent(d -> Finish.resolve(ctx, d, holding));
            if (record.status() != Record.Status.STAGING || record.epoch() != from + 1) {
                followRecord(record);
                return;
            }
            if (waited) {
                adopt(record);
                return;
            }
            int gen = generation;
            ctx.after(ctx.backoff(restarts++), () -> {
                if (gen == generation && !over) adopt(record);
            });
        });
    }

    /**
     * Waits, holding no lock, until {@code killer} is decided, then runs {@code next}: placing earlier would only die
     * against it again (§5.2). Holding nothing, the waiting transaction is no edge of a wait-for cycle.
     */
    private void afterDecided(Intent<V> killer, Runnable next) {
        onFate(killer, next, () -> afterDecided(killer, next));
    }

    private void readOwnRecord() {
        generation++;
        send(txn.home(), new ReadRecord<>(txn.id()), r -> {
            Record record = ((Reply.RecordSeen) r).record();
            if (record != null) followRecord(record);
            else ctx.after(ctx.backoff(0), this::readOwnRecord);
        });
    }

    /** The record is the arbiter (§4.6): answer a final one, restart a retryable one, join a later staging epoch. */
    private void followRecord(Record record) {
        if (record.epoch() < epoch) return;
        switch (record.status()) {
            case COMMITTED -> {
                boolean placedIt = record.epoch() == epoch && reads.size() == txn.participants().size();
                respond(TxnResult.committed(placedIt ? reads : Map.of()));
                finish(new Decision(record.attempt(), true));
            }
            case ABORTED -> {
                if (record.retryable()) {
                    restartFrom(record.epoch(), false);
                } else {
                    respond(TxnResult.aborted(record.reason(), record.epoch() == epoch ? seenBeforeRefusal() : Map.of()));
                    finish(new Decision(record.attempt(), false));
                }
            }
            case STAGING -> {
                if (record.epoch() > epoch) {
                    ctx.observer.mark(Mark.JOINED);
                    adopt(record);
                } else {
                    staged = true;
                    commitIfComplete();
                }
            }
        }
    }

    /** Runs the record's staging epoch, with the deadline the record holds for it (§3.2). */
    private void adopt(Record staging) {
        epoch = staging.epoch();
        deadlineMicros = staging.deadlineMicros();
        if (txn.onePhase()) onePhase();
        else placeEpoch(false);
    }

    private void finish(Decision decision) {
        over = true;
        if (!txn.onePhase()) Finish.resolve(ctx, decision, txn.keys()); // a 1PC wrote its value with its record
    }

    private void onePhase() {
        Participant<V> p = txn.participants().get(0);
        OnePhase<V> step = new OnePhase<>(attempt(), txn.ageMicros(), deadlineMicros, p.operation(),
                List.copyOf(decisions.values()), txn.keys(), ctx.options.reservationMicros());
        send(txn.home(), step, r -> {
            if (r instanceof Reply.RecordSeen seen) {
                followRecord(seen.record());
                return;
            }
            Placement<V> placement = cast(r);
            switch (placement.outcome()) {
                case DECIDED -> {
                    ctx.observer.mark(Mark.ONE_PHASE);
                    Record record = placement.record();
                    Map<PartitionKey, V> read = new LinkedHashMap<>();
                    read.put(p.key(), placement.seen());
                    respond(record.status() == Record.Status.COMMITTED ? TxnResult.committed(read)
                            : TxnResult.aborted(record.reason(), read));
                    over = true;
                }
                case EXPIRED -> {
                    ctx.observer.mark(Mark.EXPIRED);
                    restartFrom(epoch, false);
                }
                case WAIT -> {
                    ctx.observer.mark(Mark.WAITED);
                    await(placement.blocker(), this::onePhase);
                }
                default -> throw new IllegalStateException("a one-phase step answered " + placement);
            }
        });
    }

    /**
     * A younger transaction's intent blocks a placement (§5): learn its fate from its record (or recover it once its
     * deadline has passed), then place again carrying the decision; if it is still live, back off and place again
     * (which renews the reservation and notices a release the record does not show yet, §4.5).
     */
    private void await(Intent<V> blocker, Runnable placeAgain) {
        onFate(blocker, placeAgain, placeAgain);
    }

    /**
     * Runs {@code decided} once {@code blocker}'s attempt is known to be decided, or {@code live} after a short back-off
     * if it is not yet; nothing if this run has moved on meanwhile. Polling: a live blocker is about to finish, so the
     * wait is about one round, not longer each time.
     */
    private void onFate(Intent<V> blocker, Runnable decided, Runnable live) {
        if (decisions.containsKey(blocker.attempt())) {
            decided.run();
            return;
        }
        int gen = generation;
        learnFate(blocker, decision -> {
            if (gen != generation || over) return;
            if (decision.isPresent()) decided.run();
            else ctx.after(ctx.backoff(1), () -> {
                if (gen == generation && !over) live.run();
            });
        });
    }

    /**
     * Learns the fate of another transaction's intent from its record, or by recovering it once its deadline has
     * passed on this clock (§6); a decision is kept for the placements that follow, which resolve the intent (§5).
     */
    private void learnFate(Intent<V> blocker, Consumer<Optional<Decision>> then) {
        Attempt blocking = blocker.attempt();
        Consumer<Optional<Decision>> learned = decision -> {
            decision.ifPresent(d -> {
                if (decisions.putIfAbsent(blocking, d) == null) ctx.observer.mark(Mark.RESOLVED_ON_PLACEMENT);
            });
            then.accept(decision);
        };
        if (ctx.clock.wallMicros() > blocker.deadlineMicros()) {
            new Recovery<>(ctx, blocking, blocker.home(), blocker.deadlineMicros(), learned).start();
        } else {
            ctx.send(blocker.home(), new ReadRecord<>(blocking.id()), timeoutAtNanos, r -> {
                Record record = ((Reply.RecordSeen) r).record();
                learned.accept(record == null ? Optional.empty() : record.decide(blocking.epoch()));
            }, () -> then.accept(Optional.empty()));
        }
    }

    /** What this epoch's placements read before the refusal, and what the refused operation read (TxnResult). */
    private Map<PartitionKey, V> seenBeforeRefusal() {
        Map<PartitionKey, V> seen = new LinkedHashMap<>(reads);
        if (refusal != null) seen.put(refusal.getKey(), refusal.getValue());
        return seen;
    }

    /** Answers once. */
    private void respond(TxnResult<V> result) {
        if (answered) return;
        answered = true;
        answer.accept(result);
    }

    /** Sends a step of the current generation; its reply is dropped if the run has moved on or is over. */
    private void send(PartitionKey key, Step<V> step, Consumer<Reply> onReply) {
        int gen = generation;
        ctx.send(key, step, timeoutAtNanos, reply -> {
            if (gen == generation && !over) onReply.accept(reply);
        }, () -> { });
    }

    @SuppressWarnings("unchecked")
    private static <V> Placement<V> cast(Reply reply) {
        return (Placement<V>) reply;
    }
}
