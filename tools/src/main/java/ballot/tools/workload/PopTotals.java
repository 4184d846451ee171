package ballot.tools.workload;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What pop registered, per seed, in {@code pop_totals}: accounts 0..accounts-1 of that seed's ledger, and the total of
 * their opening balances. pay picks its accounts among them; check expects the balances in the keyspace to add up to
 * the sum of the totals, since transfers only move money. Accounts are registered by index from 0, so a pop of N in
 * which every request succeeded means accounts 0..N-1 exist, whatever earlier runs did or found; pop writes its
 * seed's row only after such a run, and only to grow it. The total is computed from the seed ({@link Accounts}), not
 * from what the inserts found: a duplicate counts at its opening balance, which is right as long as nothing but
 * transfers has changed balances (a plain, non-conditional pop over existing accounts resets their balances). docs/workload.md §7.
 */
final class PopTotals {
    /** Seed {@code seed}'s accounts 0..accounts-1, whose opening balances total {@code balanceTotal}. */
    record PopTotal(long seed, long accounts, BigDecimal balanceTotal) {}

    private PopTotals() {}

    static String createTable(String keyspace) {
        return "CREATE TABLE IF NOT EXISTS " + keyspace + ".pop_totals (seed bigint, accounts bigint, balance_total decimal, PRIMARY KEY (seed))";
    }

    /**
     * Records {@code total} unless its seed has at least as many accounts recorded; true if it did. Conditional, so
     * two pops racing leave the larger.
     */
    static boolean recordIfLarger(CqlSession session, String keyspace, PopTotal total, ConsistencyLevel serial, ConsistencyLevel quorum) {
        ResultSet rs = session.execute(SimpleStatement.newInstance("INSERT INTO " + keyspace + ".pop_totals (seed, accounts, balance_total) VALUES (?, ?, ?) IF NOT EXISTS",
                total.seed(), total.accounts(), total.balanceTotal()).setSerialConsistencyLevel(serial).setConsistencyLevel(quorum));
        while (!rs.wasApplied()) {
            long recorded = rs.one().getLong("accounts");
            if (recorded >= total.accounts()) return false;
            rs = session.execute(SimpleStatement.newInstance("UPDATE " + keyspace + ".pop_totals SET accounts = ?, balance_total = ? WHERE seed = ? IF accounts = ?",
                    total.accounts(), total.balanceTotal(), total.seed(), recorded).setSerialConsistencyLevel(serial).setConsistencyLevel(quorum));
        }
        return true;
    }

    static Optional<PopTotal> read(CqlSession session, String keyspace, long seed, ConsistencyLevel level) {
        Row row = session.execute(SimpleStatement.newInstance("SELECT seed, accounts, balance_total FROM " + keyspace + ".pop_totals WHERE seed = ?", seed)
                .setConsistencyLevel(level)).one();
        return Optional.ofNullable(row).map(PopTotals::popTotal);
    }

    static List<PopTotal> all(CqlSession session, String keyspace, ConsistencyLevel level) {
        List<PopTotal> totals = new ArrayList<>();
        for (Row row : session.execute(SimpleStatement.newInstance("SELECT seed, accounts, balance_total FROM " + keyspace + ".pop_totals").setConsistencyLevel(level)))
            totals.add(popTotal(row));
        return totals;
    }

    private static PopTotal popTotal(Row row) {
        return new PopTotal(row.getLong("seed"), row.getLong("accounts"), row.getBigDecimal("balance_total"));
    }
}
