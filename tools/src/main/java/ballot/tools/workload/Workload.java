package ballot.tools.workload;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The banking workload, after lightest (docs in README.md, "Workload"): {@code pop} registers accounts; {@code pay}
 * and {@code check} are to join it as further subcommands over the same options, accounts and load loop.
 */
@Command(name = "ballot-workload", mixinStandardHelpOptions = true, subcommands = Pop.class,
        description = "A lightest-style banking workload against a Ballot or Cassandra cluster.")
public final class Workload {
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line with its subcommands; a failure while running prints one line instead of a stack trace. */
    static CommandLine commandLine() {
        CommandLine cmd = new CommandLine(new Workload());
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        cmd.setExecutionExceptionHandler((e, failed, parsed) -> {
            failed.getErr().println(failed.getCommandName() + ": " + e.getClass().getSimpleName() + ": " + e.getMessage());
            return 1;
        });
        return cmd;
    }
}
