package ballot.paxos.coordinator;

import ballot.paxos.spi.RandomSource;

/**
 * Randomised exponential back-off after losing to another ballot ("full jitter": uniform in [0, min(max, base·2^n)]),
 * so that duelling coordinators spread out instead of pre-empting each other forever (docs/paxos.md §4.9).
 */
final class Backoff {
    private final RandomSource random;
    private final long baseNanos;
    private final long maxNanos;

    Backoff(RandomSource random, long baseNanos, long maxNanos) {
        this.random = random;
        this.baseNanos = baseNanos;
        this.maxNanos = maxNanos;
    }

    long delayNanos(int attempt) {
        long ceiling = baseNanos << Math.min(attempt, 30);
        if (ceiling <= 0 || ceiling > maxNanos) ceiling = maxNanos;
        return random.nextLong(ceiling + 1);
    }
}
