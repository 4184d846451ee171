package ballot.tools.ledger;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;

/**
 * The ledger's tables. {@code accounts} and {@code transfers} are lightest's, column for column, so lightest and this
 * ledger can work on one keyspace. {@code transfer_outcomes} is ours: lightest deletes a transfer's row once it is
 * done, after which a retry with the same id could not tell "done" from "never started"; the outcome, kept for a
 * retention period (a TTL), is what makes such a retry return the outcome instead of moving the money again
 * (docs/workload.md §4).
 */
public final class LedgerTables {
    private LedgerTables() {}

    /** Creates the tables in {@code keyspace}, which must exist, unless they exist. */
    public static void create(CqlSession session, CqlIdentifier keyspace) {
        String ks = keyspace.asCql(true);
        session.execute("CREATE TABLE IF NOT EXISTS " + ks + ".accounts ("
                + "bic text, "                 // bank identifier code
                + "ban text, "                 // account number within the bank
                + "balance decimal, "
                + "pending_transfer uuid, "    // the transfer that holds the account (its lock), or null
                + "pending_amount decimal, "   // that transfer's change to the balance, 0 once applied
                + "PRIMARY KEY ((bic, ban)))");
        session.execute("CREATE TABLE IF NOT EXISTS " + ks + ".transfers ("
                + "transfer_id uuid, "
                + "src_bic text, src_ban text, "
                + "dst_bic text, dst_ban text, "
                + "amount decimal, "
                + "state text, "               // 'new', 'locked', 'complete'
                + "client_id uuid, "           // the client working on it; written with a TTL, so a gone client's claim lapses
                + "PRIMARY KEY (transfer_id))");
        session.execute("CREATE TABLE IF NOT EXISTS " + ks + ".transfer_outcomes ("
                + "transfer_id uuid, "
                + "outcome text, "             // a final TransferOutcome's name
                + "PRIMARY KEY (transfer_id))");
    }
}
