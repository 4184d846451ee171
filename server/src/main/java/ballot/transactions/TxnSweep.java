package ballot.transactions;

import ballot.lwt.TxnCell;
import ballot.storage.StorageEngine;
import ballot.txn.Intent;
import ballot.txn.PartitionKey;
import ballot.txn.PartitionState;
import ballot.txn.Record;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the partitions whose transaction state shows something due (docs/txn.md §6.3, §11.1): an intent or a staging
 * record past its deadline (its coordinator is gone, or late), or a decided record its coordinator did not retire, and
 * hands them to the core's sweep. A pass reads this replica's own states, which may lag the quorum's; the sweep
 * itself reads through Paxos. A partition is swept by its first live replica, or by any replica once the item is
 * overdue by ten periods (the first replica may be down or behind).
 */
final class TxnSweep {
    private static final Logger log = LoggerFactory.getLogger(TxnSweep.class);
    /** Sweeps started per pass at most: the rest wait for the next pass. */
    private static final int SWEEPS_PER_PASS_MAX = 4096;

    private final StorageEngine storage;
    private final LongSupplier wallMicros;
    /** How long after its deadline a decided record is retired by the sweep ({@code TxnCoordinator.sweptAfter}). */
    private final long sweptAfterMicros;
    private final long overdueMicros;
    private final Function<PartitionKey, Boolean> firstLiveReplica;
    private final Consumer<PartitionKey> sweep;

    TxnSweep(StorageEngine storage, LongSupplier wallMicros, Duration sweptAfter, Duration period, Function<PartitionKey, Boolean> firstLiveReplica,
            Consumer<PartitionKey> sweep) {
        this.storage = storage;
        this.wallMicros = wallMicros;
        this.sweptAfterMicros = sweptAfter.toNanos() / 1000;
        this.overdueMicros = period.multipliedBy(10).toNanos() / 1000;
        this.firstLiveReplica = firstLiveReplica;
        this.sweep = sweep;
    }

    /**
     * One look at every transaction state this node stores that may need a sweep: those holding an intent or records,
     * which the storage follows (emptied states, one per partition a transaction ever touched, are not read).
     */
    void pass() {
        try {
            long now = wallMicros.getAsLong();
            int started = 0;
            for (StorageEngine.PaxosState stored : storage.txnStatesAwaitingSweep()) {
                long due = dueMicros(stored);
                if (due > now) continue;
                PartitionKey key = TxnKeys.of(stored.tableId(), stored.key());
                if (now - due > overdueMicros || firstLiveReplica.apply(key)) {
                    sweep.accept(key);
                    if (++started >= SWEEPS_PER_PASS_MAX) break;
                }
            }
            if (started > 0) log.debug("transaction sweep started sweeps={}", started);
        } catch (RuntimeException e) {
            log.warn("transaction sweep pass failed; the next pass tries again", e);
        }
    }

    /** When the stored state, which holds an intent or records, next needs a sweep. */
    private long dueMicros(StorageEngine.PaxosState stored) {
        byte[] bytes = TxnCell.ofStored(stored.state()).state();
        PartitionState<TxnValue> state = TxnStateCodec.decode(bytes, null, stored.tableId(), stored.key());
        long due = Long.MAX_VALUE;
        Intent<TxnValue> intent = state.intent();
        if (intent != null) due = intent.deadlineMicros();
        for (Record r : state.records().values()) {
            due = Math.min(due, r.status() == Record.Status.STAGING ? r.deadlineMicros() : r.deadlineMicros() + sweptAfterMicros);
        }
        return due;
    }
}
