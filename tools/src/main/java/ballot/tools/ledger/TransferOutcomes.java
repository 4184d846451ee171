package ballot.tools.ledger;

import ballot.txn.transfer.TransferOutcome;
import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletionStage;

/**
 * {@code transfer_outcomes} as the batch and txn algorithms use it: the one arbiter of a transfer's outcome. Every write
 * of a row is conditional on its absence ({@code IF NOT EXISTS}, or the transaction's {@code done.outcome IS NULL}),
 * and the row {@code COMPLETED} is written in the same atomic statement as the two balances. So the first outcome
 * written for an id is the transfer's outcome, the money moves at most once, and every call that finds the row
 * returns it (docs/workload.md §6.1).
 */
final class TransferOutcomes {
    private final CqlSession session;
    private final ConsistencyLevel serial;
    private final ConsistencyLevel quorum;
    private final PreparedStatement read;
    private final PreparedStatement recordIfAbsent;

    TransferOutcomes(CqlSession session, CqlIdentifier keyspace, ConsistencyLevel serial, ConsistencyLevel quorum, Duration retention) {
        this.session = session;
        this.serial = serial;
        this.quorum = quorum;
        read = session.prepare("SELECT outcome, src_bic, src_ban, dst_bic, dst_ban, amount FROM " + table(keyspace) + " WHERE transfer_id = ?");
        recordIfAbsent = session.prepare(insert(keyspace, retention, true));
    }

    static String table(CqlIdentifier keyspace) {
        return keyspace.asCql(true) + ".transfer_outcomes";
    }

    /**
     * The insert of an outcome with the details of its transfer, kept for {@code retention} (a TTL); its markers take
     * {@link #values}. With {@code ifNotExists}, an LWT.
     */
    static String insert(CqlIdentifier keyspace, Duration retention, boolean ifNotExists) {
        return "INSERT INTO " + table(keyspace) + " (transfer_id, outcome, src_bic, src_ban, dst_bic, dst_ban, amount) VALUES (?, ?, ?, ?, ?, ?, ?)"
                + (ifNotExists ? " IF NOT EXISTS" : "") + " USING TTL " + retention.getSeconds();
    }

    /** The values of {@link #insert}'s markers. */
    static Object[] values(Transfer transfer, TransferOutcome outcome) {
        return new Object[] {transfer.id(), outcome.name(), transfer.source().bic(), transfer.source().ban(), transfer.destination().bic(),
                transfer.destination().ban(), transfer.amount()};
    }

    /**
     * The recorded outcome, read at the quorum level. A plain read suffices: a row it returns is final, and a row it
     * misses (one being written now) is met by the conditional write that follows it.
     */
    CompletionStage<Optional<RecordedOutcome>> read(UUID transfer) {
        return session.executeAsync(read.bind(transfer).setConsistencyLevel(quorum)).thenApply(AsyncResultSet::one).thenApply(row -> recorded(row, ""));
    }

    /** {@code outcome} for {@code transfer}, unless it has one: an LWT by itself, or a statement of a conditional batch. */
    BoundStatement recordIfAbsent(Transfer transfer, TransferOutcome outcome) {
        return recordIfAbsent.bind(values(transfer, outcome)).setConsistencyLevel(quorum).setSerialConsistencyLevel(serial);
    }

    /**
     * Records {@code outcome} (a refusal) unless the transfer has an outcome already; returns the outcome that stands:
     * {@code outcome}, or the one recorded first (by a call with the same id that got there before).
     */
    TransferOutcome recordIfFirst(Transfer transfer, TransferOutcome outcome) {
        ResultSet answer = session.execute(recordIfAbsent(transfer, outcome));
        if (answer.wasApplied()) return outcome;
        return recorded(answer.one(), "").orElseThrow(() -> new IllegalStateException("recording outcome " + outcome + " of transfer " + transfer.id()
                + " did not apply, and the answer holds no recorded outcome")).of(transfer);
    }

    /**
     * The outcome in {@code row}, whose columns are the table's with {@code prefix} ({@code "done."} in a transaction's
     * answer); empty if the row has none (no row, or a row of another table in a batch's answer).
     */
    static Optional<RecordedOutcome> recorded(Row row, String prefix) {
        if (row == null || !row.getColumnDefinitions().contains(column(prefix, "outcome"))) return Optional.empty();
        String outcome = row.getString(column(prefix, "outcome"));
        if (outcome == null) return Optional.empty();
        return Optional.of(new RecordedOutcome(TransferOutcome.valueOf(outcome), account(row, prefix, "src_"), account(row, prefix, "dst_"),
                row.getBigDecimal(column(prefix, "amount"))));
    }

    private static Account account(Row row, String prefix, String side) {
        String bic = row.getString(column(prefix, side + "bic"));
        String ban = row.getString(column(prefix, side + "ban"));
        return bic == null || ban == null ? null : new Account(bic, ban);
    }

    private static CqlIdentifier column(String prefix, String name) {
        return CqlIdentifier.fromInternal(prefix + name);
    }
}
