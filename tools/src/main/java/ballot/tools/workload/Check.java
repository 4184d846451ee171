package ballot.tools.workload;

import ballot.tools.ledger.Ledger;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The ledger check alone ({@link LedgerCheck}); {@code pay --check} runs the same after its transfers. */
@Command(name = "check", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Finish abandoned transfers, then check that the balances add up to what pop registered and that no account "
                + "is held by a transfer; exit status 1 if not.")
final class Check implements Callable<Integer> {
    @Option(names = {"-c", "--consistency"}, defaultValue = "SERIAL", paramLabel = "LEVEL",
            description = "SERIAL or LOCAL_SERIAL: the serial consistency of recovery's conditional statements; reads and commits run at "
                    + "QUORUM or LOCAL_QUORUM to match (default ${DEFAULT-VALUE})")
    DefaultConsistencyLevel consistency;

    @Option(names = "--wait", paramLabel = "DURATION", defaultValue = "40s", converter = DurationConverter.class,
            description = "how long to wait for transfers held by live clients to finish, or for their claims (30 s) to lapse (default ${DEFAULT-VALUE})")
    Duration wait;

    @Mixin
    ClusterOptions cluster;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        if (!consistency.isSerial()) throw new ParameterException(spec.commandLine(), "--consistency is " + consistency + "; it must be SERIAL or LOCAL_SERIAL");
        if (wait.isNegative()) throw new ParameterException(spec.commandLine(), "--wait is " + wait + "; it must not be negative");
        PrintWriter out = spec.commandLine().getOut();
        try (CqlSession session = cluster.connect(1)) {
            Ledger ledger = Ledger.builder(session).keyspace(cluster.keyspaceId()).serialConsistency(consistency).build();
            DefaultConsistencyLevel reads = consistency == DefaultConsistencyLevel.LOCAL_SERIAL ? DefaultConsistencyLevel.LOCAL_QUORUM : DefaultConsistencyLevel.QUORUM;
            boolean passed = new LedgerCheck(session, cluster.keyspaceId(), ledger, reads, line -> {
                out.println(line);
                out.flush();
            }).run(wait);
            return passed ? 0 : 1;
        }
    }
}
