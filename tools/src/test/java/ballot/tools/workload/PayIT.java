package ballot.tools.workload;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.tools.TestNode;
import ballot.tools.ledger.Account;
import ballot.tools.ledger.Algorithm;
import com.datastax.oss.driver.api.core.CqlSession;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import picocli.CommandLine;

/** pop, pay and check through their command lines against a real node in this JVM. */
class PayIT {
    private static final Pattern COUNTERS = Pattern.compile(
            "pay: retries (\\d+) .*, lock conflicts (\\d+), balance conflicts (\\d+), recoveries (\\d+), stale locks released (\\d+)");
    private static TestNode node;
    private static CqlSession session;

    @BeforeAll
    static void startNode() {
        node = TestNode.start("pay");
        session = node.session();
    }

    @AfterAll
    static void stopNode() throws Exception {
        if (session != null) session.close();
        if (node != null) node.close();
    }

    /** What one command printed and returned. */
    record Run(int exitCode, String out, String err) {
        String line(String prefix) {
            return out.lines().filter(l -> l.startsWith(prefix)).findFirst().orElse("");
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n" + out + err;
        }
    }

    private static Run run(String command, String keyspace, String... options) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = Workload.commandLine();
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        String[] args = Stream.concat(Stream.of(command, "--hosts", node.hostPort(), "--keyspace", keyspace), Stream.of(options)).toArray(String[]::new);
        return new Run(cmd.execute(args), out.toString(), err.toString());
    }

    private static void pop(String keyspace, int accounts) {
        Run pop = run("pop", keyspace, "-n", Integer.toString(accounts), "-w", "8");
        assertThat(pop.exitCode()).as("%s", pop).isZero();
    }

    private static BigDecimal balanceSum(String keyspace) {
        return session.execute("SELECT sum(balance) FROM " + keyspace + ".accounts").one().getBigDecimal(0);
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void uniformPayKeepsTheTotalAndCheckPasses(Algorithm algorithm) {
        String keyspace = "pay_uniform_" + algorithm;
        pop(keyspace, 200);
        BigDecimal before = balanceSum(keyspace);
        Run pay = run("pay", keyspace, "-n", "300", "-w", "8", "--algorithm", algorithm.toString(), "--progress-interval", "200ms", "--check");
        assertThat(pay.exitCode()).as("%s", pay).isZero();
        assertThat(pay.out()).contains("pay: 300 transfers among accounts 0..199 of seed 0 in " + keyspace + ", uniform, algorithm " + algorithm + ", 8 workers");
        assertThat(pay.line("pay: 300 transfers in ")).contains("completed ").contains("overdraft ").contains("unresolved 0, errors 0;")
                .contains(" ops/s; latency ms p50 ");
        assertThat(pay.out()).contains("100.0% 300/300").contains("check: passed");
        assertThat(completed(pay)).isPositive();
        assertThat(balanceSum(keyspace)).isEqualByComparingTo(before);

        Run check = run("check", keyspace);
        assertThat(check.exitCode()).as("%s", check).isZero();
        assertThat(check.out()).contains("check: recovery finished 0 abandoned transfers; 0 left")
                .contains("check: total balance " + before.toPlainString() + " over 200 accounts; pop recorded " + before.toPlainString() + " over 200 accounts");
    }

    @ParameterizedTest
    @EnumSource(Algorithm.class)
    void zipfianPayContendsOnHotAccountsAndCheckPasses(Algorithm algorithm) {
        String keyspace = "pay_zipfian_" + algorithm;
        pop(keyspace, 100);
        BigDecimal before = balanceSum(keyspace);
        Run pay = run("pay", keyspace, "-n", "300", "-w", "8", "--zipfian", "--algorithm", algorithm.toString(), "--check");
        assertThat(pay.exitCode()).as("%s", pay).isZero();
        assertThat(pay.out()).contains("zipfian (theta 0.99)").contains("check: passed");
        assertThat(pay.line("pay: 300 transfers in ")).contains("errors 0;");
        assertThat(completed(pay)).isPositive();
        assertThat(balanceSum(keyspace)).isEqualByComparingTo(before);
        Matcher counters = COUNTERS.matcher(pay.line("pay: retries "));
        assertThat(counters.matches()).as("%s", pay).isTrue();
        // the hot accounts make transfers meet: lwt's at each other's locks, batch's at balances moved since their read
        if (algorithm == Algorithm.LWT) assertThat(Long.parseLong(counters.group(2))).as("lock conflicts").isPositive();
        if (algorithm == Algorithm.BATCH) assertThat(Long.parseLong(counters.group(3))).as("balance conflicts").isPositive();
    }

    @Test
    void checkFinishesATransferAKilledClientLeftAfterLockingOneAccount() {
        pop("pay_dead", 20);
        Accounts ledger = new Accounts(0);
        Account source = ledger.account(3);
        Account destination = ledger.account(4);
        BigDecimal sourceBefore = ledger.openingBalance(3);
        BigDecimal destinationBefore = ledger.openingBalance(4);
        BigDecimal amount = sourceBefore.min(new BigDecimal("12.34"));
        // what a client leaves when it is killed after locking the source: a registered transfer whose claim has lapsed
        UUID id = UUID.randomUUID();
        session.execute("INSERT INTO pay_dead.transfers (transfer_id, src_bic, src_ban, dst_bic, dst_ban, amount, state) VALUES (?, ?, ?, ?, ?, ?, 'new')",
                id, source.bic(), source.ban(), destination.bic(), destination.ban(), amount);
        session.execute("UPDATE pay_dead.accounts SET pending_transfer = ?, pending_amount = ? WHERE bic = ? AND ban = ?",
                id, amount.negate(), source.bic(), source.ban());

        Run check = run("check", "pay_dead");
        assertThat(check.exitCode()).as("%s", check).isZero();
        assertThat(check.out()).contains("check: recovery finished 1 abandoned transfers; 0 left").contains("check: passed");
        assertThat(balance("pay_dead", source)).isEqualByComparingTo(sourceBefore.subtract(amount));
        assertThat(balance("pay_dead", destination)).isEqualByComparingTo(destinationBefore.add(amount));
        assertThat(session.execute("SELECT count(*) FROM pay_dead.transfers").one().getLong(0)).isZero();
    }

    @Test
    void checkFailsWhenMoneyAppearsOrAnAccountStaysHeld() {
        pop("pay_broken", 20);
        Account account = new Accounts(0).account(7);
        BigDecimal opening = new Accounts(0).openingBalance(7);
        session.execute("UPDATE pay_broken.accounts SET balance = ? WHERE bic = ? AND ban = ?", opening.add(new BigDecimal("1.50")), account.bic(), account.ban());
        Run more = run("check", "pay_broken");
        assertThat(more.exitCode()).as("%s", more).isEqualTo(1);
        assertThat(more.out()).contains("check: FAILED: the total balance is ").contains("(difference 1.50)").doesNotContain("check: passed");

        session.execute("UPDATE pay_broken.accounts SET balance = ? WHERE bic = ? AND ban = ?", opening, account.bic(), account.ban());
        UUID stranger = UUID.randomUUID();
        session.execute("UPDATE pay_broken.accounts SET pending_transfer = ? WHERE bic = ? AND ban = ?", stranger, account.bic(), account.ban());
        Run held = run("check", "pay_broken");
        assertThat(held.exitCode()).as("%s", held).isEqualTo(1);
        assertThat(held.out()).contains("check: FAILED: 1 accounts are still held by a transfer after recovery, e.g. " + account + " held by transfer " + stranger)
                .doesNotContain("the total balance is");
    }

    @Test
    void payNeedsAccountsFromPop() {
        session.execute("CREATE KEYSPACE pay_empty WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        Run pay = run("pay", "pay_empty", "-n", "10");
        assertThat(pay.exitCode()).isEqualTo(1);
        assertThat(pay.out()).contains("pay: cannot read pay_empty.pop_totals (").contains("run pop first");

        pop("pay_seed", 10);
        Run otherSeed = run("pay", "pay_seed", "-n", "10", "--seed", "5");
        assertThat(otherSeed.exitCode()).isEqualTo(1);
        assertThat(otherSeed.out()).contains("pay: pay_seed.pop_totals records 0 accounts with seed 5; a transfer needs two: run pop first (with this --seed)");
    }

    private static BigDecimal balance(String keyspace, Account account) {
        return session.execute("SELECT balance FROM " + keyspace + ".accounts WHERE bic = ? AND ban = ?", account.bic(), account.ban()).one().getBigDecimal(0);
    }

    private static long completed(Run pay) {
        Matcher m = Pattern.compile("completed (\\d+)").matcher(pay.line("pay: 300 transfers in "));
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }
}
