package ballot.tools.ledger;

import ballot.txn.transfer.TransferOutcome;
import java.math.BigDecimal;

/**
 * The step that moves the money, decided: from both accounts as the transfer holds them, its outcome and, when the
 * money moves, the two balances to write ({@code null} otherwise).
 *
 * <p>{@code pending_amount} is the sentinel that makes the step safe to repeat. Locking an account sets it to the
 * transfer's change (minus the amount on the source, plus on the destination); writing the account's new balance sets
 * it to 0. So {@code balance + pending_amount} is the balance after the transfer whether that account's write has
 * happened or not, a repeat after one of the two writes writes the same two balances again, and since nobody else
 * changes a held account, every repeat decides the same outcome.
 */
record Settlement(TransferOutcome outcome, BigDecimal sourceBalance, BigDecimal destinationBalance) {
    static Settlement decide(Object transfer, BigDecimal amount, Holding source, Holding destination) {
        requirePending(transfer, source, amount.negate());
        requirePending(transfer, destination, amount);
        BigDecimal sourceAfter = source.balance().add(source.pendingAmount());
        if (sourceAfter.signum() >= 0)
            return new Settlement(TransferOutcome.COMPLETED, sourceAfter, destination.balance().add(destination.pendingAmount()));
        if (source.pendingAmount().signum() == 0 || destination.pendingAmount().signum() == 0)
            throw new IllegalStateException("transfer " + transfer + " has written a balance but the source " + source.account() + " cannot pay "
                    + amount.toPlainString() + ": " + source + ", " + destination);
        return new Settlement(TransferOutcome.INSUFFICIENT_FUNDS, null, null);
    }

    /** A held account's pending amount is the transfer's change to it, or 0 once written; anything else is not this transfer's. */
    private static void requirePending(Object transfer, Holding holding, BigDecimal change) {
        BigDecimal pending = holding.pendingAmount();
        if (holding.balance() == null || pending == null || (pending.signum() != 0 && pending.compareTo(change) != 0))
            throw new IllegalStateException("transfer " + transfer + " of " + change.abs().toPlainString() + " holds " + holding.account()
                    + " with balance " + holding.balance() + " and pending amount " + pending + "; expected a pending amount of "
                    + change.toPlainString() + " or 0");
    }
}
