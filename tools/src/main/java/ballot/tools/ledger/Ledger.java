package ballot.tools.ledger;

import ballot.txn.transfer.TransferOutcome;
import com.datastax.oss.driver.api.core.CqlSession;
import java.math.BigDecimal;
import java.util.UUID;

/**
 * Transfers between the accounts of a ledger kept in a Cassandra-compatible database (lightest's tables, see
 * {@link LedgerTables}), made by one of several {@link Algorithm}s. A transfer is atomic (both balances change or
 * neither), never overdraws its source, and is idempotent by its id: calling {@code transfer} again with the same id
 * and details finishes what an earlier call left unfinished and returns the same final outcome, without moving the
 * money twice. Implementations are safe for use by many threads at once; {@code transfer} blocks its thread.
 */
public interface Ledger {
    /**
     * Moves {@code amount} (positive) from {@code source} to {@code destination}. An id already used with other
     * accounts or another amount is refused with {@link IllegalArgumentException}. Driver errors after which the
     * transfer's state is unknown (timeouts, unavailable replicas, lost connections) become
     * {@link TransferOutcome#TIMED_OUT_UNKNOWN}; other errors (a missing table, a server bug) are thrown.
     */
    TransferOutcome transfer(UUID id, Account source, Account destination, BigDecimal amount);

    /**
     * One pass over the transfers the lwt algorithm left behind: each one whose client is gone is finished on its behalf
     * (moving the money or not, as it would have). Transfers still held by a live client are counted as left. The
     * batch and txn algorithms leave nothing behind; their ledgers run the same pass, for lwt transfers on the same
     * accounts.
     */
    RecoveryPass recoverAbandoned();

    /** What this ledger met so far: lock and balance conflicts, transfers it finished on behalf of gone clients, stale locks. */
    LedgerCounters counters();

    static LedgerBuilder builder(CqlSession session) {
        return new LedgerBuilder(session);
    }
}
