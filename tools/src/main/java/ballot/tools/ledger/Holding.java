package ballot.tools.ledger;

import java.math.BigDecimal;
import java.util.UUID;

/**
 * An account as read by a transfer: its balance, the pending amount (the holder's change to the balance, 0 once the
 * holder has written the balance) and the transfer that holds it ({@code pendingTransfer}, null: none).
 */
record Holding(Account account, BigDecimal balance, BigDecimal pendingAmount, UUID pendingTransfer) {}
