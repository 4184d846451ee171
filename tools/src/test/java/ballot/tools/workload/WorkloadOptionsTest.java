package ballot.tools.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.tools.ledger.Algorithm;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.TypeConversionException;

class WorkloadOptionsTest {
    private static Pop parsePop(String... args) {
        ParseResult parsed = Workload.commandLine().parseArgs(args);
        return (Pop) parsed.subcommand().commandSpec().userObject();
    }

    private static Pay parsePay(String... args) {
        return (Pay) Workload.commandLine().parseArgs(args).subcommand().commandSpec().userObject();
    }

    private static Check parseCheck(String... args) {
        return (Check) Workload.commandLine().parseArgs(args).subcommand().commandSpec().userObject();
    }

    /** The exit code and what the command printed on stderr. */
    private static Map.Entry<Integer, String> execute(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cmd = Workload.commandLine();
        cmd.setErr(new PrintWriter(err));
        return Map.entry(cmd.execute(args), err.toString());
    }

    @Test
    void popDefaults() {
        Pop pop = parsePop("pop");
        assertThat(pop.accounts).isEqualTo(10_000);
        assertThat(pop.replicationFactor).isEqualTo(1);
        assertThat(pop.load.workers).isEqualTo(Runtime.getRuntime().availableProcessors() * 4);
        assertThat(pop.load.consistency).isEqualTo(DefaultConsistencyLevel.SERIAL);
        assertThat(pop.load.conditional()).isTrue();
        assertThat(pop.load.writeConsistency()).isEqualTo(DefaultConsistencyLevel.QUORUM);
        assertThat(pop.load.seed).isZero();
        assertThat(pop.load.duration).isNull();
        assertThat(pop.load.progressInterval).isEqualTo(Duration.ofSeconds(1));
        assertThat(pop.cluster.hosts).containsExactly(new InetSocketAddress("127.0.0.1", 9042));
        assertThat(pop.cluster.dataCenter).isEqualTo("datacenter1");
        assertThat(pop.cluster.keyspaceCql()).isEqualTo("lightest");
    }

    @Test
    void popOptions() {
        Pop pop = parsePop("pop", "-n", "500", "-w", "8", "--hosts", "127.0.0.1,127.0.0.2:9043", "-c", "quorum", "--seed", "7",
                "--duration", "10s", "--progress-interval", "250ms", "--rf", "3", "--dc", "dc2", "--keyspace", "Bank");
        assertThat(pop.accounts).isEqualTo(500);
        assertThat(pop.load.workers).isEqualTo(8);
        assertThat(pop.cluster.hosts).containsExactly(new InetSocketAddress("127.0.0.1", 9042), new InetSocketAddress("127.0.0.2", 9043));
        assertThat(pop.load.consistency).isEqualTo(DefaultConsistencyLevel.QUORUM);
        assertThat(pop.load.conditional()).isFalse();
        assertThat(pop.load.writeConsistency()).isEqualTo(DefaultConsistencyLevel.QUORUM);
        assertThat(pop.load.seed).isEqualTo(7);
        assertThat(pop.load.duration).isEqualTo(Duration.ofSeconds(10));
        assertThat(pop.load.progressInterval).isEqualTo(Duration.ofMillis(250));
        assertThat(pop.replicationFactor).isEqualTo(3);
        assertThat(pop.cluster.dataCenter).isEqualTo("dc2");
        assertThat(pop.cluster.keyspaceCql()).isEqualTo("\"Bank\"");
    }

    @Test
    void localSerialCommitsAtLocalQuorum() {
        Pop pop = parsePop("pop", "-c", "LOCAL_SERIAL");
        assertThat(pop.load.conditional()).isTrue();
        assertThat(pop.load.writeConsistency()).isEqualTo(DefaultConsistencyLevel.LOCAL_QUORUM);
    }

    @Test
    void rejectsUnknownConsistency() {
        assertThatThrownBy(() -> parsePop("pop", "-c", "MOST")).isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("MOST");
    }

    @Test
    void rejectsBadValuesBeforeConnecting() {
        for (String[] args : new String[][] {{"pop", "--workers", "0"}, {"pop", "--accounts", "0"}, {"pop", "--rf", "0"}, {"pop", "--duration", "0s"}}) {
            StringWriter err = new StringWriter();
            CommandLine cmd = Workload.commandLine();
            cmd.setErr(new PrintWriter(err));
            assertThat(cmd.execute(args)).as(String.join(" ", args)).isEqualTo(2);
            assertThat(err.toString()).as(String.join(" ", args)).contains(args[1]).contains("must be");
        }
    }

