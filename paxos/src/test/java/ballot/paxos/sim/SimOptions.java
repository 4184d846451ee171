package ballot.paxos.sim;

import java.util.List;
import java.util.SplittableRandom;

/**
 * One simulation run's shape and faults; {@link #random} draws a varied one from a seed.
 *
 * @param dataCenters the nodes of each data center (every node is a replica of every key)
 * @param serial which electorate clients use: every replica, their data center's (each key then belongs to one data
 *     center and only its clients use it), or either at random on keys of the first data center
 * @param dcPartitions how the links between data centers are cut
 */
record SimOptions(List<Integer> dataCenters, Serial serial, DcPartitions dcPartitions, int keys, int clients,
        int opsPerClient, double homeAffinity, double readShare, SimLevel[] commitLevels, long opTimeoutNanos,
        double loss, double duplicate, long delayMaxNanos, boolean crashes, double crashAfterPersist, boolean partitions,
        boolean clockJumps, boolean plainWrites, boolean fastPath, int batchSizeMax, SimStore.Bug bug, long purgeGraceNanos,
        boolean join, boolean powerLoss) {

    static final long MS = 1_000_000L;

    enum Serial { SERIAL, LOCAL_SERIAL, MIXED }

    enum DcPartitions { NONE, INTERMITTENT, PERMANENT }

    static SimOptions random(SplittableRandom r, int opsPerClient) {
        int nodes = r.nextInt(4) == 0 ? 5 : 3;
        SimLevel[] levels = switch (r.nextInt(3)) {
            case 0 -> new SimLevel[] {SimLevel.ANY};
            case 1 -> new SimLevel[] {SimLevel.QUORUM};
            default -> new SimLevel[] {SimLevel.ANY, SimLevel.ONE, SimLevel.QUORUM, SimLevel.ALL};
        };
        boolean calm = r.nextInt(5) == 0;
        return new SimOptions(List.of(nodes), Serial.SERIAL, DcPartitions.NONE, 1 + r.nextInt(3), 2 + r.nextInt(6),
                opsPerClient, r.nextDouble() < 0.3 ? 1.0 : r.nextDouble(), 0.15 + 0.3 * r.nextDouble(), levels,
                (150 + r.nextInt(400)) * MS,
                calm ? 0 : r.nextDouble() * 0.06, calm ? 0 : r.nextDouble() * 0.04, (1 + r.nextInt(20)) * MS,
                !calm && r.nextBoolean(), calm ? 0 : r.nextDouble() * 0.01, !calm && r.nextBoolean(),
                !calm && r.nextBoolean(), r.nextInt(3) > 0, r.nextInt(6) > 0, 1 + r.nextInt(16), SimStore.Bug.NONE, 0, false, false);
    }

    /**
     * Two data centers of three replicas, clients at LOCAL_SERIAL in their own data center on its own keys, every
     * commit level, the faults of {@link #random} plus cuts between the data centers.
     */
    static SimOptions localSerial(SplittableRandom r, int opsPerClient) {
        SimOptions base = random(r, opsPerClient);
        return new SimOptions(List.of(3, 3), Serial.LOCAL_SERIAL,
                r.nextBoolean() ? DcPartitions.INTERMITTENT : DcPartitions.NONE, 2 + r.nextInt(3), 2 + r.nextInt(6),
                opsPerClient, base.homeAffinity, base.readShare, SimLevel.values(), base.opTimeoutNanos, base.loss,
                base.duplicate, base.delayMaxNanos, base.crashes, base.crashAfterPersist, base.partitions, base.clockJumps,
                base.plainWrites, base.fastPath, base.batchSizeMax, SimStore.Bug.NONE, 0, false, false);
    }

    /** No faults at all, every client on one coordinator: the steady state of a hot partition. */
    static SimOptions steady(int clients, int ops, SimLevel level) {
        return new SimOptions(List.of(3), Serial.SERIAL, DcPartitions.NONE, 1, clients, ops, 1.0, 0.0,
                new SimLevel[] {level}, 500 * MS, 0, 0, 2 * MS, false, 0, false, false, false, true, 32, SimStore.Bug.NONE, 0, false, false);
    }

    int nodes() {
        return dataCenters.stream().mapToInt(Integer::intValue).sum();
    }

    SimOptions withBug(SimStore.Bug bug) {
        return new SimOptions(dataCenters, serial, dcPartitions, keys, clients, opsPerClient, homeAffinity, readShare,
                commitLevels, opTimeoutNanos, loss, duplicate, delayMaxNanos, crashes, crashAfterPersist, partitions,
                clockJumps, plainWrites, fastPath, batchSizeMax, bug, purgeGraceNanos, join, powerLoss);
    }

    /**
     * Replicas purge their registers (docs/paxos.md §4.13) with this grace period, which must exceed every request's
     * deadline; clients sometimes pause for up to three grace periods, so that partitions go idle long enough.
     */
    SimOptions withPurge(long graceNanos) {
        return new SimOptions(dataCenters, serial, dcPartitions, keys, clients, opsPerClient, homeAffinity, readShare,
                commitLevels, opTimeoutNanos, loss, duplicate, delayMaxNanos, crashes, crashAfterPersist, partitions,
                clockJumps, plainWrites, fastPath, batchSizeMax, bug, graceNanos, join, powerLoss);
    }

    /**
     * A spare node joins the ring partway through (docs/paxos.md §4.14): it replaces one replica of every key's
     * electorate, coordinators learn of it at different moments, and it abstains from the keys' votes (they all
     * existed before it joined). Single data center, SERIAL.
     */
    SimOptions withJoin() {
        return new SimOptions(dataCenters, serial, dcPartitions, keys, clients, opsPerClient, homeAffinity, readShare,
                commitLevels, opTimeoutNanos, loss, duplicate, delayMaxNanos, crashes, crashAfterPersist, partitions,
                clockJumps, plainWrites, fastPath, batchSizeMax, bug, purgeGraceNanos, true, powerLoss);
    }

    /**
     * Every crash is a power loss (docs/paxos.md §4.15): besides the persists in flight, each replica loses the writes
     * it made without a sync since its last synced one (commits, prunes, purges), as a machine does; crashes on.
     */
    SimOptions withPowerLoss() {
        return new SimOptions(dataCenters, serial, dcPartitions, keys, clients, opsPerClient, homeAffinity, readShare,
                commitLevels, opTimeoutNanos, loss, duplicate, delayMaxNanos, true, crashAfterPersist, partitions,
                clockJumps, plainWrites, fastPath, batchSizeMax, bug, purgeGraceNanos, join, true);
    }

    SimOptions withNodes(int n) {
        return withTopology(List.of(n), serial, dcPartitions);
    }

    SimOptions withTopology(List<Integer> dataCenters, Serial serial, DcPartitions dcPartitions) {
        return new SimOptions(dataCenters, serial, dcPartitions, keys, clients, opsPerClient, homeAffinity, readShare,
                commitLevels, opTimeoutNanos, loss, duplicate, delayMaxNanos, crashes, crashAfterPersist, partitions,
                clockJumps, plainWrites, fastPath, batchSizeMax, bug, purgeGraceNanos, join, powerLoss);
    }

    SimOptions withKeys(int keys) {
        return new SimOptions(dataCenters, serial, dcPartitions, keys, clients, opsPerClient, homeAffinity, readShare,
                commitLevels, opTimeoutNanos, loss, duplicate, delayMaxNanos, crashes, crashAfterPersist, partitions,
                clockJumps, plainWrites, fastPath, batchSizeMax, bug, purgeGraceNanos, join, powerLoss);
    }

    SimOptions withCommitLevels(SimLevel... levels) {
        return new SimOptions(dataCenters, serial, dcPartitions, keys, clients, opsPerClient, homeAffinity, readShare,
                levels, opTimeoutNanos, loss, duplicate, delayMaxNanos, crashes, crashAfterPersist, partitions,
                clockJumps, plainWrites, fastPath, batchSizeMax, bug, purgeGraceNanos, join, powerLoss);
    }

    SimOptions withPlainWrites(boolean on) {
        return new SimOptions(dataCenters, serial, dcPartitions, keys, clients, opsPerClient, homeAffinity, readShare,
                commitLevels, opTimeoutNanos, loss, duplicate, delayMaxNanos, crashes, crashAfterPersist, partitions,
                clockJumps, on, fastPath, batchSizeMax, bug, purgeGraceNanos, join, powerLoss);
    }

    SimOptions withHomeAffinity(double affinity) {
        return new SimOptions(dataCenters, serial, dcPartitions, keys, clients, opsPerClient, affinity, readShare,
                commitLevels, opTimeoutNanos, loss, duplicate, delayMaxNanos, crashes, crashAfterPersist, partitions,
                clockJumps, plainWrites, fastPath, batchSizeMax, bug, purgeGraceNanos, join, powerLoss);
    }

    @Override
    public String toString() {
        return "nodes=" + (dataCenters.size() == 1 ? String.valueOf(nodes()) : dataCenters + " " + serial
                + (dcPartitions == DcPartitions.NONE ? "" : " dcPartitions=" + dcPartitions))
                + " keys=" + keys + " clients=" + clients + " ops=" + opsPerClient + " home="
                + String.format("%.2f", homeAffinity) + " levels=" + java.util.Arrays.toString(commitLevels)
                + String.format(" loss=%.3f dup=%.3f", loss, duplicate) + " delayMax=" + delayMaxNanos / MS + "ms"
                + (crashes ? " crashes" : "") + (crashAfterPersist > 0 ? String.format(" crashAfterPersist=%.4f", crashAfterPersist) : "")
                + (partitions ? " partitions" : "") + (clockJumps ? " clockJumps" : "") + (plainWrites ? " plainWrites" : "")
                + (fastPath ? "" : " noFastPath") + " batch=" + batchSizeMax + (bug == SimStore.Bug.NONE ? "" : " BUG=" + bug)
                + (purgeGraceNanos > 0 ? " purge=" + purgeGraceNanos / MS + "ms" : "") + (join ? " join" : "") + (powerLoss ? " powerLoss" : "");
    }
}
