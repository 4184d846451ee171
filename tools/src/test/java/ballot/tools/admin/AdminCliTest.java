package ballot.tools.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The CLI's own answers, without a node. */
class AdminCliTest {
    private static String run(int expectedExitCode, String... args) {
        StringWriter out = new StringWriter();
        var cmd = AdminCli.commandLine();
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(new StringWriter()));
        assertThat(cmd.execute(args)).isEqualTo(expectedExitCode);
        return out.toString();
    }

    @Test
    void helpListsEveryCommand() {
        assertThat(run(0, "--help")).contains("status", "ring", "info", "describecluster", "tablestats", "tablehistograms", "proxyhistograms",
                "getpaxos", "flush", "compact", "drain", "version", "settraceprobability", "gettraceprobability", "--json", "--host");
    }

    @Test
    void versionIsTheMavenProjectVersion() {
        assertThat(run(0, "--version").strip()).matches("ballot-admin \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
    }
}
