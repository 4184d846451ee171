package ballot.tools.ledger;

import ballot.txn.transfer.TransferOutcome;
import java.util.UUID;

/** What one attempt of a batch or txn transfer ({@link TransferAttempts}) came to. */
sealed interface Attempt {
    /** The transfer's final outcome: it completed in this attempt, or its outcome was recorded before. */
    record Decided(TransferOutcome outcome) implements Attempt {}

    /** Refused from what the attempt read (an account missing, the funds short); nothing written. Final once recorded. */
    record Refused(TransferOutcome outcome) implements Attempt {}

    /** An lwt transfer ({@code holder}) holds {@code account}; nothing written. Try again once it lets go. */
    record Held(Account account, UUID holder) implements Attempt {}

    /** A balance changed between the read and the conditional batch (another transfer moved it); nothing written. Read again. */
    record Stale() implements Attempt {}
}
