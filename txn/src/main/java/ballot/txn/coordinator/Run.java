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
import ballot.txn.step.Restart;
import ballot.txn.step.Stage;
import ballot.txn.step.Step;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One submitted transaction, from submission to the client's answer (docs/txn.md §4). Epoch 0 stages the record and
 * places every intent in one round; the answer is {@code COMMITTED} once every placement and the record agree (§8 C1),
 * or what the record says. Dead epochs restart with the same age (§5). After the answer, {@link Finish} takes over.
 *
 * <p>Replies are tagged with the generation they were sent in; a restart, join or abort starts a new generation, so
 * late replies about an epoch this run has left are ignored (their effects are covered by the epoch rules, §3.3).
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
        if (!txn.onePhase()) Recovery.ofOwn(ctx, attempt(), txn.home(), txn.keys()).start();
    }

    private Attempt attempt() {
        return new Attempt(txn.id(), epoch);
    }

    private void placeEpoch(boolean stage) {
        generation++;
        staged = !stage;
        reads.clear();
        if (stage) {
            Record record = Record.staging(txn.id(), 0, txn.ageMicros(), deadlineMicros, txn.keys());
            send(txn.home(), new Stage<>(record), r -> onStaged(((Reply.RecordSeen) r).record()));
        }
        for (Participant<V> p : txn.participants()) place(p);
    }

    private void place(Participant<V> p) {
        Place<V> step = new Place<>(attempt(), txn.home(), txn.ageMicros(), deadlineMicros, p.operation(),
                List.copyOf(decisions.values()));
        send(p.key(), step, r -> onPlacement(p, cast(r)));
    }

    private void onStaged(Record record) {
        if (record != null) {
            followRecord(record);
            return;
        }
        ctx.observer.mark(Mark.EXPIRED); // epoch 0 can never stage now (§3.1)
        restartFrom(epoch);
    }

    private void onPlacement(Participant<V> p, Placement<V> placement) {
        switch (placement.outcome()) {
            case PLACED -> {
                reads.put(p.key(), placement.seen());
                commitIfComplete();
            }
            case REFUSED -> {
                ctx.observer.mark(Mark.REFUSED);
                abort(placement.reason());
            }
            case FENCED -> {
                if (placement.reason() != null) abort(placement.reason());
                else restartFrom(epoch);
            }
            case DIED -> {
                ctx.observer.mark(Mark.DIED);
                restartFrom(epoch);
            }
            case EXPIRED -> {
                ctx.observer.mark(Mark.EXPIRED);
                restartFrom(epoch);
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
        send(txn.home(), new Finalize<>(attempt(), false, reason), r -> followRecord(((Reply.RecordSeen) r).record()));
    }

    /**
     * A reply said this epoch can never be placed everywhere (a fence, an expiry, a retryable record): move the record
     * past epoch {@code from} (§3.2). Such a reply alone does not prove the epoch dead (a committed epoch's released
     * intent answers the same), so this epoch's intents are released only on the record's decision (§8 I3): at once,
     * so that nobody dies or waits behind a dead lock. The next epoch is placed after a back-off.
     */
    private void restartFrom(int from) {
        generation++;
        ctx.observer.mark(Mark.RESTARTED);
        Attempt held = attempt();
        List<PartitionKey> placed = List.copyOf(reads.keySet());
        reads.clear();
        long deadline = Math.max(ctx.clock.wallMicros() + ctx.options.epochLifetimeMicros(), deadlineMicros);
        send(txn.home(), new Restart<>(txn.id(), from, txn.ageMicros(), deadline, txn.keys()), r -> {
            Record record = ((Reply.RecordSeen) r).record();
            record.decide(held.epoch()).filter(d -> !d.committed()).ifPresent(d -> Finish.resolve(ctx, d, placed));
            if (record.status() != Record.Status.STAGING || record.epoch() != from + 1) {
                followRecord(record);
                return;
            }
            int gen = generation;
            ctx.after(ctx.backoff(restarts++), () -> {
                if (gen == generation && !over) adopt(record);
            });
        });
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
                    restartFrom(record.epoch());
                } else {
                    respond(TxnResult.aborted(record.reason()));
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
        if (!txn.onePhase()) Finish.resolve(ctx, decision, txn.keys());
    }

    private void onePhase() {
        Participant<V> p = txn.participants().get(0);
        OnePhase<V> step = new OnePhase<>(attempt(), txn.ageMicros(), deadlineMicros, p.operation(),
                List.copyOf(decisions.values()), txn.keys());
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
                            : TxnResult.aborted(record.reason()));
                    over = true;
                }
                case EXPIRED -> {
                    ctx.observer.mark(Mark.EXPIRED);
                    restartFrom(epoch);
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
     * deadline has passed), then place again carrying the decision; if it is still live, back off and place again.
     */
    private void await(Intent<V> blocker, Runnable placeAgain) {
        Attempt blocking = blocker.attempt();
        if (decisions.containsKey(blocking)) {
            placeAgain.run();
            return;
        }
        int gen = generation;
        Consumer<Optional<Decision>> then = decision -> {
            if (gen != generation || over) return;
            if (decision.isPresent()) {
                ctx.observer.mark(Mark.RESOLVED_ON_PLACEMENT);
                decisions.put(blocking, decision.get());
                placeAgain.run();
            } else {
                // Polling: a live blocker is about to finish, so wait about one round, not longer each time.
                ctx.after(ctx.backoff(1), () -> {
                    if (gen == generation && !over) placeAgain.run();
                });
            }
        };
        if (ctx.clock.wallMicros() > blocker.deadlineMicros()) {
            new Recovery<>(ctx, blocking, blocker.home(), blocker.deadlineMicros(), then).start();
        } else {
            send(blocker.home(), new ReadRecord<>(blocking.id()), r -> {
                Record record = ((Reply.RecordSeen) r).record();
                then.accept(record == null ? Optional.empty() : record.decide(blocking.epoch()));
            });
        }
    }

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
