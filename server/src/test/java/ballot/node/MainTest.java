package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MainTest {
    @Test
    void helpListsEveryOptionAndTheYamlConfig() {
        String help = Main.answerWithoutStarting(new String[] {"--port", "9043", "--help"});
        assertThat(help).contains("--config FILE", "--data DIR", "--address IP", "--port N", "--storage-port N", "--metrics-port N",
                "--help", "--version", "YAML");
        // Every option parse() takes is in the usage.
        for (String option : new String[] {"--config", "--data", "--address", "--port", "--storage-port", "--metrics-port"})
            assertThat(help).contains(option + " ");
    }

    @Test
    void versionIsTheMavenProjectVersion() {
        assertThat(BallotVersion.get()).matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
        assertThat(Main.answerWithoutStarting(new String[] {"--version"})).startsWith("Ballot " + BallotVersion.get() + " ");
    }

    @Test
    void startsANodeWithoutHelpOrVersion() {
        assertThat(Main.answerWithoutStarting(new String[] {"--port", "9043"})).isNull();
    }
}
