package ballot.tools.workload;

import ballot.tools.ledger.Account;
import ballot.tools.workload.PopTotals.PopTotal;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.io.PrintWriter;
import java.math.BigDecimal;
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
 * run without their condition, for comparing an LWT with a plain write. A run in which every request succeeded
 * records its accounts and their opening balances' total in {@link PopTotals}, for pay and check.
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
            Schema.create(session, cluster.keyspaceId(), cluster.dataCenter, replicationFactor);
            PreparedStatement insert = session.prepare(Schema.insertAccount(keyspace, load.conditional()));
            Accounts ledger = new Accounts(load.seed);
            String statements = load.conditional()
                    ? "INSERT IF NOT EXISTS at " + load.consistency + " (commit " + load.writeConsistency() + ")"
                    : "plain INSERT at " + load.consistency;
            print(out, String.format(Locale.ROOT, "pop: registering %d accounts in %s.accounts with %d workers, %s, seed %d",
                    accounts, keyspace, load.workers, statements, load.seed));
            LoadResult<Registration> result = load.boundedLoad(line -> print(out, line))
                    .run(accounts, Registration.class, index -> register(session, insert, ledger.account(index), ledger.openingBalance(index)));
            print(out, Report.summary("pop", "accounts", result));
            PrintWriter err = spec.commandLine().getErr();
            Report.errors(result).forEach(err::println);
            err.flush();
            if (result.errorCount() > 0) {
                print(out, "pop: " + result.errorCount() + " requests failed, so some accounts may be missing: not recording the total; run pop again");
                return 1;
            }
            recordTotal(session, keyspace, ledger, result.completed(), out);
            return 0;
        }
    }

    /** Every account 0..registered-1 is there: records them and their opening total, unless more are recorded already. */
    private void recordTotal(CqlSession session, String keyspace, Accounts ledger, long registered, PrintWriter out) {
        PopTotal total = new PopTotal(load.seed, registered, ledger.openingTotal(registered));
        if (PopTotals.recordIfLarger(session, keyspace, total, load.serialConsistency(), load.quorumConsistency()))
            print(out, String.format(Locale.ROOT, "pop: recorded accounts 0..%d of seed %d, opening balances totalling %s, in %s.pop_totals",
                    registered - 1, load.seed, total.balanceTotal().toPlainString(), keyspace));
        else
            print(out, String.format(Locale.ROOT, "pop: %s.pop_totals already records at least %d accounts of seed %d; kept", keyspace, registered, load.seed));
    }

    private CompletionStage<Registration> register(CqlSession session, PreparedStatement insert, Account account, BigDecimal balance) {
        BoundStatementBuilder statement = insert.boundStatementBuilder(account.bic(), account.ban(), balance)
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
