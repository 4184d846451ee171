package ballot.tools.workload;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.tools.TestNode;
import ballot.tools.ledger.Account;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** pop through its command line against a real node in this JVM, on ephemeral ports over a temporary directory. */
class PopIT {
    private static final int ACCOUNTS = 500;
    private static TestNode node;

    @BeforeAll
    static void startNode() {
        node = TestNode.start("pop");
    }

    @AfterAll
    static void stopNode() throws Exception {
        if (node != null) node.close();
    }

    /** What one command printed and returned. */
    record Run(int exitCode, String out, String err) {
        String summary() {
            return out.lines().filter(l -> l.startsWith("pop: ") && l.contains(" ops/s; ")).findFirst().orElse("");
        }
    }

    private static Run pop(String keyspace, String... options) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = Workload.commandLine();
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        String[] args = Stream.concat(Stream.of("pop", "--hosts", node.hostPort(), "--keyspace", keyspace, "-n", Integer.toString(ACCOUNTS), "-w", "8",
                "--progress-interval", "200ms"), Stream.of(options)).toArray(String[]::new);
        return new Run(cmd.execute(args), out.toString(), err.toString());
    }


    @Test
    void registersEveryAccountOnceThenFindsThemAllDuplicates() {
        Run first = pop("pop_lwt");
        assertThat(first.exitCode()).as(first.out() + first.err()).isZero();
        assertThat(first.out()).contains("INSERT IF NOT EXISTS at SERIAL (commit QUORUM)").contains("100.0% 500/500");
        assertThat(first.summary()).startsWith("pop: 500 accounts in ").contains(": inserted 500, duplicates 0, errors 0;");
        Accounts ledger = new Accounts(0);
        String total = ledger.openingTotal(ACCOUNTS).toPlainString();
        assertThat(first.out()).contains("pop: recorded accounts 0..499 of seed 0, opening balances totalling " + total + ", in pop_lwt.pop_totals");

        Run second = pop("pop_lwt");
        assertThat(second.exitCode()).as(second.out() + second.err()).isZero();
        assertThat(second.summary()).contains(": inserted 0, duplicates 500, errors 0;");
        assertThat(second.out()).contains("pop: pop_lwt.pop_totals already records at least 500 accounts of seed 0; kept");

        try (CqlSession session = node.session()) {
            assertThat(session.execute("SELECT count(*) FROM pop_lwt.accounts").one().getLong(0)).isEqualTo(ACCOUNTS);
            Row recorded = session.execute("SELECT accounts, balance_total FROM pop_lwt.pop_totals WHERE seed = 0").one();
            assertThat(recorded.getLong("accounts")).isEqualTo(ACCOUNTS);
            assertThat(recorded.getBigDecimal("balance_total")).isEqualByComparingTo(total)
                    .isEqualByComparingTo(session.execute("SELECT sum(balance) FROM pop_lwt.accounts").one().getBigDecimal(0));
            for (long i = 0; i < ACCOUNTS; i += 50) {
                Account account = ledger.account(i);
                Row row = session.execute("SELECT balance, pending_amount, pending_transfer FROM pop_lwt.accounts WHERE bic = ? AND ban = ?",
                        account.bic(), account.ban()).one();
                assertThat(row).as("account %d", i).isNotNull();
                assertThat(row.getBigDecimal("balance")).isEqualByComparingTo(ledger.openingBalance(i));
                assertThat(row.getBigDecimal("pending_amount")).isZero();
                assertThat(row.getUuid("pending_transfer")).isNull();
            }
        }
    }

    @Test
    void quorumRunsThePlainInsertsWhichOverwrite() {
        Run first = pop("pop_quorum", "-c", "QUORUM");
        assertThat(first.exitCode()).as(first.out() + first.err()).isZero();
        assertThat(first.out()).contains("plain INSERT at QUORUM");
        assertThat(first.summary()).contains(": inserted 500, duplicates 0, errors 0;");

        Run second = pop("pop_quorum", "-c", "quorum");
        assertThat(second.summary()).as(second.err()).contains(": inserted 500, duplicates 0, errors 0;");
        try (CqlSession session = node.session()) {
            assertThat(session.execute("SELECT count(*) FROM pop_quorum.accounts").one().getLong(0)).isEqualTo(ACCOUNTS);
        }
    }
}
