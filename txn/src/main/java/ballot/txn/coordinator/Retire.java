package ballot.txn.coordinator;

import ballot.txn.Mark;
import ballot.txn.PartitionKey;
import ballot.txn.Record;
import ballot.txn.step.DropRecord;
import ballot.txn.step.Forget;
import ballot.txn.step.Reply;
import java.util.List;

/**
 * Drops a decided record past its retention window once nothing can refer to it (docs/txn.md §2, §8 R): every
 * participant it lists but the home is clear of the transaction for good ({@link Forget}), then the record goes
 * ({@link DropRecord}, which checks the home itself in the same CAS). A participant still holding an intent keeps the
 * record for a later sweep, which that intent's resolution needs.
 */
final class Retire {
    private Retire() {}

    static <V> void run(Context<V> ctx, PartitionKey home, Record record) {
        long until = ctx.backgroundDeadline();
        List<PartitionKey> others = record.participants().stream().filter(key -> !key.equals(home)).toList();
        int[] clear = {0};
        Runnable drop = () -> ctx.send(home, new DropRecord<>(record.id(), ctx.options.retentionMicros()), until, r -> {
            if (((Reply.RecordSeen) r).record() == null) ctx.observer.mark(Mark.RECORD_DROPPED);
        }, () -> { });
        if (others.isEmpty()) {
            drop.run();
            return;
        }
        for (PartitionKey key : others)
            ctx.send(key, new Forget<>(record.id(), record.deadlineMicros()), until, r -> {
                if (((Reply.Cleared) r).clear() && ++clear[0] == others.size()) drop.run();
            }, () -> { });
    }
}
