package ballot.txn.coordinator;

import ballot.txn.Attempt;
import ballot.txn.Decision;
import ballot.txn.Mark;
import ballot.txn.PartitionKey;
import ballot.txn.Record;
import ballot.txn.step.Fence;
import ballot.txn.step.Finalize;
import ballot.txn.step.ReadRecord;
import ballot.txn.step.Reply;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Decides an attempt met as an intent (docs/txn.md §6): through its record if that is decided; otherwise, once the
 * attempt's deadline has passed on this coordinator's clock, by fencing its participants: all present means it was
 * implicitly committed, one absent means it can be aborted (§8 I2). Either way the record's CAS has the last word,
 * and a record this recovery finalized gets its intents resolved. {@code done} hears the decision, or nothing if the
 * attempt is still live (or recovery gave up). Safety never depends on the deadline (§7): the coordinator that gives
 * up on its own transaction recovers it at once ({@link #ofOwn}), so that its locks do not outlive its client.
 */
final class Recovery<V> {
    private final Context<V> ctx;
    private final Attempt attempt;
    private final PartitionKey home;
    private final long deadlineMicros;
    private final boolean waitForDeadline;
    /** Where the attempt's intents are, if known without its record (its own coordinator knows). */
    private final List<PartitionKey> knownParticipants;
    private final Consumer<Optional<Decision>> done;
    private final long untilNanos;
    private boolean finished;
    private boolean finalizing;
    private int present;

    Recovery(Context<V> ctx, Attempt attempt, PartitionKey home, long deadlineMicros, Consumer<Optional<Decision>> done) {
        this(ctx, attempt, home, deadlineMicros, true, List.of(), done);
    }

    private Recovery(Context<V> ctx, Attempt attempt, PartitionKey home, long deadlineMicros, boolean waitForDeadline,
            List<PartitionKey> knownParticipants, Consumer<Optional<Decision>> done) {
        this.ctx = ctx;
        this.attempt = attempt;
        this.home = home;
        this.deadlineMicros = deadlineMicros;
        this.waitForDeadline = waitForDeadline;
        this.knownParticipants = List.copyOf(knownParticipants);
        this.done = done;
        this.untilNanos = ctx.backgroundDeadline();
    }

    /** Recovery of a transaction by its own coordinator, which gave up on it: no waiting for the deadline. */
    static <V> Recovery<V> ofOwn(Context<V> ctx, Attempt attempt, PartitionKey home, long deadlineMicros,
            List<PartitionKey> participants) {
        return new Recovery<>(ctx, attempt, home, deadlineMicros, false, participants, decision -> { });
    }

    void start() {
        ctx.send(home, new ReadRecord<>(attempt.id()), untilNanos, r -> onRecord(((Reply.RecordSeen) r).record()), this::giveUp);
    }

    private void onRecord(Record record) {
        Optional<Decision> decision = record == null ? Optional.empty() : record.decide(attempt.epoch());
        if (decision.isPresent() || (waitForDeadline && ctx.clock.wallMicros() <= deadlineMicros)) {
            // Already decided: the coordinator giving up on its own attempt still releases whatever it may hold.
            decision.filter(d -> !knownParticipants.isEmpty()).ifPresent(d -> Finish.resolve(ctx, d, knownParticipants));
            finish(decision);
            return;
        }
        ctx.observer.mark(Mark.RECOVERY);
        if (record == null) {
            finalizeAs(false); // also refuses the Stage still in flight (§3.5)
        } else if (record.status() == Record.Status.STAGING && record.epoch() == attempt.epoch()) {
            for (PartitionKey key : record.participants())
                ctx.send(key, new Fence<>(attempt, record.deadlineMicros()), untilNanos,
                        r -> onPresence(((Reply.Presence) r).present(), record.participants().size()), this::giveUp);
        } else {
            finish(Optional.empty());
        }
    }

    private void onPresence(boolean isPresent, int participants) {
        if (finalizing || finished) return;
        if (!isPresent) finalizeAs(false);
        else if (++present == participants) finalizeAs(true);
    }

    private void finalizeAs(boolean commit) {
        finalizing = true;
        ctx.send(home, commit ? Finalize.<V>commit(attempt) : Finalize.<V>abort(attempt, null, deadlineMicros, knownParticipants), untilNanos, r -> {
            Record record = ((Reply.RecordSeen) r).record();
            Optional<Decision> decision = record == null ? Optional.empty() : record.decide(attempt.epoch());
            decision.ifPresent(d -> {
                ctx.observer.mark(d.committed() ? Mark.RECOVERY_COMMITTED : Mark.RECOVERY_ABORTED);
                List<PartitionKey> participants = record.participants().isEmpty() ? knownParticipants : record.participants();
                if (!participants.isEmpty()) Finish.resolve(ctx, d, participants);
            });
            finish(decision);
        }, this::giveUp);
    }

    private void giveUp() {
        finish(Optional.empty());
    }

    private void finish(Optional<Decision> decision) {
        if (finished) return;
        finished = true;
        done.accept(decision);
    }
}
