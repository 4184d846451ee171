package ballot.txn.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Which seeds a simulation test runs: {@code -Dballot.txn.sim.seed=N} replays exactly one run; otherwise
 * {@code -Dballot.txn.sim.seeds=N} fresh seeds (default: the test's own count), derived from
 * {@code -Dballot.txn.sim.base} or from the time, and printed so any of them can be replayed.
 */
final class SimSeed {
    private SimSeed() {}

    static List<Long> seeds(int defaultCount) {
        String one = System.getProperty("ballot.txn.sim.seed");
        if (one != null && !one.isBlank()) return List.of(Long.parseLong(one.trim()));
        int count = Integer.getInteger("ballot.txn.sim.seeds", defaultCount);
        long base = Long.getLong("ballot.txn.sim.base", System.nanoTime()); // test code: the base is printed
        SplittableRandom random = new SplittableRandom(base);
        List<Long> seeds = new ArrayList<>(count);
        for (int i = 0; i < count; i++) seeds.add(random.nextLong() & Long.MAX_VALUE);
        System.out.println("TXN-SIM base=" + base + " seeds=" + count + " (replay one with -Dballot.txn.sim.seed=<seed>)");
        return seeds;
    }

    static boolean replaying() {
        String one = System.getProperty("ballot.txn.sim.seed");
        return one != null && !one.isBlank();
    }

    static int opsPerClient(int defaultOps) {
        return Integer.getInteger("ballot.txn.sim.ops", defaultOps);
    }
}
