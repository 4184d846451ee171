package ballot.tools.ledger;

import ballot.txn.transfer.TransferOutcome;
import com.datastax.oss.driver.api.core.DriverException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lwt algorithm's {@link Ledger}: each transfer is a sequence of conditional statements made by this client
 * ({@link LwtTransfer}). The ledger is one client: one client id for all its threads, so a retry from any thread
 * finds the claim its earlier attempt took still its own. Within the ledger, a transfer is worked on by one thread at
 * a time ({@code inHand}), so its threads never race each other through the same steps.
 */
final class LwtLedger implements Ledger {
    private static final Logger log = LoggerFactory.getLogger(LwtLedger.class);
    /** How deep a transfer goes finishing abandoned transfers that block it, which may be blocked in turn. */
    static final int RECOVERY_DEPTH_MAX = 8;

    /** What {@link #recover} came to. */
    enum Recovery {
        /** This client finished the transfer. */
        FINISHED,
        /** The transfer's row was gone: someone finished it. */
        GONE,
        /** The transfer is still there: a live client holds it, or it waits for an account a live transfer holds. */
        LEFT
    }

    private final LwtSteps steps;
    private final UUID clientId = UUID.randomUUID();
    private final Duration backoffCap;
    private final long transferTimeoutNanos;
    private final Set<UUID> inHand = ConcurrentHashMap.newKeySet();
    private final LongAdder lockConflicts = new LongAdder();
    private final LongAdder recoveries = new LongAdder();
    private final LongAdder staleLocksReleased = new LongAdder();

    LwtLedger(LwtSteps steps, Duration claimTtl, Duration transferTimeout) {
        this.steps = steps;
        this.backoffCap = min(Duration.ofSeconds(1), claimTtl.dividedBy(4));
        this.transferTimeoutNanos = transferTimeout.toNanos();
    }

    @Override
    public TransferOutcome transfer(UUID id, Account source, Account destination, BigDecimal amount) {
        if (new Transfer(id, source, destination, amount).isWithinOneAccount()) return TransferOutcome.SAME_ACCOUNT;
        // another thread is making this transfer now; once it is done, a retry returns its outcome
        if (!inHand.add(id)) return TransferOutcome.TIMED_OUT_UNKNOWN;
        try {
            TransferRow transfer = TransferRow.fresh(id, source, destination, amount);
            return new LwtTransfer(this, transfer, true, 0, System.nanoTime() + transferTimeoutNanos).make();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return TransferOutcome.TIMED_OUT_UNKNOWN;
        } catch (DriverException e) {
            if (!TransientErrors.leaveOutcomeUnknown(e)) throw e;
            log.debug("transfer={} outcome unknown after {}", id, e.toString());
            return TransferOutcome.TIMED_OUT_UNKNOWN;
        } finally {
            inHand.remove(id);
        }
    }

    @Override
    public RecoveryPass recoverAbandoned() {
        List<UUID> ids = steps.transferIds();
        long finished = 0;
        long left = 0;
        for (UUID id : ids) {
            try {
                Recovery recovery = recover(id, 0);
                if (recovery == Recovery.FINISHED) finished++;
                else if (recovery == Recovery.LEFT) left++;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new RecoveryPass(ids.size(), finished, ids.size() - finished);
            } catch (DriverException e) {
                if (!TransientErrors.leaveOutcomeUnknown(e)) throw e;
                log.debug("transfer={} recovery stopped by {}", id, e.toString());
                left++;
            }
        }
        return new RecoveryPass(ids.size(), finished, left);
    }

    @Override
    public LedgerCounters counters() {
        return new LedgerCounters(lockConflicts.sum(), 0, recoveries.sum(), staleLocksReleased.sum());
    }

    /**
     * Finishes transfer {@code id} on behalf of its client, if no live client holds it: claims it, reads it and carries
     * it on from its state. A recovery that meets a live transfer gives its claim back at once, so that the transfer's
     * own client, or the next recovery, need not wait for the claim to lapse.
     */
    Recovery recover(UUID id, int depth) throws InterruptedException {
        if (!inHand.add(id)) return Recovery.LEFT;
        try {
            LwtSteps.Claim claim = steps.claim(id, clientId);
            if (claim == LwtSteps.Claim.GONE) return Recovery.GONE;
            if (claim == LwtSteps.Claim.HELD_BY_OTHER) return Recovery.LEFT;
            Optional<TransferRow> row = steps.readTransfer(id);
            if (row.isEmpty()) return Recovery.GONE;
            Optional<TransferOutcome> outcome = new LwtTransfer(this, row.get(), false, depth, System.nanoTime()).carry(row.get().state());
            if (outcome.isEmpty()) {
                steps.release(id, clientId);
                return Recovery.LEFT;
            }
            recoveries.increment();
            log.debug("transfer={} recovered outcome={} depth={}", id, outcome.get(), depth);
            return Recovery.FINISHED;
        } finally {
            inHand.remove(id);
        }
    }

    /**
     * Clears the way if {@code holder}, the lwt transfer holding {@code account}, is abandoned; true if it did. A holder
     * whose row is gone has finished (it deletes its row only after unlocking), so its lock is stale: left by a client
     * that lost its claim and locked again after the transfer was done. A holder whose claim has lapsed has lost its
     * client: this client finishes it (lightest's recovery), at {@code depth} + 1. A holder with a live claim, or one
     * this ledger is working on, is left alone.
     */
    boolean clearIfAbandoned(UUID holder, Account account, int depth) throws InterruptedException {
        if (inHand.contains(holder)) return false;
        Optional<TransferRow> row = steps.readTransfer(holder);
        if (row.isEmpty()) {
            if (steps.unlock(holder, account)) staleLocksReleased.increment();
            return true;
        }
        if (row.get().client() != null || depth >= RECOVERY_DEPTH_MAX) return false;
        return recover(holder, depth + 1) != Recovery.LEFT;
    }

    LwtSteps steps() {
        return steps;
    }

    UUID clientId() {
        return clientId;
    }

    Backoff backoff() {
        return new Backoff(backoffCap);
    }

    void lockConflict() {
        lockConflicts.increment();
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
