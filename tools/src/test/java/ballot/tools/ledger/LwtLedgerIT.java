package ballot.tools.ledger;

import ballot.txn.transfer.TransferOutcome;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.tools.TestNode;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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

/**
 * The lwt algorithm against a real node: outcomes, idempotent retries, and transfers left half-way by a client that
 * is gone (a ledger whose steps the test runs by hand and then stops), which another client finishes.
 */
class LwtLedgerIT {
    private static final AtomicInteger KEYSPACES = new AtomicInteger();
    private static TestNode node;
    private static CqlSession session;

    private CqlIdentifier keyspace;

    @BeforeAll
    static void startNode() {
        node = TestNode.start("ledger");
        session = node.session();
    }

    @AfterAll
    static void stopNode() throws Exception {
        if (session != null) session.close();
        if (node != null) node.close();
    }

    @BeforeEach
    void createLedger() {
        keyspace = CqlIdentifier.fromInternal("ledger_" + KEYSPACES.incrementAndGet());
        session.execute("CREATE KEYSPACE " + keyspace.asCql(true) + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        LedgerTables.create(session, keyspace);
    }

    private LwtLedger ledger(Duration claimTtl, Duration transferTimeout) {
        return (LwtLedger) Ledger.builder(session).keyspace(keyspace).claimTtl(claimTtl).transferTimeout(transferTimeout).build();
    }

    private LwtLedger ledger() {
        return ledger(Duration.ofSeconds(1), Duration.ofSeconds(30));
    }

    private Account open(String name, String balance) {
        Account account = new Account("BANKCH00", name);
        session.execute("INSERT INTO " + keyspace.asCql(true) + ".accounts (bic, ban, balance, pending_amount) VALUES (?, ?, ?, 0)",
                account.bic(), account.ban(), new BigDecimal(balance));
        return account;
    }

    private Row row(Account account) {
        return session.execute("SELECT balance, pending_transfer, pending_amount FROM " + keyspace.asCql(true) + ".accounts WHERE bic = ? AND ban = ?",
                account.bic(), account.ban()).one();
    }

    /** The balance, after checking that no transfer holds the account. */
    private BigDecimal settledBalance(Account account) {
        Row row = row(account);
        assertThat(row.getUuid("pending_transfer")).as("transfer holding %s", account).isNull();
        assertThat(row.getBigDecimal("pending_amount")).as("pending amount of %s", account).isZero();
        return row.getBigDecimal("balance");
    }

    private long transferRows() {
        return session.execute("SELECT count(*) FROM " + keyspace.asCql(true) + ".transfers").one().getLong(0);
    }

    @Test
    void completedTransferMovesTheAmountOnceAndARetryReturnsItsOutcome() {
        Account a = open("a", "100.00");
        Account b = open("b", "50.00");
        LwtLedger ledger = ledger();
        UUID id = UUID.randomUUID();
        assertThat(ledger.transfer(id, a, b, new BigDecimal("30.00"))).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(settledBalance(a)).isEqualByComparingTo("70.00");
        assertThat(settledBalance(b)).isEqualByComparingTo("80.00");
        assertThat(transferRows()).isZero();

        // the row is deleted, so the retry registers the transfer again; the recorded outcome stops it there
        assertThat(ledger.transfer(id, a, b, new BigDecimal("30.0"))).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(ledger(Duration.ofSeconds(1), Duration.ofSeconds(30)).transfer(id, a, b, new BigDecimal("30"))).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(settledBalance(a)).isEqualByComparingTo("70.00");
        assertThat(settledBalance(b)).isEqualByComparingTo("80.00");
        assertThat(transferRows()).isZero();
    }

    @Test
    void insufficientFundsMovesNothingAndStaysTheOutcomeOnRetry() {
        Account a = open("a", "10.00");
        Account b = open("b", "0.00");
        Account rich = open("rich", "1000.00");
        LwtLedger ledger = ledger();
        UUID id = UUID.randomUUID();
        assertThat(ledger.transfer(id, a, b, new BigDecimal("10.01"))).isEqualTo(TransferOutcome.INSUFFICIENT_FUNDS);
        assertThat(settledBalance(a)).isEqualByComparingTo("10.00");
        assertThat(settledBalance(b)).isEqualByComparingTo("0.00");

        assertThat(ledger.transfer(UUID.randomUUID(), rich, a, new BigDecimal("500.00"))).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(ledger.transfer(id, a, b, new BigDecimal("10.01"))).isEqualTo(TransferOutcome.INSUFFICIENT_FUNDS);
        assertThat(settledBalance(a)).isEqualByComparingTo("510.00");
        assertThat(settledBalance(b)).isEqualByComparingTo("0.00");

        assertThat(ledger.transfer(UUID.randomUUID(), a, b, new BigDecimal("510.00"))).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(settledBalance(a)).isZero();
        assertThat(transferRows()).isZero();
    }

    @Test
    void missingAccountsAndTheSameAccountMoveNothingAndLeaveNoLock() {
        Account m = open("m", "100.00");
        Account before = new Account("BANKCH00", "a-missing"); // locked before m
        Account after = new Account("BANKCH00", "z-missing");  // locked after m
        LwtLedger ledger = ledger();
        assertThat(ledger.transfer(UUID.randomUUID(), before, m, BigDecimal.ONE)).isEqualTo(TransferOutcome.SOURCE_NOT_FOUND);
        assertThat(ledger.transfer(UUID.randomUUID(), after, m, BigDecimal.ONE)).isEqualTo(TransferOutcome.SOURCE_NOT_FOUND);
        assertThat(ledger.transfer(UUID.randomUUID(), m, before, BigDecimal.ONE)).isEqualTo(TransferOutcome.DESTINATION_NOT_FOUND);
        assertThat(ledger.transfer(UUID.randomUUID(), m, after, BigDecimal.ONE)).isEqualTo(TransferOutcome.DESTINATION_NOT_FOUND);
        assertThat(ledger.transfer(UUID.randomUUID(), after, before, BigDecimal.ONE)).isEqualTo(TransferOutcome.SOURCE_NOT_FOUND);
        assertThat(ledger.transfer(UUID.randomUUID(), m, new Account("BANKCH00", "m"), BigDecimal.ONE)).isEqualTo(TransferOutcome.SAME_ACCOUNT);
        assertThat(settledBalance(m)).isEqualByComparingTo("100.00");
        assertThat(row(before)).isNull();
        assertThat(row(after)).isNull();
        assertThat(transferRows()).isZero();
    }

    @Test
    void refusesAnIdAlreadyUsedForAnotherTransferAndAnAmountThatIsNotPositive() {
        Account a = open("a", "100.00");
        Account b = open("b", "0.00");
        LwtLedger ledger = ledger();
        UUID id = UUID.randomUUID();
        // registered and left: the retry meets the row
        ledger.steps().register(TransferRow.fresh(id, a, b, new BigDecimal("5.00")));
        assertThatThrownBy(() -> ledger.transfer(id, a, b, new BigDecimal("6.00"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(id.toString()).hasMessageContaining("5.00 from").hasMessageContaining("6.00 from");
        assertThatThrownBy(() -> ledger.transfer(UUID.randomUUID(), a, b, BigDecimal.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be positive");
        assertThat(ledger.transfer(id, a, b, new BigDecimal("5.00"))).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(settledBalance(a)).isEqualByComparingTo("95.00");
    }

    @Test
    void aGoneClientsTransferIsFinishedByTheNextTransferThatMeetsItsLock() {
        Account a = open("a", "100.00");
        Account b = open("b", "100.00");
        Account c = open("c", "100.00");
        LwtLedger gone = ledger();
        UUID abandoned = UUID.randomUUID();
        LwtSteps steps = gone.steps();
        // the gone client registered a -> b, claimed it and locked a (first in order), then stopped
        steps.register(TransferRow.fresh(abandoned, a, b, new BigDecimal("25.00")));
        assertThat(steps.claim(abandoned, gone.clientId())).isEqualTo(LwtSteps.Claim.OURS);
        assertThat(steps.lock(abandoned, a, new BigDecimal("-25.00"))).isInstanceOf(LwtSteps.Taken.class);

        LwtLedger live = ledger();
        assertThat(live.transfer(UUID.randomUUID(), a, c, new BigDecimal("10.00"))).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(live.counters().recoveries()).isEqualTo(1);
        // whether it first waited depends on how much of the gone client's 1 s claim was left when it arrived; waiting
        // for a live claim is timesOutUnknownWhileALiveTransferHoldsAnAccountAndTheRetryResolvesIt's subject
        assertThat(settledBalance(a)).isEqualByComparingTo("65.00");
        assertThat(settledBalance(b)).isEqualByComparingTo("125.00");
        assertThat(settledBalance(c)).isEqualByComparingTo("110.00");
        assertThat(transferRows()).isZero();
        assertThat(gone.transfer(abandoned, a, b, new BigDecimal("25.00"))).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(settledBalance(a)).isEqualByComparingTo("65.00");
    }

    @Test
    void recoveryAfterOneBalanceWriteDoesNotMoveTheMoneyTwice() {
        Account a = open("a", "100.00");
        Account b = open("b", "100.00");
        LwtLedger gone = ledger();
        UUID abandoned = UUID.randomUUID();
        LwtSteps steps = gone.steps();
        steps.register(TransferRow.fresh(abandoned, b, a, new BigDecimal("40.00")));
        steps.claim(abandoned, gone.clientId());
        steps.lock(abandoned, a, new BigDecimal("40.00"));
        steps.lock(abandoned, b, new BigDecimal("-40.00"));
        assertThat(steps.setState(abandoned, gone.clientId(), TransferState.LOCKED)).isTrue();
        assertThat(steps.writeBalance(abandoned, b, new BigDecimal("60.00"))).isTrue();
        steps.release(abandoned, gone.clientId()); // its claim has lapsed

        LwtLedger recoverer = ledger();
        assertThat(recoverer.recoverAbandoned()).isEqualTo(new RecoveryPass(1, 1, 0));
        assertThat(settledBalance(b)).isEqualByComparingTo("60.00");
        assertThat(settledBalance(a)).isEqualByComparingTo("140.00");
        assertThat(transferRows()).isZero();
        assertThat(recoverer.recoverAbandoned()).isEqualTo(new RecoveryPass(0, 0, 0));
        assertThat(gone.transfer(abandoned, b, a, new BigDecimal("40.00"))).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(settledBalance(b)).isEqualByComparingTo("60.00");
    }

    @Test
    void recoveryLeavesATransferWhoseClientIsAlive() {
        Account a = open("a", "100.00");
        Account b = open("b", "100.00");
        LwtLedger alive = ledger(Duration.ofSeconds(30), Duration.ofSeconds(30));
        UUID id = UUID.randomUUID();
        alive.steps().register(TransferRow.fresh(id, a, b, BigDecimal.TEN));
        alive.steps().claim(id, alive.clientId());
        alive.steps().lock(id, a, BigDecimal.TEN.negate());

        assertThat(ledger().recoverAbandoned()).isEqualTo(new RecoveryPass(1, 0, 1));
        assertThat(row(a).getUuid("pending_transfer")).isEqualTo(id);
        assertThat(alive.transfer(id, a, b, BigDecimal.TEN)).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(settledBalance(a)).isEqualByComparingTo("90.00");
        assertThat(settledBalance(b)).isEqualByComparingTo("110.00");
    }

    @Test
    void aRetryResumesWhatTheSameClientLeftHalfWay() {
        Account a = open("a", "100.00");
        Account b = open("b", "100.00");
        LwtLedger ledger = ledger();
        UUID id = UUID.randomUUID();
        LwtSteps steps = ledger.steps();
        steps.register(TransferRow.fresh(id, a, b, new BigDecimal("7.50")));
        steps.claim(id, ledger.clientId());
        steps.lock(id, a, new BigDecimal("-7.50"));
        steps.lock(id, b, new BigDecimal("7.50"));
        steps.setState(id, ledger.clientId(), TransferState.LOCKED);
        // a timeout here: the caller retries with the same id
        assertThat(ledger.transfer(id, a, b, new BigDecimal("7.50"))).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(settledBalance(a)).isEqualByComparingTo("92.50");
        assertThat(settledBalance(b)).isEqualByComparingTo("107.50");
        assertThat(ledger.counters()).isEqualTo(new LedgerCounters(0, 0, 0, 0));
    }

    @Test
    void timesOutUnknownWhileALiveTransferHoldsAnAccountAndTheRetryResolvesIt() {
        Account a = open("a", "100.00");
        Account b = open("b", "100.00");
        LwtLedger holder = ledger(Duration.ofSeconds(30), Duration.ofSeconds(30));
        UUID first = UUID.randomUUID();
        holder.steps().register(TransferRow.fresh(first, a, b, BigDecimal.ONE));
        holder.steps().claim(first, holder.clientId());
        holder.steps().lock(first, a, BigDecimal.ONE.negate());

        LwtLedger waiter = ledger(Duration.ofSeconds(30), Duration.ofMillis(300));
        UUID second = UUID.randomUUID();
        assertThat(waiter.transfer(second, b, a, BigDecimal.TEN)).isEqualTo(TransferOutcome.TIMED_OUT_UNKNOWN);
        assertThat(settledBalance(b)).isEqualByComparingTo("100.00");

        assertThat(holder.transfer(first, a, b, BigDecimal.ONE)).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(waiter.transfer(second, b, a, BigDecimal.TEN)).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(settledBalance(a)).isEqualByComparingTo("109.00");
        assertThat(settledBalance(b)).isEqualByComparingTo("91.00");
        assertThat(transferRows()).isZero();
    }

    @Test
    void releasesTheStaleLockOfATransferThatIsGone() {
        Account a = open("a", "100.00");
        Account b = open("b", "100.00");
        session.execute("UPDATE " + keyspace.asCql(true) + ".accounts SET pending_transfer = ?, pending_amount = 3 WHERE bic = ? AND ban = ?",
                UUID.randomUUID(), b.bic(), b.ban());
        LwtLedger ledger = ledger();
        assertThat(ledger.transfer(UUID.randomUUID(), a, b, BigDecimal.ONE)).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(ledger.counters().staleLocksReleased()).isEqualTo(1);
        assertThat(settledBalance(b)).isEqualByComparingTo("101.00");
    }

    @Test
    void concurrentTransfersOverFewAccountsKeepTheTotalAndNeverOverdraw() throws Exception {
        List<Account> accounts = new ArrayList<>();
        for (int i = 0; i < 4; i++) accounts.add(open("acc" + i, "50.00"));
        List<LwtLedger> clients = List.of(ledger(), ledger());
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<TransferOutcome>> outcomes = new ArrayList<>();
            for (int i = 0; i < 90; i++) {
                LwtLedger client = clients.get(i % 2);
                outcomes.add(pool.submit(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    int from = random.nextInt(accounts.size());
                    int to = (from + 1 + random.nextInt(accounts.size() - 1)) % accounts.size();
                    UUID id = UUID.randomUUID();
                    BigDecimal amount = BigDecimal.valueOf(random.nextLong(1, 4000), 2);
                    // TIMED_OUT_UNKNOWN (a timeout on a loaded machine) is "not known yet": the same id resolves it
                    TransferOutcome outcome = client.transfer(id, accounts.get(from), accounts.get(to), amount);
                    for (int retry = 0; retry < 20 && outcome == TransferOutcome.TIMED_OUT_UNKNOWN; retry++)
                        outcome = client.transfer(id, accounts.get(from), accounts.get(to), amount);
                    return outcome;
                }));
            }
            for (Future<TransferOutcome> outcome : outcomes)
                assertThat(outcome.get()).isIn(TransferOutcome.COMPLETED, TransferOutcome.INSUFFICIENT_FUNDS);
        } finally {
            pool.shutdownNow();
        }
        BigDecimal total = BigDecimal.ZERO;
        for (Account account : accounts) {
            BigDecimal balance = settledBalance(account);
            assertThat(balance).as("balance of %s", account).isNotNegative();
            total = total.add(balance);
        }
        assertThat(total).isEqualByComparingTo("200.00");
        assertThat(transferRows()).isZero();
        assertThat(clients.get(0).counters().lockConflicts() + clients.get(1).counters().lockConflicts()).isPositive();
    }
}
