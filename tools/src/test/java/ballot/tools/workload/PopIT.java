package ballot.tools.workload;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.node.BallotNode;
import ballot.node.NodeConfig;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** pop through its command line against a real node in this JVM, on ephemeral ports over a temporary directory. */
class PopIT {
    private static final int ACCOUNTS = 500;
    private static Path directory;
    private static BallotNode node;

    @BeforeAll
    static void startNode() throws IOException {
        directory = Files.createTempDirectory("ballot-pop");
        NodeConfig config = new NodeConfig();
        config.dataDirectory = directory.resolve("data").toString();
        config.nativeTransportPort = 0;
        config.storagePort = 0;
        config.metricsPort = 0;
        config.requestThreads = 8;
        node = BallotNode.start(config);
    }

    @AfterAll
    static void stopNode() throws IOException {
        if (node != null) node.close();
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
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
        String host = node.address().getAddress().getHostAddress() + ":" + node.address().getPort();
        String[] args = Stream.concat(Stream.of("pop", "--hosts", host, "--keyspace", keyspace, "-n", Integer.toString(ACCOUNTS), "-w", "8",
                "--progress-interval", "200ms"), Stream.of(options)).toArray(String[]::new);
        return new Run(cmd.execute(args), out.toString(), err.toString());
    }

    private static CqlSession session() {
        return CqlSession.builder().addContactPoint(node.address()).withLocalDatacenter("datacenter1").build();
    }

    @Test
    void registersEveryAccountOnceThenFindsThemAllDuplicates() {
        Run first = pop("pop_lwt");
        assertThat(first.exitCode()).as(first.out() + first.err()).isZero();
        assertThat(first.out()).contains("INSERT IF NOT EXISTS at SERIAL (commit QUORUM)").contains("100.0% 500/500");
        assertThat(first.summary()).startsWith("pop: 500 accounts in ").contains(": inserted 500, duplicates 0, errors 0;");

        Run second = pop("pop_lwt");
        assertThat(second.exitCode()).as(second.out() + second.err()).isZero();
        assertThat(second.summary()).contains(": inserted 0, duplicates 500, errors 0;");

        Accounts ledger = new Accounts(0);
        try (CqlSession session = session()) {
            assertThat(session.execute("SELECT count(*) FROM pop_lwt.accounts").one().getLong(0)).isEqualTo(ACCOUNTS);
            for (long i = 0; i < ACCOUNTS; i += 50) {
                Account account = ledger.account(i);
                Row row = session.execute("SELECT balance, pending_amount, pending_transfer FROM pop_lwt.accounts WHERE bic = ? AND ban = ?",
                        account.bic(), account.ban()).one();
                assertThat(row).as("account %d", i).isNotNull();
                assertThat(row.getBigDecimal("balance")).isEqualByComparingTo(account.balance());
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
        try (CqlSession session = session()) {
            assertThat(session.execute("SELECT count(*) FROM pop_quorum.accounts").one().getLong(0)).isEqualTo(ACCOUNTS);
        }
    }
}
