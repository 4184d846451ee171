package ballot.tools.workload;

import ballot.tools.ledger.Ledger;
import ballot.tools.ledger.RecoveryPass;
import ballot.tools.workload.PopTotals.PopTotal;
import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * lightest's check, with its recovery first: finish every transfer left by a client that is gone, then compare the
 * sum of the balances with the total pop recorded ({@link PopTotals}: money is only moved, never made or lost), and
 * find no account still held by a transfer. Transfers held by live clients are waited for, up to {@code wait} (a
 * killed client's claim lapses after the claim TTL, 30 s). Runs on a session from {@link ClusterOptions#connect}, whose
 * scan profile it uses.
 */
final class LedgerCheck {
    /** Long enough for the claims of clients killed just before the check to lapse (30 s) and be recovered. */
    static final Duration WAIT_DEFAULT = Duration.ofSeconds(40);
    /** The full scans (the sum and the pending transfers) may take a while on a large ledger. */
    private static final Duration SCAN_TIMEOUT = Duration.ofMinutes(10);
    private static final int PENDING_SHOWN_MAX = 5;

    private final CqlSession session;
    private final CqlIdentifier keyspace;
    private final Ledger ledger;
    private final ConsistencyLevel readConsistency;
    private final Consumer<String> out;

    LedgerCheck(CqlSession session, CqlIdentifier keyspace, Ledger ledger, ConsistencyLevel readConsistency, Consumer<String> out) {
        this.session = session;
        this.keyspace = keyspace;
        this.ledger = ledger;
        this.readConsistency = readConsistency;
        this.out = out;
    }

    /** Recovers, then checks; prints what it found and returns true if the ledger is consistent. */
    boolean run(Duration wait) throws InterruptedException {
        long left = recover(wait);
        String ks = keyspace.asCql(true);
        List<PopTotal> totals = PopTotals.all(session, ks, readConsistency);
        if (totals.isEmpty()) {
            out.accept("check: FAILED: " + ks + ".pop_totals records no accounts: run pop (and let it finish without errors) first");
            return false;
        }
        BigDecimal expected = totals.stream().map(PopTotal::balanceTotal).reduce(BigDecimal.ZERO, BigDecimal::add);
        long registered = totals.stream().mapToLong(PopTotal::accounts).sum();
        String seeds = totals.stream().map(t -> Long.toString(t.seed())).collect(Collectors.joining(", "));

        out.accept("check: summing the balances of " + ks + ".accounts");
        Row sumRow = session.execute(read("SELECT SUM(balance) FROM " + ks + ".accounts")).one();
        BigDecimal sum = sumRow == null || sumRow.isNull(0) ? BigDecimal.ZERO : sumRow.getBigDecimal(0);
        long accounts = 0;
        List<String> pending = new ArrayList<>();
        long pendingCount = 0;
        for (Row row : session.execute(read("SELECT bic, ban, pending_transfer, pending_amount FROM " + ks + ".accounts"))) {
            accounts++;
            if (row.isNull("pending_transfer")) continue;
            pendingCount++;
            if (pending.size() < PENDING_SHOWN_MAX)
                pending.add(row.getString("bic") + "/" + row.getString("ban") + " held by transfer " + row.getUuid("pending_transfer")
                        + " (pending amount " + row.getBigDecimal("pending_amount") + ")");
        }
        out.accept(String.format(Locale.ROOT, "check: total balance %s over %d accounts; pop recorded %s over %d accounts (seeds %s)",
                sum.toPlainString(), accounts, expected.toPlainString(), registered, seeds));

        boolean passed = true;
        if (sum.compareTo(expected) != 0) {
            out.accept("check: FAILED: the total balance is " + sum.toPlainString() + " but pop recorded " + expected.toPlainString()
                    + " (difference " + sum.subtract(expected).toPlainString() + ")"
                    + (accounts != registered ? "; there are " + accounts + " accounts where pop registered " + registered : ""));
            passed = false;
        }
        if (pendingCount > 0) {
            out.accept("check: FAILED: " + pendingCount + " accounts are still held by a transfer after recovery, e.g. " + String.join("; ", pending));
            passed = false;
        }
        if (left > 0) out.accept("check: " + left + " transfers are still held by live clients; they hold no account");
        if (passed) out.accept("check: passed: the balances add up to what pop recorded and no account is held by a transfer");
        return passed;
    }

    /** Recovery passes until no transfer is left or {@code wait} has passed; the transfers left. */
    private long recover(Duration wait) throws InterruptedException {
        long startNanos = System.nanoTime();
        long finished = 0;
        while (true) {
            RecoveryPass pass = ledger.recoverAbandoned();
            finished += pass.finished();
            long waitedNanos = System.nanoTime() - startNanos;
            if (pass.left() == 0 || waitedNanos >= wait.toNanos()) {
                out.accept(String.format(Locale.ROOT, "check: recovery finished %d abandoned transfers; %d left", finished, pass.left()));
                return pass.left();
            }
            out.accept(String.format(Locale.ROOT, "check: %d transfers held by live clients; waiting for them to finish or for their claims to lapse (%.0f s more at most)",
                    pass.left(), (wait.toNanos() - waitedNanos) / 1e9));
            Thread.sleep(Math.min(1_000, Math.max(1, (wait.toNanos() - waitedNanos) / 1_000_000)));
        }
    }

    private SimpleStatement read(String cql) {
        return SimpleStatement.newInstance(cql).setExecutionProfileName(ClusterOptions.SCAN_PROFILE).setConsistencyLevel(readConsistency).setTimeout(SCAN_TIMEOUT);
    }
}
