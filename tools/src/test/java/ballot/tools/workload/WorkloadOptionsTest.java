package ballot.tools.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.TypeConversionException;

class WorkloadOptionsTest {
    private static Pop parsePop(String... args) {
        ParseResult parsed = Workload.commandLine().parseArgs(args);
        return (Pop) parsed.subcommand().commandSpec().userObject();
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
