package ballot.txn.transfer;

/**
 * Every way a transfer can end, exhaustively (docs/txn.md §9). All but {@code TIMED_OUT_UNKNOWN} are final for the
 * transfer id: a retry with the same id reports the same outcome; a retry after {@code TIMED_OUT_UNKNOWN} resolves it.
 */
public enum TransferOutcome {
    /** The amount moved, once. */
    COMPLETED,
    /** The source's balance was below the amount; nothing moved. */
    INSUFFICIENT_FUNDS,
    /** The source account does not exist; nothing moved. */
    SOURCE_NOT_FOUND,
    /** The destination account does not exist; nothing moved. */
    DESTINATION_NOT_FOUND,
    /** Source and destination are the same account; nothing was sent. */
    SAME_ACCOUNT,
    /** Undecided at the client's deadline: it may or may not have moved. Retry with the same id. */
    TIMED_OUT_UNKNOWN;

    /** Whether a retry with the same id can change the answer. */
    public boolean isFinal() {
        return this != TIMED_OUT_UNKNOWN;
    }
}
