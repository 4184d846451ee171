package ballot.paxos.sim;

import ballot.paxos.coordinator.CommitLevel;
import java.util.SplittableRandom;

/** One simulation run's shape and faults; {@link #random} draws a varied one from a seed. */
record SimOptions(int nodes, int keys, int clients, int opsPerClient, double homeAffinity, double readShare,
        CommitLevel[] commitLevels, long opTimeoutNanos, double loss, double duplicate, long delayMaxNanos,
        boolean crashes, double crashAfterPersist, boolean partitions, boolean clockJumps, boolean plainWrites,
        boolean fastPath, int batchSizeMax, SimStore.Bug bug, long purgeGraceNanos) {

    static final long MS = 1_000_000L;

    static SimOptions random(SplittableRandom r, int opsPerClient) {
        int nodes = r.nextInt(4) == 0 ? 5 : 3;
        CommitLevel[] levels = switch (r.nextInt(3)) {
            case 0 -> new CommitLevel[] {CommitLevel.ANY};
            case 1 -> new CommitLevel[] {CommitLevel.QUORUM};
            default -> new CommitLevel[] {CommitLevel.ANY, CommitLevel.ONE, CommitLevel.QUORUM, CommitLevel.ALL};
        };
        boolean calm = r.nextInt(5) == 0;
        return new SimOptions(nodes, 1 + r.nextInt(3), 2 + r.nextInt(6), opsPerClient,
                r.nextDouble() < 0.3 ? 1.0 : r.nextDouble(), 0.15 + 0.3 * r.nextDouble(), levels,
                (150 + r.nextInt(400)) * MS,
                calm ? 0 : r.nextDouble() * 0.06, calm ? 0 : r.nextDouble() * 0.04, (1 + r.nextInt(20)) * MS,
                !calm && r.nextBoolean(), calm ? 0 : r.nextDouble() * 0.01, !calm && r.nextBoolean(),
                !calm && r.nextBoolean(), r.nextInt(3) > 0, r.nextInt(6) > 0, 1 + r.nextInt(16), SimStore.Bug.NONE, 0);
    }

    /** No faults at all, every client on one coordinator: the steady state of a hot partition. */
    static SimOptions steady(int clients, int ops, CommitLevel level) {
        return new SimOptions(3, 1, clients, ops, 1.0, 0.0, new CommitLevel[] {level}, 500 * MS, 0, 0, 2 * MS,
                false, 0, false, false, false, true, 32, SimStore.Bug.NONE, 0);
    }

    SimOptions withBug(SimStore.Bug bug) {
        return new SimOptions(nodes, keys, clients, opsPerClient, homeAffinity, readShare, commitLevels, opTimeoutNanos,
                loss, duplicate, delayMaxNanos, crashes, crashAfterPersist, partitions, clockJumps, plainWrites, fastPath,
                batchSizeMax, bug, purgeGraceNanos);
    }

    /**
     * Replicas purge their registers (docs/paxos.md §4.13) with this grace period, which must exceed every request's
     * deadline; clients sometimes pause for up to three grace periods, so that partitions go idle long enough.
     */
    SimOptions withPurge(long graceNanos) {
        return new SimOptions(nodes, keys, clients, opsPerClient, homeAffinity, readShare, commitLevels, opTimeoutNanos,
                loss, duplicate, delayMaxNanos, crashes, crashAfterPersist, partitions, clockJumps, plainWrites, fastPath,
                batchSizeMax, bug, graceNanos);
    }

    SimOptions withNodes(int n) {
        return new SimOptions(n, keys, clients, opsPerClient, homeAffinity, readShare, commitLevels, opTimeoutNanos,
                loss, duplicate, delayMaxNanos, crashes, crashAfterPersist, partitions, clockJumps, plainWrites, fastPath,
                batchSizeMax, bug, purgeGraceNanos);
    }

    SimOptions withPlainWrites(boolean on) {
        return new SimOptions(nodes, keys, clients, opsPerClient, homeAffinity, readShare, commitLevels, opTimeoutNanos,
                loss, duplicate, delayMaxNanos, crashes, crashAfterPersist, partitions, clockJumps, on, fastPath,
                batchSizeMax, bug, purgeGraceNanos);
    }

    SimOptions withHomeAffinity(double affinity) {
        return new SimOptions(nodes, keys, clients, opsPerClient, affinity, readShare, commitLevels, opTimeoutNanos,
                loss, duplicate, delayMaxNanos, crashes, crashAfterPersist, partitions, clockJumps, plainWrites, fastPath,
                batchSizeMax, bug, purgeGraceNanos);
    }

    @Override
    public String toString() {
        return "nodes=" + nodes + " keys=" + keys + " clients=" + clients + " ops=" + opsPerClient + " home="
                + String.format("%.2f", homeAffinity) + " levels=" + java.util.Arrays.toString(commitLevels)
                + String.format(" loss=%.3f dup=%.3f", loss, duplicate) + " delayMax=" + delayMaxNanos / MS + "ms"
                + (crashes ? " crashes" : "") + (crashAfterPersist > 0 ? String.format(" crashAfterPersist=%.4f", crashAfterPersist) : "")
                + (partitions ? " partitions" : "") + (clockJumps ? " clockJumps" : "") + (plainWrites ? " plainWrites" : "")
                + (fastPath ? "" : " noFastPath") + " batch=" + batchSizeMax + (bug == SimStore.Bug.NONE ? "" : " BUG=" + bug)
                + (purgeGraceNanos > 0 ? " purge=" + purgeGraceNanos / MS + "ms" : "");
    }
}
