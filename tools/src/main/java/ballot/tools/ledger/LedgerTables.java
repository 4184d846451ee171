package ballot.tools.ledger;

import ballot.txn.transfer.TransferOutcome;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;

/**
 * The ledger's tables. {@code accounts} and {@code transfers} are lightest's, column for column, so lightest and this
 * ledger can work on one keyspace. {@code transfer_outcomes} is ours: lightest deletes a transfer's row once it is
 * done, after which a retry with the same id could not tell "done" from "never started"; the outcome, kept for a
 * retention period (a TTL), is what makes such a retry return the outcome instead of moving the money again
 * (docs/workload.md §4); the batch and txn algorithms keep nothing else (§6).
 */
public final class LedgerTables {
    private static final String OUTCOME_DETAILS = "src_bic text, src_ban text, dst_bic text, dst_ban text, amount decimal";

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
                + OUTCOME_DETAILS + ", "       // the transfer's accounts and amount, so that an id reused for another transfer is refused
                + "PRIMARY KEY (transfer_id))");
        addOutcomeDetailsIfMissing(session, keyspace);
    }

    /** A table made before transfer_outcomes named its transfers gets the columns (its old rows keep them null). */
    private static void addOutcomeDetailsIfMissing(CqlSession session, CqlIdentifier keyspace) {
        Row amount = session.execute("SELECT column_name FROM system_schema.columns WHERE keyspace_name = ? AND table_name = 'transfer_outcomes'"
                + " AND column_name = 'amount'", keyspace.asInternal()).one();
        if (amount == null) session.execute("ALTER TABLE " + keyspace.asCql(true) + ".transfer_outcomes ADD (" + OUTCOME_DETAILS + ")");
    }
}
