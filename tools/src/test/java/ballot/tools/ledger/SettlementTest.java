package ballot.tools.ledger;

import ballot.txn.transfer.TransferOutcome;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The balance step's decision, from every point a transfer can be resumed at (pending_amount as the sentinel). */
class SettlementTest {
    private static final UUID ID = UUID.randomUUID();
    private static final Account SOURCE = new Account("AAAACH00", "1");
    private static final Account DESTINATION = new Account("AAAACH00", "2");
    private static final BigDecimal AMOUNT = new BigDecimal("30.00");

    private static Holding source(String balance, String pending) {
        return new Holding(SOURCE, new BigDecimal(balance), new BigDecimal(pending), ID);
    }

    private static Holding destination(String balance, String pending) {
        return new Holding(DESTINATION, new BigDecimal(balance), new BigDecimal(pending), ID);
    }

    @Test
    void movesTheAmountWhenTheSourceCanPayIt() {
        Settlement s = Settlement.decide(ID, AMOUNT, source("100.00", "-30.00"), destination("5.00", "30.00"));
        assertThat(s.outcome()).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(s.sourceBalance()).isEqualByComparingTo("70.00");
        assertThat(s.destinationBalance()).isEqualByComparingTo("35.00");
    }

    @Test
    void theWholeBalanceMayBePaid() {
        Settlement s = Settlement.decide(ID, AMOUNT, source("30.00", "-30"), destination("0", "30"));
        assertThat(s.outcome()).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(s.sourceBalance()).isZero();
    }

    @Test
    void refusesToOverdrawAndWritesNothing() {
        Settlement s = Settlement.decide(ID, AMOUNT, source("29.99", "-30.00"), destination("5.00", "30.00"));
        assertThat(s.outcome()).isEqualTo(TransferOutcome.INSUFFICIENT_FUNDS);
        assertThat(s.sourceBalance()).isNull();
        assertThat(s.destinationBalance()).isNull();
    }

    @Test
    void aRepeatAfterTheSourceWasWrittenWritesTheSameBalances() {
        Settlement first = Settlement.decide(ID, AMOUNT, source("100.00", "-30.00"), destination("5.00", "30.00"));
        Settlement afterSource = Settlement.decide(ID, AMOUNT, source("70.00", "0"), destination("5.00", "30.00"));
        Settlement afterBoth = Settlement.decide(ID, AMOUNT, source("70.00", "0"), destination("35.00", "0"));
        assertThat(afterSource).isEqualTo(first);
        assertThat(afterBoth).isEqualTo(first);
    }

    @Test
    void aRepeatAfterOneWriteStillCompletesEvenIfTheSourceIsNowSmall() {
        // the source paid everything it had: balance 0, pending 0; deciding again must not call it an overdraft
        Settlement s = Settlement.decide(ID, AMOUNT, source("0.00", "0"), destination("5.00", "30.00"));
        assertThat(s.outcome()).isEqualTo(TransferOutcome.COMPLETED);
        assertThat(s.destinationBalance()).isEqualByComparingTo("35.00");
    }

    @Test
    void refusesAPendingAmountThatIsNotThisTransfers() {
        assertThatThrownBy(() -> Settlement.decide(ID, AMOUNT, source("100.00", "-29.00"), destination("5.00", "30.00")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining(ID.toString()).hasMessageContaining("-29.00");
        assertThatThrownBy(() -> Settlement.decide(ID, AMOUNT, source("100.00", "-30.00"), destination("5.00", "-30.00")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining(DESTINATION.toString());
    }

    @Test
    void refusesAnOverdraftOnceABalanceWasWritten() {
        assertThatThrownBy(() -> Settlement.decide(ID, AMOUNT, source("10.00", "-30.00"), destination("35.00", "0")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("has written a balance");
    }
}
