package ballot.tools.ledger;

import ballot.txn.transfer.TransferOutcome;
import ballot.tools.ledger.Attempt.Decided;
import ballot.tools.ledger.Attempt.Held;
import ballot.tools.ledger.Attempt.Refused;
import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The txn algorithm (docs/workload.md §6.3): an attempt is one {@code BEGIN TRANSACTION} statement (Cassandra 6.0's
 * syntax, docs/txn.md §11.2), one round trip. It reads the recorded outcome ({@code done}) and both accounts, and
 * moves the money and records {@code COMPLETED} iff no outcome is recorded, both accounts exist, no lwt transfer holds
 * either, and the source has the amount.
 *
 * <p>The answer holds the values the IF was evaluated on, as they were before the transaction: when it applied, a
 * snapshot at its commit point, on which the IF holds; when it did not, the failing condition's value as it failed,
 * so the IF is false on the answer. {@link #make} evaluates the IF on the answer, one condition at a time, and that
 * tells both whether the transfer applied and, when it did not, why. {@code done} comes first, so the transaction's
 * record lives on the outcome's partition, which no other transfer uses, and not on a hot account.
 */
final class TxnAttempts implements TransferAttempts {
    private static final CqlIdentifier SOURCE_BALANCE = CqlIdentifier.fromInternal("src.balance");
    private static final CqlIdentifier SOURCE_HOLDER = CqlIdentifier.fromInternal("src.pending_transfer");
    private static final CqlIdentifier DESTINATION_BALANCE = CqlIdentifier.fromInternal("dst.balance");
    private static final CqlIdentifier DESTINATION_HOLDER = CqlIdentifier.fromInternal("dst.pending_transfer");

    private final CqlSession session;
    private final ConsistencyLevel serial;
    private final ConsistencyLevel quorum;
    private final PreparedStatement transaction;

    TxnAttempts(CqlSession session, CqlIdentifier keyspace, ConsistencyLevel serial, ConsistencyLevel quorum, Duration outcomeRetention) {
        this.session = session;
        this.serial = serial;
        this.quorum = quorum;
        String accounts = keyspace.asCql(true) + ".accounts";
        transaction = session.prepare("BEGIN TRANSACTION\n"
                + "  LET done = (SELECT outcome, src_bic, src_ban, dst_bic, dst_ban, amount FROM " + TransferOutcomes.table(keyspace) + " WHERE transfer_id = ?);\n"
                + "  LET src = (SELECT balance, pending_transfer FROM " + accounts + " WHERE bic = ? AND ban = ?);\n"
                + "  LET dst = (SELECT balance, pending_transfer FROM " + accounts + " WHERE bic = ? AND ban = ?);\n"
                + "  SELECT done.outcome, done.src_bic, done.src_ban, done.dst_bic, done.dst_ban, done.amount,"
                + " src.balance, src.pending_transfer, dst.balance, dst.pending_transfer;\n"
                + "  IF done.outcome IS NULL AND src.balance IS NOT NULL AND dst.balance IS NOT NULL"
                + " AND src.pending_transfer IS NULL AND dst.pending_transfer IS NULL AND src.balance >= ? THEN\n"
                + "    UPDATE " + accounts + " SET balance -= ? WHERE bic = ? AND ban = ?;\n"
                + "    UPDATE " + accounts + " SET balance += ? WHERE bic = ? AND ban = ?;\n"
                + "    " + TransferOutcomes.insert(keyspace, outcomeRetention, false) + ";\n"
                + "  END IF\n"
                + "COMMIT TRANSACTION");
    }

    @Override
    public Attempt make(Transfer transfer) {
        Account source = transfer.source();
        Account destination = transfer.destination();
        BigDecimal amount = transfer.amount();
        List<Object> values = new ArrayList<>(List.of(transfer.id(), source.bic(), source.ban(), destination.bic(), destination.ban(), amount,
                amount, source.bic(), source.ban(), amount, destination.bic(), destination.ban()));
        values.addAll(Arrays.asList(TransferOutcomes.values(transfer, TransferOutcome.COMPLETED)));
        Row answer = session.execute(transaction.bind(values.toArray()).setConsistencyLevel(quorum).setSerialConsistencyLevel(serial)).one();
        if (answer == null) throw new IllegalStateException("the transaction of transfer " + transfer.id() + " answered no row; it names its LET values");

        // the IF, one condition at a time, on the values it was evaluated on
        Optional<RecordedOutcome> recorded = TransferOutcomes.recorded(answer, "done.");
        if (recorded.isPresent()) return new Decided(recorded.get().of(transfer));
        BigDecimal sourceBalance = answer.getBigDecimal(SOURCE_BALANCE);
        if (sourceBalance == null) return new Refused(TransferOutcome.SOURCE_NOT_FOUND);
        if (answer.getBigDecimal(DESTINATION_BALANCE) == null) return new Refused(TransferOutcome.DESTINATION_NOT_FOUND);
        UUID sourceHolder = answer.getUuid(SOURCE_HOLDER);
        if (sourceHolder != null) return new Held(source, sourceHolder);
        UUID destinationHolder = answer.getUuid(DESTINATION_HOLDER);
        if (destinationHolder != null) return new Held(destination, destinationHolder);
        if (sourceBalance.compareTo(amount) < 0) return new Refused(TransferOutcome.INSUFFICIENT_FUNDS);
        // every condition holds on the answer, so the transaction applied
        return new Decided(TransferOutcome.COMPLETED);
    }
}
