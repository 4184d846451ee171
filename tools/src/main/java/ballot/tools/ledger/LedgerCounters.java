package ballot.tools.ledger;

/**
 * Totals since a ledger was built. {@code lockConflicts}: times a transfer found an account locked by another live
 * transfer and waited. {@code recoveries}: transfers of gone clients this ledger finished. {@code staleLocksReleased}:
 * locks left by a transfer that had already finished, which this ledger released.
 */
public record LedgerCounters(long lockConflicts, long recoveries, long staleLocksReleased) {}
