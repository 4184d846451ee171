package ballot.tools.ledger;

import ballot.txn.transfer.TransferOutcome;
import ballot.tools.ledger.LwtSteps.AlreadyHeld;
import ballot.tools.ledger.LwtSteps.Claim;
import ballot.tools.ledger.LwtSteps.HeldByOther;
import ballot.tools.ledger.LwtSteps.Lock;
import ballot.tools.ledger.LwtSteps.Taken;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;

/**
 * One transfer of the lwt algorithm, carried by one client: either the caller's own transfer ({@link #make()}), or a
 * transfer of a gone client that this client finishes on its behalf ({@link #carry}, from {@link LwtLedger#recover}).
 *
 * <p>The steps, in the order of ScyllaDB's article and lightest: register the transfer row ({@code IF NOT EXISTS}, state
 * {@code new}); claim it with this client's id, under a TTL; lock both accounts in their natural order (pending_transfer
 * and pending_amount); set state {@code locked}; write both balances, with pending_amount as the sentinel
 * ({@link Settlement}); set state {@code complete}; unlock both accounts; delete the row. Ours adds one write before
 * {@code complete}: the outcome, in {@code transfer_outcomes} (see {@link LedgerTables}).
 *
 * <p>Invariants, on which resuming from any point rests:
 * <ul>
 * <li>Only the client holding the claim moves a transfer's state or records its outcome. Having claimed it, a client
 *     reads the recorded outcome first: if there is one, the transfer's balance writes are done and all that is left
 *     is to finish it (complete, unlock, delete), whatever state the row shows.</li>
 * <li>The outcome is recorded after the writes it implies, and before the row says {@code complete}; the locks are
 *     released after {@code complete}; the row is deleted after that. So a row that is gone means a recorded outcome,
 *     and a lock whose transfer row is gone is stale (see {@link LwtLedger#clearIfAbandoned}).</li>
 * <li>State {@code locked} with no recorded outcome means both accounts are held by this transfer: a missing account
 *     records its outcome and finishes without {@code locked}.</li>
 * </ul>
 * The state in hand may be older than the row's (it was read before the claim): every path above is also right from
 * an older state, which is why the claim is followed by the outcome read. The steps and the argument, at more
 * length: docs/workload.md §3-§5.
 */
final class LwtTransfer {
    private final LwtLedger ledger;
    private final LwtSteps steps;
    private final TransferRow transfer;
    private final UUID id;
    private final UUID client;
    private final boolean own;
    private final int depth;
    private final long deadlineNanos;
    private final Backoff backoff;

    /** Both accounts held (source and destination), or {@code notFound} with no lock kept from this attempt. */
    private record Locks(Holding source, Holding destination, TransferOutcome notFound) {}

    /**
     * {@code own}: the caller's transfer, which waits for locked accounts until {@code deadlineNanos}; otherwise a
     * recovery at {@code depth}, which gives up at the first account a live transfer holds.
     */
    LwtTransfer(LwtLedger ledger, TransferRow transfer, boolean own, int depth, long deadlineNanos) {
        this.ledger = ledger;
        this.steps = ledger.steps();
        this.transfer = transfer;
        this.id = transfer.id();
        this.client = ledger.clientId();
        this.own = own;
        this.depth = depth;
        this.deadlineNanos = deadlineNanos;
        this.backoff = ledger.backoff();
    }

    /**
     * Makes the caller's transfer: registers it (or finds it registered), claims it and carries it to its outcome. While
     * another client holds the claim (a recovery of this transfer), waits for it to finish or give up.
     */
    TransferOutcome make() throws InterruptedException {
        while (true) {
            TransferRow row = steps.register(transfer);
            Claim claim = steps.claim(id, client);
            if (claim == Claim.GONE) return recordedOutcome();
            if (claim == Claim.OURS) {
                Optional<TransferOutcome> outcome = carry(row.state());
                if (outcome.isPresent()) return outcome.get();
            }
            if (!waitInTime()) return TransferOutcome.TIMED_OUT_UNKNOWN;
        }
    }

    /**
     * With this client's claim held: carries the transfer from {@code state} (as last seen) to its outcome. Empty if
     * the claim was lost to another client, the deadline passed while waiting for an account, or (a recovery) a live
     * transfer holds an account.
     */
    Optional<TransferOutcome> carry(TransferState state) throws InterruptedException {
        Optional<TransferOutcome> recorded = steps.outcome(id);
        if (recorded.isPresent()) return Optional.of(finish(recorded.get()));
        return switch (state) {
            case NEW -> lockAndSettle();
            case LOCKED -> settle(heldAccount(transfer.source()), heldAccount(transfer.destination()));
            case COMPLETE -> throw new IllegalStateException("transfer " + id + " is complete but has no recorded outcome; was it kept "
                    + "longer than outcomeRetention?");
        };
    }

    private Optional<TransferOutcome> lockAndSettle() throws InterruptedException {
        Optional<Locks> locks = lockBoth();
        if (locks.isEmpty()) return Optional.empty();
        if (locks.get().notFound() != null) {
            steps.recordOutcome(transfer, locks.get().notFound());
            return Optional.of(finish(locks.get().notFound()));
        }
        if (!asClaimant(() -> steps.setState(id, client, TransferState.LOCKED))) return Optional.empty();
        return settle(locks.get().source(), locks.get().destination());
    }

