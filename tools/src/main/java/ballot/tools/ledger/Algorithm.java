package ballot.tools.ledger;

import java.util.Locale;

/** How a {@link Ledger} makes a transfer (docs/workload.md §3, §6). */
public enum Algorithm {
    /**
     * The client-side algorithm of ScyllaDB's lightweight-transaction article (lightest): about ten conditional
     * statements, each on one partition, with a transfer record that lets any client finish a transfer whose client is
     * gone. Works against any Cassandra-compatible database with LWT.
     */
    LWT,
    /**
     * A read of both accounts, then one conditional BATCH over both accounts and the outcome, retried when a balance
     * moved in between; needs a server that runs a conditional batch over several partitions atomically (Ballot).
     */
    BATCH,
    /** One {@code BEGIN TRANSACTION ... COMMIT TRANSACTION} statement (Cassandra 6.0's syntax); needs Ballot's transactions. */
    TXN;

    /** The name on the command line: {@code lwt}, {@code batch}, {@code txn}. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
