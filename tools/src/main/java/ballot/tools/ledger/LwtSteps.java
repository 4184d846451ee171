package ballot.tools.ledger;

import ballot.txn.transfer.TransferOutcome;
import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The statements of the lwt algorithm, one method per step. Each step is one statement on one partition: a conditional
 * one (an LWT, with the ledger's serial consistency, committed at its quorum level) or a read. Every conditional step
 * is safe to repeat, and says how its condition came out in terms a repeat understands: "not applied because it is
 * already so" is success. Conditions test {@code != NULL} on a column every row has (amount, balance) so that an
 * update never creates a row that was not there (lightest's trick).
 */
final class LwtSteps {
    /** What claiming a transfer's row came to. */
    enum Claim {
        /** This client holds the claim (it took it now, or held it already). */
        OURS,
        /** Another client holds a claim that has not lapsed. */
        HELD_BY_OTHER,
        /** The row is gone: the transfer was finished and deleted. */
        GONE
    }

    /** What locking an account came to. */
    sealed interface Lock permits Taken, AlreadyHeld, HeldByOther, Missing {}

    /** Locked now. {@code balance} is the balance the lock saw, or null when the server does not return it (Cassandra). */
    record Taken(BigDecimal balance) implements Lock {}

    /** Held by this transfer already (an earlier attempt locked it): the account as it is now. */
    record AlreadyHeld(Holding holding) implements Lock {}

    /** Held by another transfer. */
    record HeldByOther(UUID transfer) implements Lock {}

    /** No such account. */
    record Missing() implements Lock {}

    private final CqlSession session;
    private final ConsistencyLevel serial;
    private final ConsistencyLevel quorum;
    private final PreparedStatement insertTransfer;
    private final PreparedStatement claimTransfer;
    private final PreparedStatement releaseTransfer;
    private final PreparedStatement setState;
    private final PreparedStatement deleteTransfer;
    private final PreparedStatement readTransfer;
    private final PreparedStatement listTransfers;
    private final PreparedStatement lockAccount;
    private final PreparedStatement readAccount;
    private final PreparedStatement writeBalance;
    private final PreparedStatement unlockAccount;
    private final PreparedStatement recordOutcome;
    private final PreparedStatement readOutcome;

    LwtSteps(CqlSession session, CqlIdentifier keyspace, ConsistencyLevel serial, ConsistencyLevel quorum, Duration claimTtl, Duration outcomeRetention) {
        this.session = session;
        this.serial = serial;
        this.quorum = quorum;
        String transfers = keyspace.asCql(true) + ".transfers";
        String accounts = keyspace.asCql(true) + ".accounts";
        String outcomes = TransferOutcomes.table(keyspace);
        insertTransfer = session.prepare("INSERT INTO " + transfers + " (transfer_id, src_bic, src_ban, dst_bic, dst_ban, amount, state)"
                + " VALUES (?, ?, ?, ?, ?, ?, 'new') IF NOT EXISTS");
        // The claim alone carries the TTL: a TTL on the insert would expire the whole transfer, not just its claim.
        claimTransfer = session.prepare("UPDATE " + transfers + " USING TTL " + claimTtl.getSeconds() + " SET client_id = ?"
                + " WHERE transfer_id = ? IF amount != NULL AND client_id = NULL");
        releaseTransfer = session.prepare("UPDATE " + transfers + " SET client_id = NULL WHERE transfer_id = ? IF amount != NULL AND client_id = ?");
        setState = session.prepare("UPDATE " + transfers + " SET state = ? WHERE transfer_id = ? IF amount != NULL AND client_id = ?");
        deleteTransfer = session.prepare("DELETE FROM " + transfers + " WHERE transfer_id = ? IF client_id = ?");
        readTransfer = session.prepare("SELECT src_bic, src_ban, dst_bic, dst_ban, amount, state, client_id FROM " + transfers + " WHERE transfer_id = ?");
        listTransfers = session.prepare("SELECT transfer_id FROM " + transfers);
        lockAccount = session.prepare("UPDATE " + accounts + " SET pending_transfer = ?, pending_amount = ? WHERE bic = ? AND ban = ?"
                + " IF balance != NULL AND pending_amount != NULL AND pending_transfer = NULL");
        readAccount = session.prepare("SELECT balance, pending_amount, pending_transfer FROM " + accounts + " WHERE bic = ? AND ban = ?");
        writeBalance = session.prepare("UPDATE " + accounts + " SET pending_amount = 0, balance = ? WHERE bic = ? AND ban = ?"
                + " IF balance != NULL AND pending_transfer = ?");
        unlockAccount = session.prepare("UPDATE " + accounts + " SET pending_transfer = NULL, pending_amount = 0 WHERE bic = ? AND ban = ?"
                + " IF balance != NULL AND pending_transfer = ?");
        recordOutcome = session.prepare(TransferOutcomes.insert(keyspace, outcomeRetention, false));
        readOutcome = session.prepare("SELECT outcome FROM " + outcomes + " WHERE transfer_id = ?");
    }

    /**
     * Registers the transfer in state {@code new} unless a row with its id exists; returns the row as it is now. A row
     * with the same id and other accounts or amount is the caller's mistake: refused, naming both.
     */
    TransferRow register(TransferRow transfer) {
        ResultSet rs = cas(insertTransfer, transfer.id(), transfer.source().bic(), transfer.source().ban(), transfer.destination().bic(),
                transfer.destination().ban(), transfer.amount());
        if (rs.wasApplied()) return transfer;
        TransferRow existing = transferRow(transfer.id(), rs.one());
        if (!existing.sameTransferAs(transfer))
            throw new IllegalArgumentException("transfer " + transfer.id() + " exists as " + existing.details() + "; it cannot be made again as "
                    + transfer.details());
        return existing;
    }

    /** Claims the transfer for {@code client}, for the claim TTL; a claim that has lapsed is null, so anyone may take it. */
    Claim claim(UUID transfer, UUID client) {
        ResultSet rs = cas(claimTransfer, client, transfer);
        if (rs.wasApplied()) return Claim.OURS;
        Row row = rs.one();
        if (!has(row, "amount")) return Claim.GONE;
        return client.equals(row.getUuid("client_id")) ? Claim.OURS : Claim.HELD_BY_OTHER;
    }

    /** Gives up {@code client}'s claim, so another client may take the transfer at once rather than when the claim lapses. */
    void release(UUID transfer, UUID client) {
        cas(releaseTransfer, transfer, client);
    }

    /** Moves the transfer to {@code state}; false if {@code client} no longer holds its claim (or the row is gone). */
    boolean setState(UUID transfer, UUID client, TransferState state) {
        return cas(setState, state.cql(), transfer, client).wasApplied();
    }

    /** Deletes the finished transfer's row; false if {@code client} no longer holds its claim (or the row is gone). */
    boolean delete(UUID transfer, UUID client) {
        return cas(deleteTransfer, transfer, client).wasApplied();
    }

    /** The transfer's row, at the quorum level; empty once it is deleted. */
    Optional<TransferRow> readTransfer(UUID transfer) {
        Row row = session.execute(bind(readTransfer, quorum, transfer)).one();
        return row == null ? Optional.empty() : Optional.of(transferRow(transfer, row));
    }

    /** The ids of every transfer row: a scan of the table. */
    List<UUID> transferIds() {
        List<UUID> ids = new ArrayList<>();
        for (Row row : session.execute(bind(listTransfers, quorum))) ids.add(row.getUuid("transfer_id"));
        return ids;
    }

    /** Locks {@code account} for {@code transfer}, setting the pending amount to the transfer's change to its balance. */
    Lock lock(UUID transfer, Account account, BigDecimal pendingAmount) {
        ResultSet rs = cas(lockAccount, transfer, pendingAmount, account.bic(), account.ban());
        boolean applied = rs.wasApplied();
        Row row = rs.one();
        // Ballot and ScyllaDB answer an applied LWT with the row it saw; Cassandra answers [applied] alone
        if (applied) return new Taken(has(row, "balance") ? row.getBigDecimal("balance") : null);
        UUID holder = has(row, "pending_transfer") ? row.getUuid("pending_transfer") : null;
        if (transfer.equals(holder)) return new AlreadyHeld(new Holding(account, row.getBigDecimal("balance"), row.getBigDecimal("pending_amount"), holder));
        if (holder != null) return new HeldByOther(holder);
        if (!has(row, "balance")) return new Missing();
        throw new IllegalStateException("account " + account + " has balance " + row.getBigDecimal("balance")
                + " and no pending_amount, so no transfer can lock it; accounts are registered with pending_amount 0");
    }

    /** The account as a linearizable (serial) read sees it: any LWT on it that was in progress is finished first. */
    Optional<Holding> readHolding(Account account) {
        Row row = session.execute(bind(readAccount, serial, account.bic(), account.ban())).one();
        if (row == null || row.isNull("balance")) return Optional.empty();
        return Optional.of(new Holding(account, row.getBigDecimal("balance"), row.getBigDecimal("pending_amount"), row.getUuid("pending_transfer")));
    }

    /** Writes the held account's balance after the transfer and zeroes its pending amount; false if {@code transfer} no longer holds it. */
    boolean writeBalance(UUID transfer, Account account, BigDecimal balance) {
        return cas(writeBalance, balance, account.bic(), account.ban(), transfer).wasApplied();
    }

    /** Releases the account if {@code transfer} holds it; false if it does not (released already, or never locked). */
    boolean unlock(UUID transfer, Account account) {
        return cas(unlockAccount, account.bic(), account.ban(), transfer).wasApplied();
    }

    /** Records the transfer's final outcome, kept for the outcome retention. Repeating it writes the same value. */
    void recordOutcome(TransferRow transfer, TransferOutcome outcome) {
        if (!outcome.isFinal()) throw new IllegalArgumentException("outcome " + outcome + " of transfer " + transfer.id() + " is not final");
        session.execute(bind(recordOutcome, quorum, TransferOutcomes.values(transfer.transfer(), outcome)));
    }

    /** The transfer's recorded outcome, at the quorum level. */
    Optional<TransferOutcome> outcome(UUID transfer) {
        Row row = session.execute(bind(readOutcome, quorum, transfer)).one();
        return row == null || row.isNull("outcome") ? Optional.empty() : Optional.of(TransferOutcome.valueOf(row.getString("outcome")));
    }

    private ResultSet cas(PreparedStatement statement, Object... values) {
        return session.execute(bind(statement, quorum, values).setSerialConsistencyLevel(serial));
    }

    private static BoundStatement bind(PreparedStatement statement, ConsistencyLevel level, Object... values) {
        return statement.bind(values).setConsistencyLevel(level);
    }

    private static boolean has(Row row, String column) {
        return row != null && row.getColumnDefinitions().contains(column) && !row.isNull(column);
    }

    private static TransferRow transferRow(UUID id, Row row) {
        if (!has(row, "amount") || !has(row, "src_bic") || !has(row, "dst_bic"))
            throw new IllegalStateException("transfer " + id + " has a row without its accounts or amount: " + (row == null ? "no row" : row.getFormattedContents()));
        return new TransferRow(id, new Account(row.getString("src_bic"), row.getString("src_ban")), new Account(row.getString("dst_bic"), row.getString("dst_ban")),
                row.getBigDecimal("amount"), TransferState.of(row.getString("state"), id), row.getUuid("client_id"));
    }
}
