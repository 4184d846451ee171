package ballot.tools.ledger;

import java.util.Comparator;
import java.util.Objects;

/**
 * A bank account of the ledger, named by its partition key: the bank identifier code and the account number within
 * the bank. The natural order (bank, then number) is the order in which a transfer locks its two accounts, so two
 * transfers over the same pair never wait for each other in a cycle.
 */
public record Account(String bic, String ban) implements Comparable<Account> {
    private static final Comparator<Account> LOCK_ORDER = Comparator.comparing(Account::bic).thenComparing(Account::ban);

    public Account {
        Objects.requireNonNull(bic, "bic");
        Objects.requireNonNull(ban, "ban");
    }

    @Override
    public int compareTo(Account other) {
        return LOCK_ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return bic + "/" + ban;
    }
}
