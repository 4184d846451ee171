package ballot.tools.ledger;

/**
 * Totals since a ledger was built. {@code lockConflicts}: times a transfer found an account locked by another live
 * (lwt) transfer and waited. {@code balanceConflicts}: times a batch transfer's conditions found a balance other than
 * it had read (another transfer moved it first), and the transfer read again. {@code recoveries}: lwt transfers of gone
 * clients this ledger finished. {@code staleLocksReleased}: locks left by an lwt transfer that had already finished,
 * which this ledger released.
 */
public record LedgerCounters(long lockConflicts, long balanceConflicts, long recoveries, long staleLocksReleased) {}
