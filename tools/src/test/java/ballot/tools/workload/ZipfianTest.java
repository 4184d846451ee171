package ballot.tools.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Gray's zipfian draws against the exact distribution, computed naively from its definition. */
class ZipfianTest {
    private static final int DRAWS = 400_000;

    private static double[] frequencies(Zipfian zipfian, int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] frequency = new double[n];
        for (int i = 0; i < DRAWS; i++) frequency[(int) zipfian.rank(random.nextDouble())] += 1.0 / DRAWS;
        return frequency;
    }

    /** The exact probability of rank k: (1/(k+1)^theta) / sum over i = 1..n of 1/i^theta. */
    private static double exact(int k, int n, double theta) {
        double zeta = 0;
        for (int i = 1; i <= n; i++) zeta += Math.pow(i, -theta);
        return Math.pow(k + 1, -theta) / zeta;
    }

    @Test
    void theHottestRanksHaveTheirExactProbabilities() {
        int n = 1_000;
        double[] frequency = frequencies(new Zipfian(n, Zipfian.THETA), n, 1);
        assertThat(frequency[0]).isCloseTo(exact(0, n, Zipfian.THETA), within(0.003));
        assertThat(frequency[1]).isCloseTo(exact(1, n, Zipfian.THETA), within(0.003));
    }

    @Test
    void theWholeDistributionIsCloseToTheExactOne() {
        for (double theta : new double[] {0.5, Zipfian.THETA}) {
            int n = 200;
            double[] frequency = frequencies(new Zipfian(n, theta), n, 2);
            double totalVariation = 0;
            for (int k = 0; k < n; k++) totalVariation += Math.abs(frequency[k] - exact(k, n, theta)) / 2;
            assertThat(totalVariation).as("total variation distance at theta %s", theta).isLessThan(0.035);
        }
    }

    @Test
    void aFewAccountsAreHot() {
        int n = 10_000;
        double[] frequency = frequencies(new Zipfian(n, Zipfian.THETA), n, 3);
        double topPercent = 0;
        for (int k = 0; k < n / 100; k++) topPercent += frequency[k];
        assertThat(topPercent).as("share of the hottest 1%% of ranks").isGreaterThan(0.45);
        assertThat(frequency[0]).isGreaterThan(frequency[1]).isGreaterThan(frequency[10] * 5);
    }

    @Test
    void ranksStayInRange() {
        for (long n : new long[] {1, 2, 3, 10}) {
            Zipfian zipfian = new Zipfian(n, Zipfian.THETA);
            SplittableRandom random = new SplittableRandom(n);
            for (int i = 0; i < 100_000; i++) assertThat(zipfian.rank(random.nextDouble())).isBetween(0L, n - 1);
            assertThat(zipfian.rank(0)).isZero();
            assertThat(zipfian.rank(Math.nextDown(1.0))).isBetween(0L, n - 1);
        }
    }

    @Test
    void rejectsBadParameters() {
        assertThatThrownBy(() -> new Zipfian(0, 0.5)).hasMessageContaining("0 ranks");
        assertThatThrownBy(() -> new Zipfian(10, 1.0)).hasMessageContaining("theta is 1.0");
        assertThatThrownBy(() -> new Zipfian(10, 0)).hasMessageContaining("theta is 0.0");
    }
}
