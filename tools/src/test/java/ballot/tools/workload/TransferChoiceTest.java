package ballot.tools.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.tools.ledger.Account;
import ballot.tools.workload.TransferChoice.Payment;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class TransferChoiceTest {
    private static final Accounts LEDGER = new Accounts(0);

    @Test
    void picksTwoDifferentRegisteredAccountsAndAnAmountInCents() {
        for (boolean zipfian : new boolean[] {false, true}) {
            Set<Account> registered = new HashSet<>(LongStream.range(0, 50).mapToObj(LEDGER::account).toList());
            TransferChoice choice = new TransferChoice(LEDGER, 50, zipfian);
            SplittableRandom random = new SplittableRandom(1);
            for (int i = 0; i < 20_000; i++) {
                Payment payment = choice.next(random);
                assertThat(payment.source()).isNotEqualTo(payment.destination());
                assertThat(registered).contains(payment.source(), payment.destination());
                assertThat(payment.amount().scale()).isEqualTo(2);
                assertThat(payment.amount()).isBetween(new BigDecimal("0.01"), new BigDecimal("9999.99"));
            }
        }
    }

    @Test
    void twoAccountsAlwaysMakeAPair() {
        TransferChoice choice = new TransferChoice(LEDGER, 2, true);
        SplittableRandom random = new SplittableRandom(2);
        for (int i = 0; i < 1_000; i++) {
            Payment payment = choice.next(random);
            assertThat(Set.of(payment.source(), payment.destination())).containsExactlyInAnyOrder(LEDGER.account(0), LEDGER.account(1));
        }
    }

    @Test
    void uniformSpreadsTheAccountsAndZipfianMakesAFewHot() {
        Map<Long, Integer> uniform = counts(new TransferChoice(LEDGER, 1_000, false));
        Map<Long, Integer> zipfian = counts(new TransferChoice(LEDGER, 1_000, true));
        assertThat(uniform.keySet()).hasSize(1_000);
        assertThat(uniform.values().stream().mapToInt(Integer::intValue).max().orElseThrow()).isLessThan(200); // mean 100
        assertThat(zipfian.get(0L)).isGreaterThan(10_000);
        assertThat(zipfian.get(0L)).isGreaterThan(zipfian.getOrDefault(500L, 0) * 50);
    }

    private static Map<Long, Integer> counts(TransferChoice choice) {
        SplittableRandom random = new SplittableRandom(3);
        Map<Long, Integer> counts = new HashMap<>();
        for (int i = 0; i < 100_000; i++) counts.merge(choice.index(random), 1, Integer::sum);
        return counts;
    }

    @Test
    void needsTwoAccounts() {
        assertThatThrownBy(() -> new TransferChoice(LEDGER, 1, false)).hasMessageContaining("there are 1");
    }
}
