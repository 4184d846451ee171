package ballot.tools.ledger;

/**
 * One algorithm that moves a transfer's money in one atomic statement: batch ({@link BatchAttempts}) or txn
 * ({@link TxnAttempts}). An attempt writes nothing unless it completes the transfer, and it writes the balances and
 * the outcome {@code COMPLETED} together, conditioned on no outcome being recorded; so attempts may be repeated, by
 * one call or by several calls with the same id, and move the money at most once.
 */
interface TransferAttempts {
    /** One attempt; a driver error after which the attempt's effect is unknown is thrown, for the caller to map. */
    Attempt make(Transfer transfer) throws InterruptedException;
}
