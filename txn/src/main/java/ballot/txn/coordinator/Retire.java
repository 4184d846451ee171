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
 * participant it lists but the home is clear of the transaction for good, then the record goes ({@link DropRecord},
 * which checks the home itself in the same CAS). A participant still holding an intent keeps the record for a later
 * sweep, which that intent's resolution needs.
 */
final class Retire {
    /** Drops tried again when the home's partition time was not past the window yet (its clock behind this node's). */
    private static final int LATE_DROPS = 3;
    private static final long LATE_DROP_DELAY_MICROS = 1_000_000;

    private Retire() {}

    /** The sweep's retirement: it knows nothing of the participants, so each must answer {@link Forget} with clear. */
    static <V> void run(Context<V> ctx, PartitionKey home, Record record) {
        long until = ctx.backgroundDeadline();
        List<PartitionKey> others = record.participants().stream().filter(key -> !key.equals(home)).toList();
        if (others.isEmpty()) {
            drop(ctx, home, record, () -> { });
            return;
        }
        int[] clear = {0};
        for (PartitionKey key : others)
            ctx.send(key, new Forget<>(record.id(), record.deadlineMicros()), until, r -> {
                if (((Reply.Cleared) r).clear() && ++clear[0] == others.size()) drop(ctx, home, record, () -> { });
            }, () -> { });
    }

    /**
     * The settling coordinator's retirement of {@code committed}: every other participant answered the commit's
     * {@code Resolve}, so none holds an intent of it or ever will (§3.6), and the drop needs no {@code Forget}. It runs
     * when the retention window ends on this node's clock; a home whose partition time is not there yet keeps the
     * record, and the drop is tried again a second later, a few times, before the sweep is left to retire it.
     */
    static <V> void whenDue(Context<V> ctx, PartitionKey home, Record committed) {
        whenDue(ctx, home, committed, committed.deadlineMicros() + ctx.options.retentionMicros() + 1, LATE_DROPS);
    }

    private static <V> void whenDue(Context<V> ctx, PartitionKey home, Record committed, long atWallMicros, int lateDrops) {
        ctx.retireAt(atWallMicros, () -> drop(ctx, home, committed, () -> {
            if (lateDrops > 0) whenDue(ctx, home, committed, ctx.clock.wallMicros() + LATE_DROP_DELAY_MICROS, lateDrops - 1);
        }));
    }

    /** {@link DropRecord} at the home; {@code kept} runs if the record is still there. */
    private static <V> void drop(Context<V> ctx, PartitionKey home, Record record, Runnable kept) {
        ctx.send(home, new DropRecord<>(record.id(), ctx.options.retentionMicros()), ctx.backgroundDeadline(), r -> {
            if (((Reply.RecordSeen) r).record() == null) ctx.observer.mark(Mark.RECORD_DROPPED);
            else kept.run();
        }, () -> { });
    }
}
