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
 * @param impatience share of submissions whose client gives up after 3-30 ms and retries while the first is at work
 * @param balanceMax accounts start with a balance in [0, balanceMax)
 */
record SimOptions(int nodes, int accounts, int ghosts, int clients, int opsPerClient, boolean zipfian,
        boolean homeIsSource, double loss, double duplicate, long crashMeanNanos, double readShare, int retries,
        double impatience, long balanceMax, long amountMax, SimStore.Bug bug) {

    static final long MS = 1_000_000L;

    static SimOptions random(SplittableRandom r, int opsPerClient) {
        boolean calm = r.nextInt(6) == 0;
        return new SimOptions(1 + r.nextInt(3), 2 + r.nextInt(6), r.nextInt(3) == 0 ? 0 : 1 + r.nextInt(2),
                2 + r.nextInt(6), opsPerClient, r.nextBoolean(), r.nextInt(3) == 0,
                calm ? 0 : r.nextDouble() * 0.08, calm ? 0 : r.nextDouble() * 0.05,
                calm || r.nextInt(3) == 0 ? 0 : (20 + r.nextInt(200)) * MS, 0.1 + 0.2 * r.nextDouble(), 3,
                0.25, 120, r.nextBoolean() ? 40 : 150, SimStore.Bug.NONE);
    }

    /**
     * A contended run without faults (docs/txn.md §13): seven clients over {@code accounts} accounts that all exist
     * and are rich enough that few transfers are refused, a tenth of the operations snapshots that lock every
     * account, no lost or duplicated results, no crashes, no impatient clients. Only the node count, clock skews,
     * latencies and choices vary with the seed.
     */
    static SimOptions contended(SplittableRandom r, int opsPerClient, int accounts, boolean zipfian) {
        return new SimOptions(1 + r.nextInt(3), accounts, 0, 7, opsPerClient, zipfian, r.nextBoolean(), 0, 0, 0, 0.2,
                3, 0, 1_000, 40, SimStore.Bug.NONE);
    }

    SimOptions withBug(SimStore.Bug b) {
        return new SimOptions(nodes, accounts, ghosts, clients, opsPerClient, zipfian, homeIsSource, loss, duplicate,
                crashMeanNanos, readShare, retries, impatience, balanceMax, amountMax, b);
    }

    boolean faultFree() {
        return loss == 0 && duplicate == 0 && crashMeanNanos == 0 && impatience == 0;
    }

    /** The run's contention profile, for the liveness report: skew, and few (at most 4) or more accounts. */
    String profile() {
        return (zipfian ? "zipfian" : "uniform") + (accounts <= 4 ? "/hot" : "/spread");
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
