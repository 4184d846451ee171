package ballot.tools.ledger;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.UUID;

/** A row of {@code transfers}: the transfer, how far it got, and the client that claims it ({@code client} null: none). */
record TransferRow(UUID id, Account source, Account destination, BigDecimal amount, TransferState state, UUID client) {
    TransferRow {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(amount, "amount");
        Objects.requireNonNull(state, "state");
    }

    /** A transfer about to be registered. */
    static TransferRow fresh(UUID id, Account source, Account destination, BigDecimal amount) {
        return new TransferRow(id, source, destination, amount, TransferState.NEW, null);
    }

    /** The transfer this row registers. */
    Transfer transfer() {
        return new Transfer(id, source, destination, amount);
    }

    /** Same accounts and amount (the amount compared by value, so 5.0 and 5.00 are the same). */
    boolean sameTransferAs(TransferRow other) {
        return source.equals(other.source) && destination.equals(other.destination) && amount.compareTo(other.amount) == 0;
    }

    String details() {
        return amount.toPlainString() + " from " + source + " to " + destination;
    }
}
