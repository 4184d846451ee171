package ballot.txn.coordinator;

import ballot.txn.Intent;
import ballot.txn.PartitionKey;
import ballot.txn.Record;
import ballot.txn.step.Inspect;
import ballot.txn.step.Reply;
import ballot.txn.step.Resolve;
import java.util.function.Consumer;

/**
 * The recovery sweep of one partition (docs/txn.md §6.3): recovers its intent, and the staging records homed there
 * whose deadline has passed, so that every abandoned transaction ends (§8 C5) even if nobody meets its intents; and
 * retires the decided records a background period past their retention window (§2), which their coordinators did not.
 */
final class Sweep {
    private Sweep() {}

    /** {@code done} hears whether the partition held nothing to recover when it was inspected. */
    static <V> void run(Context<V> ctx, PartitionKey key, Consumer<Boolean> done) {
        long until = ctx.backgroundDeadline();
        ctx.send(key, new Inspect<>(ctx.options.sweptAfterMicros()), until, reply -> {
            @SuppressWarnings("unchecked")
            Reply.Inspection<V> inspection = (Reply.Inspection<V>) reply;
            Intent<V> intent = inspection.intent();
            if (intent != null) {
                new Recovery<>(ctx, intent.attempt(), intent.home(), intent.deadlineMicros(), decision ->
                        decision.ifPresent(d -> ctx.send(key, new Resolve<>(d), until, r -> { }, () -> { }))).start();
            }
            for (Record staging : inspection.staging()) {
                if (ctx.clock.wallMicros() > staging.deadlineMicros())
                    new Recovery<>(ctx, staging.attempt(), key, staging.deadlineMicros(), decision -> { }).start();
            }
            for (Record retired : inspection.retired()) Retire.run(ctx, key, retired);
            done.accept(intent == null && inspection.staging().isEmpty());
        }, () -> done.accept(false));
    }
}
