package ballot.tools.ledger;

import java.util.Locale;

/** How a {@link Ledger} makes a transfer. */
public enum Algorithm {
    /**
     * The client-side algorithm of ScyllaDB's lightweight-transaction article (lightest): about ten conditional
     * statements, each on one partition, with a transfer record that lets any client finish a transfer whose client is
     * gone. Works against any Cassandra-compatible database with LWT.
     */
    LWT,
    /** One conditional BATCH spanning both accounts, after a read; needs the server's multi-partition conditional BATCH. */
    BATCH,
    /** One {@code BEGIN TRANSACTION ... COMMIT TRANSACTION} statement; needs the server's transactions (Cassandra 6.0 syntax). */
    TXN;

    /** The name on the command line: {@code lwt}, {@code batch}, {@code txn}. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Throws {@link UnsupportedOperationException}, saying why, unless a ledger can be built with this algorithm. */
    public void requireAvailable() {
        switch (this) {
            case LWT -> { }
            case BATCH -> throw new UnsupportedOperationException("algorithm batch is not available yet: it needs the server's "
                    + "multi-partition conditional BATCH (issue 10)");
            case TXN -> throw new UnsupportedOperationException("algorithm txn is not available yet: it needs the server's "
                    + "BEGIN TRANSACTION (issue 10)");
        }
    }
}
