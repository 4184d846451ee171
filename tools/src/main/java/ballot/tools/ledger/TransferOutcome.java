package ballot.tools.ledger;

/**
 * What a transfer came to. Every outcome but {@link #TIMED_OUT_UNKNOWN} is final: a later call with the same transfer
 * id returns it again and moves no money.
 */
public enum TransferOutcome {
    /** The amount moved from the source to the destination. */
    COMPLETED,
    /** The source's balance was below the amount; no money moved. */
    INSUFFICIENT_FUNDS,
    /** The source account does not exist; no money moved. */
    SOURCE_NOT_FOUND,
    /** The destination account does not exist (and the source does); no money moved. */
    DESTINATION_NOT_FOUND,
    /** Source and destination are one account; nothing was written. */
    SAME_ACCOUNT,
    /**
     * Not known yet: a statement timed out or failed in a way that leaves its effect unknown, or the transfer waited
     * too long for its accounts or for another client finishing it. The transfer may have completed, may complete
     * later, or may not happen; calling {@code transfer} again with the same id and details resolves it.
     */
    TIMED_OUT_UNKNOWN;

    /** True for every outcome that a retry with the same id would return again. */
    public boolean isFinal() {
        return this != TIMED_OUT_UNKNOWN;
    }
}
