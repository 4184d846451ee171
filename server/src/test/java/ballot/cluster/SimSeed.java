package ballot.cluster;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The seed of a simulation run: {@code -Dballot.sim.seed=} replays one; otherwise a fresh one, printed if the run
 * fails. {@code -Dballot.sim.runs=N} runs each scenario with N fresh seeds (a soak).
 */
public final class SimSeed {
    private SimSeed() {}

    public static long next() {
        String replay = System.getProperty("ballot.sim.seed");
        return replay != null && !replay.isBlank() ? Long.parseLong(replay.trim()) : ThreadLocalRandom.current().nextLong();
    }

    public interface Body {
        void run(long seed);
    }

    /** Runs {@code body} once per {@code ballot.sim.runs} (1 by default; once when a seed is replayed). */
    public static void repeat(Body body) {
        String replay = System.getProperty("ballot.sim.seed");
        int runs = replay != null && !replay.isBlank() ? 1 : Integer.getInteger("ballot.sim.runs", 1);
        for (int i = 0; i < runs; i++) run(next(), body);
    }

    /** Runs {@code body} with {@code seed}; a failure is rethrown with the seed and how to replay it. */
    public static void run(long seed, Body body) {
        try {
            body.run(seed);
        } catch (AssertionError | RuntimeException e) {
            String message = "simulation failed with seed " + seed + "; replay with -Dballot.sim.seed=" + seed;
            System.err.println(message);
            throw new AssertionError(message + ": " + e.getMessage(), e);
        }
    }
}
