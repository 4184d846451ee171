package ballot.tools.workload;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * lightest's pop(ulate): registers accounts 0..N-1 of the seed's ledger with {@code INSERT ... IF NOT EXISTS}, so an
 * account that exists already is left alone and counted as a duplicate. With a non-serial {@code -c} the same inserts
 * run without their condition, for comparing an LWT with a plain write.
 */
@Command(name = "pop", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Register bank accounts with INSERT ... IF NOT EXISTS; exit status 1 if any request failed.")
final class Pop implements Callable<Integer> {
    /** What registering one account came to. */
    enum Registration {
        INSERTED("inserted"), DUPLICATE("duplicates");

        private final String label;

        Registration(String label) {
            this.label = label;
        }

        @Override
        public String toString() {
            return label;
        }
    }

    @Option(names = {"-n", "--accounts"}, paramLabel = "N", defaultValue = "10000", description = "accounts to register (default ${DEFAULT-VALUE})")
    long accounts;

    @Option(names = "--rf", paramLabel = "RF", defaultValue = "1", description = "replication factor of the keyspace in --dc, if pop creates it (default ${DEFAULT-VALUE})")
    int replicationFactor;

    @Mixin
    LoadOptions load;

    @Mixin
    ClusterOptions cluster;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        if (accounts < 1) throw new ParameterException(spec.commandLine(), "--accounts is " + accounts + "; it must be at least 1");
        if (replicationFactor < 1) throw new ParameterException(spec.commandLine(), "--rf is " + replicationFactor + "; it must be at least 1");
        load.validate(spec);
        PrintWriter out = spec.commandLine().getOut();
        String keyspace = cluster.keyspaceCql();
        try (CqlSession session = cluster.connect(load.workers)) {
            Schema.create(session, keyspace, cluster.dataCenter, replicationFactor);
            PreparedStatement insert = session.prepare(Schema.insertAccount(keyspace, load.conditional()));
            Accounts ledger = new Accounts(load.seed);
            String statements = load.conditional()
                    ? "INSERT IF NOT EXISTS at " + load.consistency + " (commit " + load.writeConsistency() + ")"
                    : "plain INSERT at " + load.consistency;
            print(out, String.format(Locale.ROOT, "pop: registering %d accounts in %s.accounts with %d workers, %s, seed %d",
                    accounts, keyspace, load.workers, statements, load.seed));
            LoadResult<Registration> result = load.boundedLoad(line -> print(out, line))
                    .run(accounts, Registration.class, index -> register(session, insert, ledger.account(index)));
            print(out, Report.summary("pop", "accounts", result));
            PrintWriter err = spec.commandLine().getErr();
            Report.errors(result).forEach(err::println);
            err.flush();
            return result.errorCount() == 0 ? 0 : 1;
        }
    }

    private CompletionStage<Registration> register(CqlSession session, PreparedStatement insert, Account account) {
        BoundStatementBuilder statement = insert.boundStatementBuilder(account.bic(), account.ban(), account.balance())
                .setConsistencyLevel(load.writeConsistency());
        if (load.conditional()) statement.setSerialConsistencyLevel(load.consistency);
        // wasApplied() is false only when the condition failed: the account was there already
        return session.executeAsync(statement.build()).thenApply(rs -> rs.wasApplied() ? Registration.INSERTED : Registration.DUPLICATE);
    }

    private static void print(PrintWriter out, String line) {
        out.println(line);
        out.flush();
    }
}
