package ballot.paxos.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Which seeds a simulation test runs: {@code -Dballot.sim.seed=N} replays exactly one run; otherwise
 * {@code -Dballot.sim.seeds=N} fresh seeds (default: the test's own count), derived from {@code -Dballot.sim.base}
 * or from the time, and printed so any of them can be replayed.
 */
final class SimSeed {
    private SimSeed() {}

    static List<Long> seeds(int defaultCount) {
        String one = System.getProperty("ballot.sim.seed");
        if (one != null && !one.isBlank()) return List.of(Long.parseLong(one.trim()));
        int count = Integer.getInteger("ballot.sim.seeds", defaultCount);
        long base = Long.getLong("ballot.sim.base", System.nanoTime()); // test code: the base is printed
        SplittableRandom random = new SplittableRandom(base);
        List<Long> seeds = new ArrayList<>(count);
        for (int i = 0; i < count; i++) seeds.add(random.nextLong() & Long.MAX_VALUE);
        System.out.println("SIM base=" + base + " seeds=" + count + " (replay one with -Dballot.sim.seed=<seed>)");
        return seeds;
    }

    static boolean replaying() {
        String one = System.getProperty("ballot.sim.seed");
        return one != null && !one.isBlank();
    }
}
