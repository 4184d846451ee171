package ballot.tools.ledger;

import java.util.Locale;

/**
 * How far a transfer of the lwt algorithm got, as its row's {@code state} says (lightest's values). {@code new}: the
 * transfer is registered; it may hold some of its locks. {@code locked}: with no outcome recorded, it holds both
 * accounts, and their balances may be partly written; with an outcome recorded, that outcome's writes are done.
 * {@code complete}: its outcome is recorded and its balances written; what remains is releasing the locks and
 * deleting the row.
 */
enum TransferState {
    NEW, LOCKED, COMPLETE;

    /** The value in the {@code state} column. */
    String cql() {
        return name().toLowerCase(Locale.ROOT);
    }

    static TransferState of(String cql, Object transfer) {
        if (cql != null) {
            for (TransferState s : values()) if (s.cql().equals(cql)) return s;
        }
        throw new IllegalStateException("transfer " + transfer + " has state '" + cql + "'; expected new, locked or complete");
    }
}
