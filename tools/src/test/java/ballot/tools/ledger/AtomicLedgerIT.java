package ballot.tools.ledger;

import ballot.txn.transfer.TransferOutcome;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.tools.TestNode;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.Row;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The batch and txn algorithms against a real node (docs/workload.md §6): every outcome, recorded and final; retries
 * with the same id, also after the attempt that applied went unanswered; an id reused for another transfer; accounts
 * held by lwt transfers, live, gone or stale; and concurrent transfers, of one algorithm and of all three on the same
 * accounts, whose outcomes must account for every balance exactly.
 */
class AtomicLedgerIT {
    private static final AtomicInteger KEYSPACES = new AtomicInteger();
    private static TestNode node;
    private static CqlSession session;

    private CqlIdentifier keyspace;

    @BeforeAll
    static void startNode() {
        node = TestNode.start("atomic");
        session = node.session();
    }

    @AfterAll
    static void stopNode() throws Exception {
        if (session != null) session.close();
        if (node != null) node.close();
    }

    @BeforeEach
    void createLedger() {
        keyspace = CqlIdentifier.fromInternal("atomic_" + KEYSPACES.incrementAndGet());
        session.execute("CREATE KEYSPACE " + keyspace.asCql(true) + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        LedgerTables.create(session, keyspace);
    }

    private Ledger ledger(Algorithm algorithm, Duration claimTtl, Duration transferTimeout) {
        return Ledger.builder(session).keyspace(keyspace).algorithm(algorithm).claimTtl(claimTtl).transferTimeout(transferTimeout).build();
    }

    private Ledger ledger(Algorithm algorithm) {
        return ledger(algorithm, Duration.ofSeconds(1), Duration.ofSeconds(30));
    }

    private Account open(String name, String balance) {
        Account account = new Account("BANKCH00", name);
        session.execute("INSERT INTO " + keyspace.asCql(true) + ".accounts (bic, ban, balance, pending_amount) VALUES (?, ?, ?, 0)",
                account.bic(), account.ban(), new BigDecimal(balance));
        return account;
    }

    /** The balance, after checking that no transfer holds the account. */
    private BigDecimal settledBalance(Account account) {
        Row row = session.execute("SELECT balance, pending_transfer, pending_amount FROM " + keyspace.asCql(true) + ".accounts WHERE bic = ? AND ban = ?",
                account.bic(), account.ban()).one();
        assertThat(row).as("account %s", account).isNotNull();
        assertThat(row.getUuid("pending_transfer")).as("transfer holding %s", account).isNull();
        assertThat(row.getBigDecimal("pending_amount")).as("pending amount of %s", account).isZero();
        return row.getBigDecimal("balance");
    }

    private Row outcomeRow(UUID id) {
        return session.execute("SELECT outcome, src_bic, src_ban, dst_bic, dst_ban, amount FROM " + keyspace.asCql(true) + ".transfer_outcomes WHERE transfer_id = ?",
                id).one();
    }

    private String recordedOutcome(UUID id) {
        Row row = outcomeRow(id);
        return row == null ? null : row.getString("outcome");
    }

    private long rows(String table) {
        return session.execute("SELECT count(*) FROM " + keyspace.asCql(true) + "." + table).one().getLong(0);
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"BATCH", "TXN"})
    void completedTransferMovesTheAmountOnceAndEveryRetryReturnsIt(Algorithm algorithm) {
        Account a = open("a", "100.00");
        Account b = open("b", "50.00");
        Ledger ledger = ledger(algorithm);
        UUID id = UUID.randomUUID();
        assertThat(ledger.transfer(id, a, b, new BigDecimal("30.00"))).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(settledBalance(a)).isEqualByComparingTo("70.00");
        assertThat(settledBalance(b)).isEqualByComparingTo("80.00");
        Row recorded = outcomeRow(id);
        assertThat(recorded.getString("outcome")).isEqualTo("COMPLETED");
        assertThat(new Account(recorded.getString("src_bic"), recorded.getString("src_ban"))).isEqualTo(a);
        assertThat(new Account(recorded.getString("dst_bic"), recorded.getString("dst_ban"))).isEqualTo(b);
        assertThat(recorded.getBigDecimal("amount")).isEqualByComparingTo("30");

        assertThat(ledger.transfer(id, a, b, new BigDecimal("30.0"))).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(ledger(algorithm).transfer(id, a, b, new BigDecimal("30"))).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(settledBalance(a)).isEqualByComparingTo("70.00");
        assertThat(settledBalance(b)).isEqualByComparingTo("80.00");
        assertThat(rows("transfers")).as("the lightest table is not used").isZero();
        assertThat(ledger.counters()).isEqualTo(new LedgerCounters(0, 0, 0, 0));
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"BATCH", "TXN"})
    void insufficientFundsIsRecordedAndStaysTheOutcomeOnceTheFundsAreThere(Algorithm algorithm) {
        Account a = open("a", "10.00");
        Account b = open("b", "0.00");
        Account rich = open("rich", "1000.00");
        Ledger ledger = ledger(algorithm);
        UUID id = UUID.randomUUID();
        assertThat(ledger.transfer(id, a, b, new BigDecimal("10.01"))).isEqualTo(TransferOutcome.INSUFFICIENT_FUNDS);
        assertThat(recordedOutcome(id)).isEqualTo("INSUFFICIENT_FUNDS");
        assertThat(settledBalance(a)).isEqualByComparingTo("10.00");

        assertThat(ledger.transfer(UUID.randomUUID(), rich, a, new BigDecimal("500.00"))).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(ledger.transfer(id, a, b, new BigDecimal("10.01"))).isEqualTo(TransferOutcome.INSUFFICIENT_FUNDS);
        assertThat(settledBalance(a)).isEqualByComparingTo("510.00");
        assertThat(settledBalance(b)).isEqualByComparingTo("0.00");

        // the whole balance, at another scale: the comparison is by value
        assertThat(ledger.transfer(UUID.randomUUID(), a, b, new BigDecimal("510.0"))).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(settledBalance(a)).isZero();
        assertThat(settledBalance(b)).isEqualByComparingTo("510.00");
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"BATCH", "TXN"})
    void missingAccountsAreRecordedRefusalsThatStayFinalOnceTheAccountExists(Algorithm algorithm) {
        Account m = open("m", "100.00");
        Account missing = new Account("BANKCH00", "missing");
        Account other = new Account("BANKCH00", "other-missing");
        Ledger ledger = ledger(algorithm);
        UUID sourceMissing = UUID.randomUUID();
        UUID destinationMissing = UUID.randomUUID();
        assertThat(ledger.transfer(sourceMissing, missing, m, BigDecimal.ONE)).isEqualTo(TransferOutcome.SOURCE_NOT_FOUND);
        assertThat(ledger.transfer(destinationMissing, m, missing, BigDecimal.ONE)).isEqualTo(TransferOutcome.DESTINATION_NOT_FOUND);
        assertThat(ledger.transfer(UUID.randomUUID(), other, missing, BigDecimal.ONE)).as("both missing").isEqualTo(TransferOutcome.SOURCE_NOT_FOUND);
        assertThat(ledger.transfer(UUID.randomUUID(), m, new Account("BANKCH00", "m"), BigDecimal.ONE)).isEqualTo(TransferOutcome.SAME_ACCOUNT);
        assertThat(recordedOutcome(sourceMissing)).isEqualTo("SOURCE_NOT_FOUND");
        assertThat(recordedOutcome(destinationMissing)).isEqualTo("DESTINATION_NOT_FOUND");

        open("missing", "100.00");
        assertThat(ledger.transfer(sourceMissing, missing, m, BigDecimal.ONE)).isEqualTo(TransferOutcome.SOURCE_NOT_FOUND);
        assertThat(ledger.transfer(destinationMissing, m, missing, BigDecimal.ONE)).isEqualTo(TransferOutcome.DESTINATION_NOT_FOUND);
        assertThat(settledBalance(m)).isEqualByComparingTo("100.00");
        assertThat(settledBalance(missing)).isEqualByComparingTo("100.00");
        assertThat(rows("transfer_outcomes")).as("SAME_ACCOUNT is decided without a statement").isEqualTo(3);
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"BATCH", "TXN"})
    void refusesAnIdUsedForAnotherTransferAndAnAmountThatIsNotPositive(Algorithm algorithm) {
        Account a = open("a", "100.00");
        Account b = open("b", "0.00");
        Ledger ledger = ledger(algorithm);
        UUID id = UUID.randomUUID();
        assertThat(ledger.transfer(id, a, b, new BigDecimal("5.00"))).isEqualTo(TransferOutcome.COMPLETED);
        assertThatThrownBy(() -> ledger.transfer(id, a, b, new BigDecimal("6.00"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(id.toString()).hasMessageContaining("5.00 from").hasMessageContaining("6.00 from");
        assertThatThrownBy(() -> ledger.transfer(id, b, a, new BigDecimal("5.00"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ledger.transfer(UUID.randomUUID(), a, b, BigDecimal.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be positive");
        assertThat(settledBalance(a)).isEqualByComparingTo("95.00");
        assertThat(settledBalance(b)).isEqualByComparingTo("5.00");
    }

    @Test
    void aTransactionThatAppliedUnansweredIsNotAppliedAgainByTheRetry() {
        Account a = open("a", "100.00");
        Account b = open("b", "0.00");
        TransferOutcomes outcomes = new TransferOutcomes(session, keyspace, DefaultConsistencyLevel.SERIAL, DefaultConsistencyLevel.QUORUM, Duration.ofDays(1));
        TxnAttempts attempts = new TxnAttempts(session, keyspace, DefaultConsistencyLevel.SERIAL, DefaultConsistencyLevel.QUORUM, Duration.ofDays(1));
        Transfer transfer = new Transfer(UUID.randomUUID(), a, b, new BigDecimal("40.00"));
        // the statement applied, and its answer was lost (a timeout): the caller retries with the same id
        assertThat(attempts.make(transfer)).isEqualTo(new Attempt.Decided(TransferOutcome.COMPLETED));
        assertThat(ledger(Algorithm.TXN).transfer(transfer.id(), a, b, new BigDecimal("40.00"))).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(attempts.make(transfer)).as("the retry's statement finds the outcome").isEqualTo(new Attempt.Decided(TransferOutcome.COMPLETED));
        assertThat(settledBalance(a)).isEqualByComparingTo("60.00");
        assertThat(settledBalance(b)).isEqualByComparingTo("40.00");
        assertThat(outcomes.recordIfFirst(transfer, TransferOutcome.INSUFFICIENT_FUNDS)).as("a late refusal does not replace it")
                .isEqualTo(TransferOutcome.COMPLETED);
    }

    @Test
    void aBatchAppliesOnlyWithNoOutcomeAndTheBalancesAsReadOnAccountsNoLwtTransferHolds() {
        Account a = open("a", "100.00");
        Account b = open("b", "0.00");
        TransferOutcomes outcomes = new TransferOutcomes(session, keyspace, DefaultConsistencyLevel.SERIAL, DefaultConsistencyLevel.QUORUM, Duration.ofDays(1));
        BatchAttempts attempts = new BatchAttempts(session, keyspace, DefaultConsistencyLevel.SERIAL, DefaultConsistencyLevel.QUORUM, outcomes);
        Ledger ledger = ledger(Algorithm.BATCH);
        Transfer transfer = new Transfer(UUID.randomUUID(), a, b, new BigDecimal("25.00"));
        // one call read 100.00 and 0.00 and stalled; a call with the same id completed; another transfer moved the money back
        assertThat(ledger.transfer(transfer.id(), a, b, transfer.amount())).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(ledger.transfer(UUID.randomUUID(), b, a, transfer.amount())).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(attempts.complete(transfer, new BigDecimal("100.00"), new BigDecimal("0.00"))).isEqualTo(new Attempt.Decided(TransferOutcome.COMPLETED));
        assertThat(settledBalance(a)).isEqualByComparingTo("100.00");
        assertThat(settledBalance(b)).isEqualByComparingTo("0.00");
        // a balance moved since the read: not applied, read again
        assertThat(attempts.complete(new Transfer(UUID.randomUUID(), a, b, BigDecimal.ONE), new BigDecimal("99.00"), new BigDecimal("0.00")))
                .isEqualTo(new Attempt.Stale());
        assertThat(settledBalance(a)).isEqualByComparingTo("100.00");
        // an lwt transfer locked b since the read: not applied either, even with both balances as read
        LwtLedger lwt = (LwtLedger) ledger(Algorithm.LWT);
        UUID holder = UUID.randomUUID();
        assertThat(lwt.steps().lock(holder, b, BigDecimal.ONE)).isInstanceOf(LwtSteps.Taken.class);
        assertThat(attempts.complete(new Transfer(UUID.randomUUID(), a, b, BigDecimal.ONE), new BigDecimal("100.00"), new BigDecimal("0.00")))
                .isEqualTo(new Attempt.Stale());
        assertThat(lwt.steps().unlock(holder, b)).isTrue();
        assertThat(settledBalance(a)).isEqualByComparingTo("100.00");
        assertThat(settledBalance(b)).isEqualByComparingTo("0.00");
        assertThat(rows("transfer_outcomes")).isEqualTo(2);
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"BATCH", "TXN"})
    void waitsForALiveLwtTransferHoldingAnAccountAndTimesOutUnknownAndTheRetryResolvesIt(Algorithm algorithm) {
        Account a = open("a", "100.00");
        Account b = open("b", "100.00");
        LwtLedger holder = (LwtLedger) ledger(Algorithm.LWT, Duration.ofSeconds(30), Duration.ofSeconds(30));
        UUID held = UUID.randomUUID();
        holder.steps().register(TransferRow.fresh(held, a, b, BigDecimal.ONE));
        holder.steps().claim(held, holder.clientId());
        holder.steps().lock(held, b, BigDecimal.ONE);

        Ledger waiter = ledger(algorithm, Duration.ofSeconds(30), Duration.ofMillis(300));
        UUID id = UUID.randomUUID();
        UUID tooMuch = UUID.randomUUID();
        assertThat(waiter.transfer(id, b, a, BigDecimal.TEN)).isEqualTo(TransferOutcome.TIMED_OUT_UNKNOWN);
        // b is held and a cannot pay 500: the transfer waits for b rather than refuse while the holder may change a balance
        assertThat(waiter.transfer(tooMuch, a, b, new BigDecimal("500.00"))).isEqualTo(TransferOutcome.TIMED_OUT_UNKNOWN);
        assertThat(waiter.counters().lockConflicts()).isGreaterThanOrEqualTo(2);
        assertThat(recordedOutcome(id)).isNull();
        assertThat(recordedOutcome(tooMuch)).isNull();
        assertThat(waiter.transfer(UUID.randomUUID(), new Account("BANKCH00", "missing"), b, BigDecimal.ONE)).as("a missing source is refused at once")
                .isEqualTo(TransferOutcome.SOURCE_NOT_FOUND);

        assertThat(holder.transfer(held, a, b, BigDecimal.ONE)).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(waiter.transfer(id, b, a, BigDecimal.TEN)).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(waiter.transfer(tooMuch, a, b, new BigDecimal("500.00"))).isEqualTo(TransferOutcome.INSUFFICIENT_FUNDS);
        assertThat(settledBalance(a)).isEqualByComparingTo("109.00");
        assertThat(settledBalance(b)).isEqualByComparingTo("91.00");
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"BATCH", "TXN"})
    void finishesAGoneClientsLwtTransferAndReleasesAStaleLockOnTheWay(Algorithm algorithm) {
        Account a = open("a", "100.00");
        Account b = open("b", "100.00");
        Account c = open("c", "100.00");
        LwtLedger gone = (LwtLedger) ledger(Algorithm.LWT);
        UUID abandoned = UUID.randomUUID();
        gone.steps().register(TransferRow.fresh(abandoned, a, b, new BigDecimal("25.00")));
        gone.steps().claim(abandoned, gone.clientId());
        gone.steps().lock(abandoned, a, new BigDecimal("-25.00"));
        gone.steps().release(abandoned, gone.clientId()); // its claim has lapsed
        session.execute("UPDATE " + keyspace.asCql(true) + ".accounts SET pending_transfer = ?, pending_amount = 3 WHERE bic = ? AND ban = ?",
                UUID.randomUUID(), c.bic(), c.ban());

        Ledger ledger = ledger(algorithm);
        assertThat(ledger.transfer(UUID.randomUUID(), a, c, new BigDecimal("10.00"))).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(ledger.counters().recoveries()).isEqualTo(1);
        assertThat(ledger.counters().staleLocksReleased()).isEqualTo(1);
        assertThat(settledBalance(a)).isEqualByComparingTo("65.00");
        assertThat(settledBalance(b)).isEqualByComparingTo("125.00");
        assertThat(settledBalance(c)).isEqualByComparingTo("110.00");
        assertThat(rows("transfers")).isZero();
        assertThat(ledger.recoverAbandoned()).isEqualTo(new RecoveryPass(0, 0, 0));
    }

    @ParameterizedTest
    @EnumSource(value = Algorithm.class, names = {"BATCH", "TXN"})
    void concurrentTransfersOverFewAccountsAccountForEveryBalance(Algorithm algorithm) throws Exception {
        List<Ledger> clients = List.of(ledger(algorithm), ledger(algorithm));
        ConcurrentRun run = concurrently(clients, 4, 90);
        if (algorithm == Algorithm.BATCH) assertThat(clients.get(0).counters().balanceConflicts() + clients.get(1).counters().balanceConflicts())
                .as("batches that found a balance moved").isPositive();
        assertThat(run.completed()).isPositive();
    }

    @Test
    void lwtBatchAndTxnTransfersOnTheSameAccountsAccountForEveryBalance() throws Exception {
        List<Ledger> clients = List.of(ledger(Algorithm.LWT), ledger(Algorithm.TXN), ledger(Algorithm.BATCH), ledger(Algorithm.TXN));
        ConcurrentRun run = concurrently(clients, 4, 120);
        assertThat(run.completedBy().keySet()).as("ledgers that completed transfers").hasSize(clients.size());
        assertThat(clients.get(1).counters().lockConflicts() + clients.get(2).counters().lockConflicts() + clients.get(3).counters().lockConflicts())
                .as("txn and batch transfers that met an lwt lock").isPositive();
        assertThat(rows("transfers")).isZero();
    }

    /** What {@link #concurrently} saw: completed transfers in all, and by the index of the ledger that made them. */
    private record ConcurrentRun(long completed, Map<Integer, Long> completedBy) {}

    /**
     * {@code transfers} random transfers over {@code accounts} accounts of 50.00, six at a time, each through the next
     * client, retried with the same id while unknown. Every outcome must be final and recorded, no account held or
     * overdrawn, and each balance must be its opening balance moved by exactly the completed transfers: so a transfer
     * reported COMPLETED moved its money once, and a refusal moved nothing.
     */
    private ConcurrentRun concurrently(List<Ledger> clients, int accounts, int transfers) throws Exception {
        List<Account> opened = new ArrayList<>();
        for (int i = 0; i < accounts; i++) opened.add(open("acc" + i, "50.00"));
        record Made(int client, Transfer transfer, TransferOutcome outcome) {}
        ExecutorService pool = Executors.newFixedThreadPool(6);
        List<Made> made = new ArrayList<>();
        try {
            List<Future<Made>> futures = new ArrayList<>();
            for (int i = 0; i < transfers; i++) {
                int client = i % clients.size();
                futures.add(pool.submit(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    int from = random.nextInt(accounts);
                    int to = (from + 1 + random.nextInt(accounts - 1)) % accounts;
                    Transfer transfer = new Transfer(UUID.randomUUID(), opened.get(from), opened.get(to), BigDecimal.valueOf(random.nextLong(1, 4000), 2));
                    TransferOutcome outcome = TransferOutcome.TIMED_OUT_UNKNOWN;
                    for (int attempt = 0; attempt < 20 && outcome == TransferOutcome.TIMED_OUT_UNKNOWN; attempt++)
                        outcome = clients.get(client).transfer(transfer.id(), transfer.source(), transfer.destination(), transfer.amount());
                    return new Made(client, transfer, outcome);
                }));
            }
            for (Future<Made> future : futures) made.add(future.get());
        } finally {
            pool.shutdownNow();
        }
        Map<Account, BigDecimal> expected = new HashMap<>();
        opened.forEach(account -> expected.put(account, new BigDecimal("50.00")));
        Map<Integer, Long> completedBy = new HashMap<>();
        for (Made m : made) {
            assertThat(m.outcome()).as("outcome of %s", m.transfer()).isIn(TransferOutcome.COMPLETED, TransferOutcome.INSUFFICIENT_FUNDS);
            assertThat(recordedOutcome(m.transfer().id())).as("recorded outcome of %s", m.transfer()).isEqualTo(m.outcome().name());
            if (m.outcome() != TransferOutcome.COMPLETED) continue;
            completedBy.merge(m.client(), 1L, Long::sum);
            expected.merge(m.transfer().source(), m.transfer().amount().negate(), BigDecimal::add);
            expected.merge(m.transfer().destination(), m.transfer().amount(), BigDecimal::add);
        }
        for (Account account : opened) {
            BigDecimal balance = settledBalance(account);
            assertThat(balance).as("balance of %s", account).isNotNegative().isEqualByComparingTo(expected.get(account));
        }
        return new ConcurrentRun(completedBy.values().stream().mapToLong(Long::longValue).sum(), completedBy);
    }

    @Test
    void aTransferOutcomesTableMadeBeforeItNamedItsTransfersGetsTheColumns() {
        CqlIdentifier old = CqlIdentifier.fromInternal("atomic_old_" + KEYSPACES.incrementAndGet());
        session.execute("CREATE KEYSPACE " + old.asCql(true) + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE " + old.asCql(true) + ".transfer_outcomes (transfer_id uuid PRIMARY KEY, outcome text)");
        UUID before = UUID.randomUUID();
        session.execute("INSERT INTO " + old.asCql(true) + ".transfer_outcomes (transfer_id, outcome) VALUES (?, 'COMPLETED')", before);
        LedgerTables.create(session, old);
        LedgerTables.create(session, old);
        keyspace = old;
        Account a = open("a", "10.00");
        Account b = open("b", "0.00");
        Ledger ledger = ledger(Algorithm.TXN);
        assertThat(ledger.transfer(before, a, b, BigDecimal.ONE)).as("an old row, which names no transfer").isEqualTo(TransferOutcome.COMPLETED);
        UUID after = UUID.randomUUID();
        assertThat(ledger.transfer(after, a, b, BigDecimal.ONE)).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(outcomeRow(after).getBigDecimal("amount")).isEqualByComparingTo("1");
        assertThat(settledBalance(a)).isEqualByComparingTo("9.00");
    }
}
