package ballot.tools.workload;

import ballot.tools.ledger.LedgerTables;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;

/** The workload's keyspace and tables: the ledger's ({@link LedgerTables}, lightest's) and {@link PopTotals}'. */
final class Schema {
    private Schema() {}

    /** Creates the keyspace (replicated {@code replicationFactor} times in {@code dataCenter}) and tables unless they exist. */
    static void create(CqlSession session, CqlIdentifier keyspace, String dataCenter, int replicationFactor) {
        session.execute("CREATE KEYSPACE IF NOT EXISTS " + keyspace.asCql(true) + " WITH replication = {'class': 'NetworkTopologyStrategy', '"
                + dataCenter.replace("'", "''") + "': " + replicationFactor + "}");
        LedgerTables.create(session, keyspace);
        session.execute(PopTotals.createTable(keyspace.asCql(true)));
    }

    /** Registers an account: binds bic, ban, balance; with {@code ifNotExists} an existing account is left as it is. */
    static String insertAccount(String keyspace, boolean ifNotExists) {
        return "INSERT INTO " + keyspace + ".accounts (bic, ban, balance, pending_amount) VALUES (?, ?, ?, 0)"
                + (ifNotExists ? " IF NOT EXISTS" : "");
    }
}
