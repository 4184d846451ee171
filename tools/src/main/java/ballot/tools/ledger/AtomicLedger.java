package ballot.tools.ledger;

import ballot.txn.transfer.TransferOutcome;
import ballot.tools.ledger.Attempt.Decided;
import ballot.tools.ledger.Attempt.Held;
import ballot.tools.ledger.Attempt.Refused;
import com.datastax.oss.driver.api.core.DriverException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Ledger} of the batch and txn algorithms: each attempt of a transfer is one atomic statement
 * ({@link TransferAttempts}) that completes it or writes nothing, so a transfer leaves no state behind but its outcome.
 * A call makes attempts until one decides the transfer, and records a refusal as the outcome unless another call with
 * the same id recorded one first ({@link TransferOutcomes#recordIfFirst}): every final outcome returned is the
 * recorded one (docs/workload.md §6).
 *
 * <p>The accounts may be shared with the lwt algorithm. An attempt writes no account an lwt transfer holds
 * ({@code pending_transfer = null} is among its conditions); it waits for the holder, and finishes it (or releases its
 * stale lock) as an lwt ledger would when its client is gone ({@link LwtLedger#clearIfAbandoned}), through the lwt
 * ledger it keeps for that, which is also what {@link #recoverAbandoned} runs.
 */
final class AtomicLedger implements Ledger {
    private static final Logger log = LoggerFactory.getLogger(AtomicLedger.class);
    /** Long enough for several conflicting transfers to go first, short enough to notice soon when a hot account is free. */
    private static final Duration BACKOFF_CAP = Duration.ofMillis(200);

    private final TransferAttempts attempts;
    private final TransferOutcomes outcomes;
    private final LwtLedger lwt;
    private final long transferTimeoutNanos;
    private final LongAdder lockConflicts = new LongAdder();
    private final LongAdder balanceConflicts = new LongAdder();

    AtomicLedger(TransferAttempts attempts, TransferOutcomes outcomes, LwtLedger lwt, Duration transferTimeout) {
        this.attempts = attempts;
        this.outcomes = outcomes;
        this.lwt = lwt;
        this.transferTimeoutNanos = transferTimeout.toNanos();
    }

    @Override
    public TransferOutcome transfer(UUID id, Account source, Account destination, BigDecimal amount) {
        Transfer transfer = new Transfer(id, source, destination, amount);
        if (transfer.isWithinOneAccount()) return TransferOutcome.SAME_ACCOUNT;
        try {
            return make(transfer, System.nanoTime() + transferTimeoutNanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return TransferOutcome.TIMED_OUT_UNKNOWN;
        } catch (DriverException e) {
            if (!TransientErrors.leaveOutcomeUnknown(e)) throw e;
            log.debug("transfer={} outcome unknown after {}", id, e.toString());
            return TransferOutcome.TIMED_OUT_UNKNOWN;
        }
    }

    /** Attempts until one decides, or until the deadline passes while an lwt transfer holds an account or balances keep moving. */
    private TransferOutcome make(Transfer transfer, long deadlineNanos) throws InterruptedException {
        Backoff backoff = new Backoff(BACKOFF_CAP);
        while (true) {
            Attempt attempt = attempts.make(transfer);
            if (attempt instanceof Decided decided) return decided.outcome();
            if (attempt instanceof Refused refused) return outcomes.recordIfFirst(transfer, refused.outcome());
            boolean cleared = attempt instanceof Held held && lwt.clearIfAbandoned(held.holder(), held.account(), 0);
            if (!cleared) (attempt instanceof Held ? lockConflicts : balanceConflicts).increment();
            if (System.nanoTime() - deadlineNanos >= 0) return TransferOutcome.TIMED_OUT_UNKNOWN;
            if (!cleared) backoff.sleep();
        }
    }

    /** The new algorithms leave nothing behind; the pass finishes what lwt transfers on the same accounts left. */
    @Override
    public RecoveryPass recoverAbandoned() {
        return lwt.recoverAbandoned();
    }

    @Override
    public LedgerCounters counters() {
        LedgerCounters recovery = lwt.counters();
        return new LedgerCounters(lockConflicts.sum() + recovery.lockConflicts(), balanceConflicts.sum(), recovery.recoveries(), recovery.staleLocksReleased());
    }
}
