package ballot.tools.workload;

import ballot.tools.ledger.Account;
import java.math.BigDecimal;
import java.util.random.RandomGenerator;

/**
 * How pay picks a transfer: a source and a different destination among accounts 0..accounts-1 of the seed's ledger,
 * and an amount of 0.01 to 9,999.99 in whole cents (opening balances go to 99,999.99, so overdrafts are rare until
 * hot accounts have paid out). Uniform, or zipfian: the same few accounts hot for every worker, the lowest indices,
 * which {@link Accounts} scatters over banks and partitions. lightest's zipfian draws only the account number from
 * a very steep distribution (s = 3) and the bank uniformly; ours draws the account from YCSB's (theta 0.99).
 */
final class TransferChoice {
    /** Amounts are whole cents below this. */
    static final long AMOUNT_CENTS_MAX = 1_000_000;

    /** One transfer to make. */
    record Payment(Account source, Account destination, BigDecimal amount) {}

    private final Accounts ledger;
    private final long accounts;
    private final Zipfian zipfian;

    /** {@code zipfian} false: uniform. */
    TransferChoice(Accounts ledger, long accounts, boolean zipfian) {
        if (accounts < 2) throw new IllegalArgumentException("a transfer needs two accounts; there are " + accounts);
        this.ledger = ledger;
        this.accounts = accounts;
        this.zipfian = zipfian ? new Zipfian(accounts, Zipfian.THETA) : null;
    }

    Payment next(RandomGenerator random) {
        long source = index(random);
        long destination = index(random);
        while (destination == source) destination = index(random);
        return new Payment(ledger.account(source), ledger.account(destination), BigDecimal.valueOf(random.nextLong(1, AMOUNT_CENTS_MAX), 2));
    }

    /** An account index, uniform or zipfian. */
    long index(RandomGenerator random) {
        return zipfian == null ? random.nextLong(accounts) : zipfian.rank(random.nextDouble());
    }
}
