package ballot.tools.ledger;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.UUID;

/** What a caller asks of {@link Ledger#transfer}: move {@code amount} (positive) from {@code source} to {@code destination}, once. */
record Transfer(UUID id, Account source, Account destination, BigDecimal amount) {
    Transfer {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(amount, "amount");
        if (amount.signum() <= 0) throw new IllegalArgumentException("amount of transfer " + id + " is " + amount.toPlainString() + "; it must be positive");
    }

    boolean isWithinOneAccount() {
        return source.equals(destination);
    }

    /** The source's balance after the transfer, from its balance before. */
    BigDecimal debit(BigDecimal sourceBalance) {
        return sourceBalance.subtract(amount);
    }

    /** The destination's balance after the transfer, from its balance before. */
    BigDecimal credit(BigDecimal destinationBalance) {
        return destinationBalance.add(amount);
    }

    String details() {
        return amount.toPlainString() + " from " + source + " to " + destination;
    }
}
