package ballot.tools.workload;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The banking workload, after lightest (docs in README.md, "Workload", and docs/workload.md): {@code pop} registers
 * accounts, {@code pay} makes transfers between them through a {@link ballot.tools.ledger.Ledger} with the chosen
 * algorithm, and {@code check} finishes abandoned transfers and checks that the balances still add up to what pop
 * registered. They share their options ({@link LoadOptions}, {@link ClusterOptions}), the seed's accounts
 * ({@link Accounts}) and the load loop ({@link BoundedLoad}).
 */
@Command(name = "ballot-workload", mixinStandardHelpOptions = true, subcommands = {Pop.class, Pay.class, Check.class, Overload.class},
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
