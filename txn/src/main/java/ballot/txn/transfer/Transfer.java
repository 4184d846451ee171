package ballot.txn.transfer;

import ballot.txn.Effect;
import ballot.txn.Operation;
import ballot.txn.Participant;
import ballot.txn.PartitionKey;
import ballot.txn.Transaction;
import ballot.txn.TxnId;
import ballot.txn.TxnResult;
import java.util.List;
import java.util.Objects;

/**
 * A ledger transfer as a transaction over account balances (docs/txn.md §9): the source is debited if it exists and
 * holds at least the amount, the destination credited if it exists, both or neither. An account's value is its
 * balance in minor units; null is "no such account".
 */
public record Transfer(TxnId id, PartitionKey source, PartitionKey destination, long amount) {
    public Transfer {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
        if (amount <= 0) throw new IllegalArgumentException("transfer amount is " + amount + "; must be positive");
    }

    /** A transfer to the same account is answered {@link TransferOutcome#SAME_ACCOUNT} without a transaction. */
    public boolean sameAccount() {
        return source.equals(destination);
    }

    /**
     * The transaction to submit; a retry must build it with the same {@code ageMicros}, {@code deadlineMicros} and
     * {@code home} (derive them from the id's time, or keep them with the id). The home may be the source's partition
     * (its record then shares the source's CAS round) or a row of a transfers table keyed by the id.
     */
    public Transaction<Long> transaction(long ageMicros, long deadlineMicros, PartitionKey home) {
        if (sameAccount()) throw new IllegalStateException("transfer " + id + " is to the same account; nothing to run");
        return new Transaction<>(id, ageMicros, deadlineMicros, home,
                List.of(new Participant<>(source, debit()), new Participant<>(destination, credit())));
    }

    Operation<Long> debit() {
        return balance -> balance == null ? Effect.refuse(TransferOutcome.SOURCE_NOT_FOUND.name())
                : balance < amount ? Effect.refuse(TransferOutcome.INSUFFICIENT_FUNDS.name())
                : Effect.put(balance - amount);
    }

    Operation<Long> credit() {
        return balance -> balance == null ? Effect.refuse(TransferOutcome.DESTINATION_NOT_FOUND.name())
                : Effect.put(Math.addExact(balance, amount));
    }

    /** The transfer's outcome from its transaction's result. */
    public static TransferOutcome outcome(TxnResult<Long> result) {
        return switch (result.outcome()) {
            case COMMITTED -> TransferOutcome.COMPLETED;
            case UNKNOWN -> TransferOutcome.TIMED_OUT_UNKNOWN;
            case ABORTED -> {
                TransferOutcome refused = TransferOutcome.valueOf(result.reason());
                if (refused != TransferOutcome.INSUFFICIENT_FUNDS && refused != TransferOutcome.SOURCE_NOT_FOUND
                        && refused != TransferOutcome.DESTINATION_NOT_FOUND)
                    throw new IllegalStateException("a transfer cannot be refused with " + refused);
                yield refused;
            }
        };
    }
}
