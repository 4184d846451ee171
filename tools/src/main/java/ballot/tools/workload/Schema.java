package ballot.tools.workload;

import com.datastax.oss.driver.api.core.CqlSession;

/** The ledger's tables, as in lightest; {@code keyspace} is CQL text (quoted where needed). */
final class Schema {
    private Schema() {}

    /** Creates the keyspace (replicated {@code replicationFactor} times in {@code dataCenter}) and tables unless they exist. */
    static void create(CqlSession session, String keyspace, String dataCenter, int replicationFactor) {
        session.execute("CREATE KEYSPACE IF NOT EXISTS " + keyspace + " WITH replication = {'class': 'NetworkTopologyStrategy', '"
                + dataCenter.replace("'", "''") + "': " + replicationFactor + "}");
        session.execute("CREATE TABLE IF NOT EXISTS " + keyspace + ".accounts ("
                + "bic text, "                 // bank identifier code
                + "ban text, "                 // account number within the bank
                + "balance decimal, "
                + "pending_transfer uuid, "    // set while a transfer holds the account (pay)
                + "pending_amount decimal, "   // that transfer's change to the balance
                + "PRIMARY KEY ((bic, ban)))");
    }

    /** Registers an account: binds bic, ban, balance; with {@code ifNotExists} an existing account is left as it is. */
    static String insertAccount(String keyspace, boolean ifNotExists) {
        return "INSERT INTO " + keyspace + ".accounts (bic, ban, balance, pending_amount) VALUES (?, ?, ?, 0)"
                + (ifNotExists ? " IF NOT EXISTS" : "");
    }
}
