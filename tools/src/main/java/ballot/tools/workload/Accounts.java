package ballot.tools.workload;

import ballot.tools.ledger.Account;
import java.math.BigDecimal;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * The accounts of a ledger, a pure function of the seed: account {@code i} is the same in every run with that seed,
 * so {@code pay} can pick accounts by index without reading them back (lightest saves its seed for the same reason).
 * Unlike lightest, which draws accounts at random until N are new, pop registers indices 0..N-1 exactly once: account
 * numbers are a bijection of the index, so N indices are N distinct partitions, and only a repeated run finds duplicates.
 */
final class Accounts {
    static final int BANKS = 32;
    /** Opening balances are whole cents below this: up to 99,999.99. */
    static final long BALANCE_CENTS_MAX = 10_000_000;
    private static final List<String> COUNTRIES = List.of("CH", "DE", "FR", "GB", "IN", "NL", "SE", "US");

    private final long key;
    private final List<String> bics;

    Accounts(long seed) {
        this.key = mix(seed);
        SplittableRandom banks = new SplittableRandom(seed);
        this.bics = IntStream.range(0, BANKS).mapToObj(i -> bic(banks)).toList();
    }

    Account account(long index) {
        long number = number(index);
        String digits = Long.toUnsignedString(number);
        String ban = "0".repeat(20 - digits.length()) + digits;
        return new Account(bics.get(new SplittableRandom(number).nextInt(BANKS)), ban);
    }

    /** The balance pop registers account {@code index} with. */
    BigDecimal openingBalance(long index) {
        SplittableRandom random = new SplittableRandom(number(index));
        random.nextInt(BANKS); // the bank, drawn first
        return BigDecimal.valueOf(random.nextLong(BALANCE_CENTS_MAX), 2);
    }

    /** The total of the opening balances of accounts 0..count-1: what their balances add up to as long as only transfers change them. */
    BigDecimal openingTotal(long count) {
        long cents = 0;
        for (long i = 0; i < count; i++) cents = Math.addExact(cents, openingBalance(i).unscaledValue().longValueExact());
        return BigDecimal.valueOf(cents, 2);
    }

    private long number(long index) {
        if (index < 0) throw new IllegalArgumentException("account index " + index + " is negative");
        return mix(index ^ key);
    }

    /** A SWIFT-shaped bank code: four letters of bank, two of country, two digits of location, e.g. DCCDIN51. */
    private static String bic(SplittableRandom random) {
        StringBuilder bic = new StringBuilder(8);
        for (int i = 0; i < 4; i++) bic.append((char) ('A' + random.nextInt(26)));
        return bic.append(COUNTRIES.get(random.nextInt(COUNTRIES.size()))).append(random.nextInt(10)).append(random.nextInt(10)).toString();
    }

    /** SplitMix64's finalizer: a bijection on longs (each xor-shift and odd multiply is invertible) that scatters its input. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