    @Test
    void payDefaultsAndOptions() {
        Pay pay = parsePay("pay");
        assertThat(pay.transfers).isEqualTo(10_000);
        assertThat(pay.zipfian).isFalse();
        assertThat(pay.algorithm).isEqualTo(Algorithm.LWT);
        assertThat(pay.check).isFalse();
        assertThat(pay.load.consistency).isEqualTo(DefaultConsistencyLevel.SERIAL);
        assertThat(pay.cluster.keyspaceCql()).isEqualTo("lightest");

        pay = parsePay("pay", "-n", "50", "-w", "4", "--zipfian", "--algorithm", "LWT", "--check", "--seed", "3", "--duration", "5s", "-c", "local_serial",
                "--keyspace", "bank", "--hosts", "127.0.0.2");
        assertThat(pay.transfers).isEqualTo(50);
        assertThat(pay.load.workers).isEqualTo(4);
        assertThat(pay.zipfian).isTrue();
        assertThat(pay.algorithm).isEqualTo(Algorithm.LWT);
        assertThat(pay.check).isTrue();
        assertThat(pay.load.seed).isEqualTo(3);
        assertThat(pay.load.duration).isEqualTo(Duration.ofSeconds(5));
        assertThat(pay.load.quorumConsistency()).isEqualTo(DefaultConsistencyLevel.LOCAL_QUORUM);
        assertThat(pay.cluster.keyspaceCql()).isEqualTo("bank");
        assertThat(pay.cluster.hosts).containsExactly(new InetSocketAddress("127.0.0.2", 9042));
    }

    @Test
    void payRefusesBadValuesBeforeConnecting() {
        for (String[] args : new String[][] {{"pay", "--transfers", "0"}, {"pay", "--workers", "0"}, {"pay", "--duration", "0s"}}) {
            Map.Entry<Integer, String> run = execute(args);
            assertThat(run.getKey()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(run.getValue()).as(String.join(" ", args)).contains(args[1]).contains("must be");
        }
        Map.Entry<Integer, String> quorum = execute("pay", "-c", "QUORUM");
        assertThat(quorum.getKey()).isEqualTo(2);
        assertThat(quorum.getValue()).contains("--consistency is QUORUM; pay's statements are conditional, so it must be SERIAL or LOCAL_SERIAL");
        assertThat(execute("pay", "--algorithm", "paxos").getValue()).contains("--algorithm").contains("paxos");
    }

    @Test
    void payTakesEveryAlgorithmByItsName() {
        assertThat(parsePay("pay", "--algorithm", "lwt").algorithm).isEqualTo(Algorithm.LWT);
        assertThat(parsePay("pay", "--algorithm", "batch").algorithm).isEqualTo(Algorithm.BATCH);
        assertThat(parsePay("pay", "--algorithm", "txn").algorithm).isEqualTo(Algorithm.TXN);
    }

    @Test
    void checkDefaultsAndBadValues() {
        Check check = parseCheck("check");
        assertThat(check.consistency).isEqualTo(DefaultConsistencyLevel.SERIAL);
        assertThat(check.wait).isEqualTo(Duration.ofSeconds(40)).isEqualTo(LedgerCheck.WAIT_DEFAULT);
        assertThat(parseCheck("check", "--wait", "0s", "--keyspace", "bank").wait).isZero();
        Map.Entry<Integer, String> quorum = execute("check", "-c", "QUORUM");
        assertThat(quorum.getKey()).isEqualTo(2);
        assertThat(quorum.getValue()).contains("--consistency is QUORUM; it must be SERIAL or LOCAL_SERIAL");
    }

    @Test
    void hostsTakeDefaultPortAndBracketedV6() {
        HostPortConverter hosts = new HostPortConverter();
        assertThat(hosts.convert("127.0.0.3")).isEqualTo(new InetSocketAddress("127.0.0.3", 9042));
        assertThat(hosts.convert("127.0.0.3:19042")).isEqualTo(new InetSocketAddress("127.0.0.3", 19042));
        assertThat(hosts.convert("[::1]")).isEqualTo(new InetSocketAddress("::1", 9042));
        assertThat(hosts.convert("[::1]:9043")).isEqualTo(new InetSocketAddress("::1", 9043));
        for (String bad : new String[] {"127.0.0.1:port", "127.0.0.1:0", "127.0.0.1:70000", ":9042", "::1", "[::1", "[::1]9042"})
            assertThatThrownBy(() -> hosts.convert(bad)).as(bad).isInstanceOf(TypeConversionException.class).hasMessageContaining(bad);
    }

    @Test
    void durationsTakeUnitsOrIso() {
        DurationConverter durations = new DurationConverter();
        assertThat(durations.convert("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(durations.convert("1.5s")).isEqualTo(Duration.ofMillis(1_500));
        assertThat(durations.convert("10m")).isEqualTo(Duration.ofMinutes(10));
        assertThat(durations.convert("2h")).isEqualTo(Duration.ofHours(2));
        assertThat(durations.convert("PT30S")).isEqualTo(Duration.ofSeconds(30));
        assertThatThrownBy(() -> durations.convert("10x")).isInstanceOf(TypeConversionException.class).hasMessageContaining("10x");
    }
}
