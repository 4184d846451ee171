package ballot.tools.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.tools.ledger.Account;
import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class AccountsTest {
    @Test
    void sameSeedGivesSameAccounts() {
        List<Account> first = LongStream.range(0, 1_000).mapToObj(new Accounts(42)::account).toList();
        List<Account> again = LongStream.range(0, 1_000).mapToObj(new Accounts(42)::account).toList();
        assertThat(again).isEqualTo(first);
    }

    @Test
    void accountDependsOnlyOnSeedAndIndex() {
        Accounts ledger = new Accounts(7);
        Account late = ledger.account(123_456);
        for (long i = 0; i < 100; i++) ledger.account(i);
        assertThat(new Accounts(7).account(123_456)).isEqualTo(late).isEqualTo(ledger.account(123_456));
    }

    @Test
    void otherSeedGivesOtherAccounts() {
        Accounts a = new Accounts(0);
        Accounts b = new Accounts(1);
        long same = LongStream.range(0, 1_000).filter(i -> a.account(i).ban().equals(b.account(i).ban())).count();
        assertThat(same).isZero();
    }

    @Test
    void indicesAreDistinctPartitions() {
        Accounts ledger = new Accounts(0);
        Set<String> keys = new HashSet<>();
        Set<String> banks = new HashSet<>();
        for (long i = 0; i < 100_000; i++) {
            Account account = ledger.account(i);
            keys.add(account.bic() + "/" + account.ban());
            banks.add(account.bic());
        }
        assertThat(keys).hasSize(100_000);
        assertThat(banks).hasSizeGreaterThan(Accounts.BANKS / 2).hasSizeLessThanOrEqualTo(Accounts.BANKS);
    }

    @Test
    void accountsAreWellFormed() {
        Accounts ledger = new Accounts(3);
        for (long i = 0; i < 10_000; i++) {
            Account account = ledger.account(i);
            assertThat(account.bic()).matches("[A-Z]{4}(CH|DE|FR|GB|IN|NL|SE|US)[0-9]{2}");
            assertThat(account.ban()).matches("[0-9]{20}");
            assertThat(ledger.openingBalance(i).scale()).isEqualTo(2);
            assertThat(ledger.openingBalance(i)).isBetween(BigDecimal.ZERO, new BigDecimal("99999.99"));
        }
    }

    @Test
    void openingBalancesDependOnlyOnSeedAndIndexAndAddUpToTheTotal() {
        Accounts ledger = new Accounts(5);
        BigDecimal sum = BigDecimal.ZERO;
        for (long i = 0; i < 1_000; i++) sum = sum.add(new Accounts(5).openingBalance(i));
        assertThat(ledger.openingTotal(1_000)).isEqualTo(sum).isPositive();
        assertThat(ledger.openingTotal(0)).isEqualByComparingTo("0");
        assertThat(ledger.openingBalance(17)).isNotEqualTo(new Accounts(6).openingBalance(17));
    }

    @Test
    void rejectsNegativeIndex() {
        assertThatThrownBy(() -> new Accounts(0).account(-1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThatThrownBy(() -> new Accounts(0).openingBalance(-2)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-2");
    }

    @Test
    void mixIsABijectionOnSmallInputs() {
        Set<Long> outputs = new HashSet<>();
        for (long i = -50_000; i < 50_000; i++) outputs.add(Accounts.mix(i));
        assertThat(outputs).hasSize(100_000);
    }
}
