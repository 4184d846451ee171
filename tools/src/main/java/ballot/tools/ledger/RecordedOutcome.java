package ballot.tools.ledger;

import ballot.txn.transfer.TransferOutcome;
import java.math.BigDecimal;

/**
 * A row of {@code transfer_outcomes}: a transfer's final outcome and the transfer it is the outcome of. The details
 * are null in rows written before {@code transfer_outcomes} had them (such a row cannot be checked against a retry).
 */
record RecordedOutcome(TransferOutcome outcome, Account source, Account destination, BigDecimal amount) {
    RecordedOutcome {
        if (outcome == null || !outcome.isFinal()) throw new IllegalArgumentException("recorded outcome " + outcome + " is not final");
    }

    /**
     * The outcome, as the outcome of {@code transfer}: refused with {@link IllegalArgumentException}, naming both, if
     * the id was used for another transfer (the amount compared by value, so 5.0 and 5.00 are the same).
     */
    TransferOutcome of(Transfer transfer) {
        if (amount == null || source == null || destination == null) return outcome;
        if (!source.equals(transfer.source()) || !destination.equals(transfer.destination()) || amount.compareTo(transfer.amount()) != 0)
            throw new IllegalArgumentException("transfer " + transfer.id() + " was made as " + amount.toPlainString() + " from " + source + " to "
                    + destination + " (" + outcome + "); it cannot be made again as " + transfer.details());
        return outcome;
    }
}
