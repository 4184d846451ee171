package ballot.txn.sim;

import java.util.SplittableRandom;

/**
 * One simulation run's shape and faults; {@link #random} draws a varied one from a seed.
 *
 * @param accounts accounts that exist (with a random balance); {@code ghosts} more that do not
 * @param zipfian whether accounts are chosen with a zipfian skew (hot accounts) instead of uniformly
 * @param homeIsSource whether a transfer's record lives in its source account's partition instead of its own row
 * @param loss share of CAS results lost (UNKNOWN); such a step lands or not, possibly after the UNKNOWN
 * @param duplicate share of steps evaluated twice
 * @param crashMeanNanos mean time between coordinator crashes (0: none)
 * @param readShare share of operations that read (half snapshots of all accounts, half 1PC reads of one)
 */
record SimOptions(int nodes, int accounts, int ghosts, int clients, int opsPerClient, boolean zipfian,
        boolean homeIsSource, double loss, double duplicate, long crashMeanNanos, double readShare, int retries,
        long amountMax, SimStore.Bug bug) {

    static final long MS = 1_000_000L;

    static SimOptions random(SplittableRandom r, int opsPerClient) {
        boolean calm = r.nextInt(6) == 0;
        return new SimOptions(1 + r.nextInt(3), 2 + r.nextInt(6), r.nextInt(3) == 0 ? 0 : 1 + r.nextInt(2),
                2 + r.nextInt(6), opsPerClient, r.nextBoolean(), r.nextInt(3) == 0,
                calm ? 0 : r.nextDouble() * 0.08, calm ? 0 : r.nextDouble() * 0.05,
                calm || r.nextInt(3) == 0 ? 0 : (20 + r.nextInt(200)) * MS, 0.1 + 0.2 * r.nextDouble(), 3,
                r.nextBoolean() ? 40 : 150, SimStore.Bug.NONE);
    }

    SimOptions withBug(SimStore.Bug b) {
        return new SimOptions(nodes, accounts, ghosts, clients, opsPerClient, zipfian, homeIsSource, loss, duplicate,
                crashMeanNanos, readShare, retries, amountMax, b);
    }

    @Override
    public String toString() {
        return "nodes=" + nodes + " accounts=" + accounts + "+" + ghosts + " clients=" + clients + " ops=" + opsPerClient
                + (zipfian ? " zipfian" : " uniform") + (homeIsSource ? " home=source" : " home=own")
                + String.format(" loss=%.3f dup=%.3f", loss, duplicate)
                + (crashMeanNanos > 0 ? " crashEvery~" + crashMeanNanos / MS + "ms" : "")
                + String.format(" reads=%.2f", readShare) + " amountMax=" + amountMax
                + (bug == SimStore.Bug.NONE ? "" : " BUG=" + bug);
    }
}
