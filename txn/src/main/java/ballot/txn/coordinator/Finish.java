package ballot.txn.coordinator;

import ballot.txn.Attempt;
import ballot.txn.Decision;
import ballot.txn.Mark;
import ballot.txn.PartitionKey;
import ballot.txn.Record;
import ballot.txn.step.Finalize;
import ballot.txn.step.Reply;
import ballot.txn.step.Resolve;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The background half of a decided transaction (docs/txn.md §4.3): the record is made final first, then every
 * participant's intent is resolved, so that recovery, which only runs on staging records, never meets a released
 * intent of a committed attempt (§8 I3).
 */
final class Finish {
    private Finish() {}

    /**
     * After an implicit commit (§8 C1): {@code COMMITTED} in the record (which resolves the home's own intent), then
     * every other intent rolled forward. Once all of them are done the commit is settled: its participants are clear of
     * it for good (each answered its {@link Resolve}), so its record is dropped at the end of its retention window
     * without the sweep's {@code Forget}s (§2, §6.3).
     */
    static <V> void commit(Context<V> ctx, Attempt attempt, PartitionKey home, List<PartitionKey> participants) {
        long until = ctx.backgroundDeadline();
        ctx.send(home, Finalize.<V>commit(attempt), until, reply -> {
            Record record = ((Reply.RecordSeen) reply).record();
            Optional<Decision> decision = record == null ? Optional.empty() : record.decide(attempt.epoch());
            // C1: nothing may finalize an implicitly committed attempt otherwise; the simulation fails on this mark.
            if (decision.isEmpty() || !decision.get().committed()) {
                ctx.observer.mark(Mark.COMMIT_CONTRADICTED);
                return;
            }
            List<PartitionKey> others = participants.stream().filter(p -> !p.equals(home)).toList();
            resolve(ctx, decision.get(), others, settled -> {
                if (settled) Retire.whenDue(ctx, home, record);
            });
        }, () -> { });
    }

    /** Resolves {@code decision}'s intents on every participant (no-ops where there are none). */
    static <V> void resolve(Context<V> ctx, Decision decision, List<PartitionKey> participants) {
        resolve(ctx, decision, participants, resolved -> { });
    }

    /** As {@link #resolve(Context, Decision, List)}; {@code settled} hears whether every participant answered in time. */
    static <V> void resolve(Context<V> ctx, Decision decision, List<PartitionKey> participants, Consumer<Boolean> settled) {
        if (participants.isEmpty()) {
            settled.accept(true);
            return;
        }
        long until = ctx.backgroundDeadline();
        int[] waiting = {participants.size()};
        boolean[] over = {false};
        for (PartitionKey key : participants) {
            ctx.send(key, new Resolve<>(decision), until, reply -> {
                if (--waiting[0] == 0 && !over[0]) {
                    over[0] = true;
                    settled.accept(true);
                }
            }, () -> {
                if (!over[0]) {
                    over[0] = true;
                    settled.accept(false);
                }
            });
        }
    }
}