    /** Both accounts held: decide, write the balances if the money moves, record the outcome, finish. */
    private Optional<TransferOutcome> settle(Holding source, Holding destination) {
        Settlement settlement = Settlement.decide(id, transfer.amount(), source, destination);
        if (settlement.outcome() == TransferOutcome.COMPLETED) {
            // not applied: the account is no longer held by this transfer, so another client finished it after our claim lapsed
            if (!steps.writeBalance(id, source.account(), settlement.sourceBalance())) return Optional.empty();
            if (!steps.writeBalance(id, destination.account(), settlement.destinationBalance())) return Optional.empty();
        }
        steps.recordOutcome(transfer, settlement.outcome());
        return Optional.of(finish(settlement.outcome()));
    }

    /**
     * The outcome is recorded, so it is final: mark the transfer complete, release its locks, delete its row. If another
     * client holds the claim now, that cleanup is left to it.
     */
    private TransferOutcome finish(TransferOutcome outcome) {
        if (asClaimant(() -> steps.setState(id, client, TransferState.COMPLETE))) {
            steps.unlock(id, transfer.source());
            steps.unlock(id, transfer.destination());
            asClaimant(() -> steps.delete(id, client));
        }
        return outcome;
    }

    /**
     * Runs a step conditioned on this client's claim. If it did not apply because the claim lapsed (the TTL ran out
     * during a slow step) and nobody took it, takes the claim again and repeats the step once; false if another client
     * holds the claim or the row is gone.
     */
    private boolean asClaimant(BooleanSupplier step) {
        return step.getAsBoolean() || (steps.claim(id, client) == Claim.OURS && step.getAsBoolean());
    }

    /**
     * Locks the two accounts in their natural order, so that transfers waiting for each other's accounts never form a
     * cycle. When the second lock fails, the first is released if this attempt took it, rather than held while waiting
     * (a lock from an earlier attempt is kept: the transfer may have gone further than this client saw).
     */
    private Optional<Locks> lockBoth() throws InterruptedException {
        List<Account> order = transfer.source().compareTo(transfer.destination()) < 0
                ? List.of(transfer.source(), transfer.destination()) : List.of(transfer.destination(), transfer.source());
        attempts:
        while (true) {
            Holding[] held = new Holding[2];
            Account takenNow = null;
            for (int i = 0; i < 2; i++) {
                Account account = order.get(i);
                Lock lock = steps.lock(id, account, pendingAmount(account));
                if (lock instanceof Taken taken) {
                    held[i] = taken.balance() != null ? new Holding(account, taken.balance(), pendingAmount(account), id) : heldAccount(account);
                    takenNow = account;
                    continue;
                }
                if (lock instanceof AlreadyHeld already) {
                    held[i] = already.holding();
                    continue;
                }
                if (takenNow != null) steps.unlock(id, takenNow);
                if (lock instanceof HeldByOther other) {
                    if (ledger.clearIfAbandoned(other.transfer(), account, depth)) continue attempts;
                    if (!own) return Optional.empty();
                    ledger.lockConflict();
                    if (!waitInTime() || steps.claim(id, client) != Claim.OURS) return Optional.empty();
                    continue attempts;
                }
                return Optional.of(new Locks(null, null, notFound(account)));
            }
            boolean sourceFirst = order.get(0).equals(transfer.source());
            return Optional.of(new Locks(held[sourceFirst ? 0 : 1], held[sourceFirst ? 1 : 0], null));
        }
    }

    /** The outcome when {@code missing} does not exist: the source is reported when both are missing. */
    private TransferOutcome notFound(Account missing) {
        if (missing.equals(transfer.source()) || steps.readHolding(transfer.source()).isEmpty()) return TransferOutcome.SOURCE_NOT_FOUND;
        return TransferOutcome.DESTINATION_NOT_FOUND;
    }

    /** The account as held by this transfer; it must be. */
    private Holding heldAccount(Account account) {
        Holding holding = steps.readHolding(account).orElseThrow(() -> new IllegalStateException("transfer " + id + " holds account "
                + account + ", which does not exist"));
        if (!id.equals(holding.pendingTransfer()))
            throw new IllegalStateException("transfer " + id + " is locked with no outcome recorded, but account " + account + " is held by "
                    + holding.pendingTransfer());
        return holding;
    }

    private BigDecimal pendingAmount(Account account) {
        return account.equals(transfer.source()) ? transfer.amount().negate() : transfer.amount();
    }

    private TransferOutcome recordedOutcome() {
        return steps.outcome(id).orElseThrow(() -> new IllegalStateException("transfer " + id + " was deleted with no recorded outcome; "
                + "was it made longer than outcomeRetention ago?"));
    }

    /** Backs off before the next attempt; false, without waiting, once the deadline has passed. */
    private boolean waitInTime() throws InterruptedException {
        if (System.nanoTime() - deadlineNanos >= 0) return false;
        backoff.sleep();
        return true;
    }
}
