package ballot.tools.ledger;

import ballot.txn.transfer.TransferOutcome;
import ballot.tools.ledger.Attempt.Decided;
import ballot.tools.ledger.Attempt.Held;
import ballot.tools.ledger.Attempt.Refused;
import ballot.tools.ledger.Attempt.Stale;
import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import java.math.BigDecimal;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

/**
 * The batch algorithm (docs/workload.md §6.2). An attempt reads the recorded outcome (at the quorum level) and both
 * accounts (SERIAL) in parallel, decides from them, and to complete the transfer sends one conditional BATCH over three
 * partitions, which Ballot runs as one transaction (docs/txn.md §11.2): the outcome {@code COMPLETED}
 * {@code IF NOT EXISTS}, first, so that the transaction's record lives on a partition nobody else uses; the source's
 * and the destination's new balances, each {@code IF balance = <the balance read> AND pending_transfer = null}. So the
 * money moves iff no outcome was recorded and neither account changed, nor was locked by an lwt transfer, since it was
 * read: the balances written are the balances read, moved by the amount. Two round trips.
 */
final class BatchAttempts implements TransferAttempts {
    private final CqlSession session;
    private final ConsistencyLevel serial;
    private final ConsistencyLevel quorum;
    private final TransferOutcomes outcomes;
    private final PreparedStatement readAccount;
    private final PreparedStatement writeBalance;

    BatchAttempts(CqlSession session, CqlIdentifier keyspace, ConsistencyLevel serial, ConsistencyLevel quorum, TransferOutcomes outcomes) {
        this.session = session;
        this.serial = serial;
        this.quorum = quorum;
        this.outcomes = outcomes;
        String accounts = keyspace.asCql(true) + ".accounts";
        readAccount = session.prepare("SELECT balance, pending_amount, pending_transfer FROM " + accounts + " WHERE bic = ? AND ban = ?");
        writeBalance = session.prepare("UPDATE " + accounts + " SET balance = ? WHERE bic = ? AND ban = ? IF balance = ? AND pending_transfer = null");
    }

    @Override
    public Attempt make(Transfer transfer) throws InterruptedException {
        CompletionStage<Optional<RecordedOutcome>> recorded = outcomes.read(transfer.id());
        CompletionStage<Optional<Holding>> sourceRead = read(transfer.source());
        CompletionStage<Optional<Holding>> destinationRead = read(transfer.destination());
        Optional<RecordedOutcome> outcome = await(recorded);
        if (outcome.isPresent()) return new Decided(outcome.get().of(transfer));
        Optional<Holding> source = await(sourceRead);
        Optional<Holding> destination = await(destinationRead);
        if (source.isEmpty()) return new Refused(TransferOutcome.SOURCE_NOT_FOUND);
        if (destination.isEmpty()) return new Refused(TransferOutcome.DESTINATION_NOT_FOUND);
        if (source.get().pendingTransfer() != null) return new Held(transfer.source(), source.get().pendingTransfer());
        if (destination.get().pendingTransfer() != null) return new Held(transfer.destination(), destination.get().pendingTransfer());
        BigDecimal sourceBalance = source.get().balance();
        BigDecimal destinationBalance = destination.get().balance();
        if (sourceBalance.compareTo(transfer.amount()) < 0) return new Refused(TransferOutcome.INSUFFICIENT_FUNDS);
        return complete(transfer, sourceBalance, destinationBalance);
    }

    /**
     * The conditional batch: completes the transfer iff it has no recorded outcome and the accounts, held by no lwt
     * transfer, have the balances given (as read).
     */
    Attempt complete(Transfer transfer, BigDecimal sourceBalance, BigDecimal destinationBalance) {
        ResultSet answer = session.execute(BatchStatement.newInstance(BatchType.LOGGED,
                        outcomes.recordIfAbsent(transfer, TransferOutcome.COMPLETED),
                        writeBalance.bind(transfer.debit(sourceBalance), transfer.source().bic(), transfer.source().ban(), sourceBalance),
                        writeBalance.bind(transfer.credit(destinationBalance), transfer.destination().bic(), transfer.destination().ban(), destinationBalance))
                .setConsistencyLevel(quorum).setSerialConsistencyLevel(serial));
        if (answer.wasApplied()) return new Decided(TransferOutcome.COMPLETED);
        // Not applied: the answer holds the conditioned rows as the conditions saw them. With an outcome row, a call with
        // the same id recorded the outcome since the read; otherwise a balance moved or an lwt transfer locked an account.
        for (Row row : answer) {
            Optional<RecordedOutcome> since = TransferOutcomes.recorded(row, "");
            if (since.isPresent()) return new Decided(since.get().of(transfer));
        }
        return new Stale();
    }

    /** The account as a linearizable read sees it (an LWT or a transaction in progress on it is finished first); empty if it does not exist. */
    private CompletionStage<Optional<Holding>> read(Account account) {
        return session.executeAsync(readAccount.bind(account.bic(), account.ban()).setConsistencyLevel(serial)).thenApply(AsyncResultSet::one)
                .thenApply(row -> row == null || row.isNull("balance") ? Optional.empty()
                        : Optional.of(new Holding(account, row.getBigDecimal("balance"), row.getBigDecimal("pending_amount"), row.getUuid("pending_transfer"))));
    }

    /** The stage's value; a driver error it failed with is thrown again from here. */
    private static <T> T await(CompletionStage<T> stage) throws InterruptedException {
        try {
            return stage.toCompletableFuture().get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof DriverException driver) throw driver.copy();
            if (e.getCause() instanceof RuntimeException runtime) throw runtime;
            throw new IllegalStateException("reading for a transfer failed", e.getCause());
        }
    }
}
