package ballot.tools.workload;

/**
 * Zipfian ranks 0..n-1: rank k is drawn with probability proportional to 1/(k+1)^theta, so the first ranks are hot.
 * Gray et al.'s method ("Quickly generating billion-record synthetic databases", SIGMOD 1994), as YCSB draws its
 * zipfian keys: zeta(n) once (O(n)), then O(1) per draw. Ranks 0 and 1 come out with their exact probabilities; the
 * rest follow an integral approximation of the distribution, which {@code ZipfianTest} measures against the exact one.
 * theta is in (0, 1); YCSB's default, 0.99, is pay's.
 */
final class Zipfian {
    static final double THETA = 0.99;

    private final long n;
    private final double zetaN;
    private final double alpha;
    private final double eta;
    private final double rankOneBound;

    Zipfian(long n, double theta) {
        if (n < 1) throw new IllegalArgumentException("zipfian over " + n + " ranks; there must be at least 1");
        if (!(theta > 0 && theta < 1)) throw new IllegalArgumentException("zipfian theta is " + theta + "; it must be between 0 and 1, exclusive");
        this.n = n;
        this.zetaN = zeta(n, theta);
        this.alpha = 1 / (1 - theta);
        // used only for ranks from 2 on, so only when n > 2 (for n = 2 the denominator is 0)
        this.eta = (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - zeta(2, theta) / zetaN);
        this.rankOneBound = 1 + Math.pow(0.5, theta);
    }

    /** The rank for {@code u}, uniform in [0, 1). */
    long rank(double u) {
        double uz = u * zetaN;
        if (uz < 1) return 0;
        if (uz < rankOneBound || n == 2) return Math.min(1, n - 1);
        return Math.min(n - 1, (long) (n * Math.pow(eta * u - eta + 1, alpha)));
    }

    /** zeta(n, theta) = sum over i = 1..n of 1/i^theta. */
    static double zeta(long n, double theta) {
        double sum = 0;
        for (long i = 1; i <= n; i++) sum += 1 / Math.pow(i, theta);
        return sum;
    }
}
