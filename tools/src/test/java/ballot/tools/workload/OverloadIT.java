package ballot.tools.workload;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.tools.TestNode;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * The overload benchmark's load generator through its command line against a real node, with either client: every
 * kind of its mix is sent and answered, and its transfers are transactions that move money between accounts and keep
 * the total.
 */
class OverloadIT {
    private static final int ACCOUNTS = 50;

    @ParameterizedTest
    @ValueSource(strings = {"driver", "raw"})
    void sendsTheWholeMixAndItsTransfersKeepTheTotal(String client) throws Exception {
        try (TestNode node = TestNode.start("overload-" + client)) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CommandLine cmd = Workload.commandLine();
            cmd.setOut(new PrintWriter(out));
            cmd.setErr(new PrintWriter(err));
            int exit = cmd.execute("overload", "--hosts", node.hostPort(), "--keyspace", "ovl", "--rate", "200", "--duration", "3s",
                    "--mix", "plain=1,read=1,lwt=1,hot=1,transfer=3", "--accounts", Integer.toString(ACCOUNTS), "--progress-interval", "1s",
                    "--client", client);
            assertThat(exit).as(out + err.toString()).isZero();
            assertThat(out.toString()).contains("overload: opened accounts 0..49 in ovl.overload_accounts with 1000000 each")
                    .contains("overload: summary after").contains("errors 0, not sent 0");
            for (String kind : new String[] {"plain", "read", "lwt", "hot", "transfer"})
                assertThat(out.toString()).as(out.toString()).contains("overload: " + kind + " goodput latency ms:");

            try (CqlSession session = node.session()) {
                long total = 0;
                int moved = 0;
                for (Row row : session.execute("SELECT balance FROM ovl.overload_accounts")) {
                    total += row.getLong("balance");
                    if (row.getLong("balance") != 1_000_000) moved++;
                }
                assertThat(total).as("the accounts' total").isEqualTo(ACCOUNTS * 1_000_000L);
                assertThat(moved).as("accounts a transfer moved money from or to").isPositive();
            }
        }
    }
}
