package ballot.tools.admin;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The node's versions (its {@code version} admin call) and the CLI's own. */
@Command(name = "version", description = "The node's Cassandra release_version and Ballot version, and this CLI's (like nodetool version).")
final class VersionCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    AdminCli parent;

    @Override
    public Integer call() {
        JsonNode node = parent.adminCalls().get("version", List.of());
        if (parent.json) {
            parent.printJson(Map.of("release_version", node.get("release_version").asText(), "ballot_version",
                    node.get("ballot_version").asText(), "cli_version", CliVersion.get()));
            return 0;
        }
        parent.out().println("ReleaseVersion: " + node.get("release_version").asText());
        parent.out().println("Ballot: " + node.get("ballot_version").asText());
        parent.out().println("Ballot CLI: " + CliVersion.get());
        parent.out().flush();
        return 0;
    }
}
