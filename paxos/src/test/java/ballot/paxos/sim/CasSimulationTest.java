package ballot.paxos.sim;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.paxos.Mark;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Seeded simulations of concurrent compare-and-set clients under faults, checked for linearizability, freshness
 * against plain writes and agreement (docs/paxos.md §10). Every run prints its seed; replay one with
 * {@code -Dballot.sim.seed=<seed>}; run more with {@code -Dballot.sim.seeds=<n>} and longer ones with
 * {@code -Dballot.sim.ops=<ops per client>}.
 */
class CasSimulationTest {
    private static final int OPS = Integer.getInteger("ballot.sim.ops", 40);

    @Test
    void casIsLinearizableUnderFaults() {
        Map<Mark, Integer> marks = new EnumMap<>(Mark.class);
        List<String> failures = new ArrayList<>();
        long histories = 0;
        int landedInCrash = 0;
        int lostInCrash = 0;
        for (long seed : SimSeed.seeds(150)) {
            SimOptions options = SimOptions.random(new SplittableRandom(seed), OPS);
            SimCluster.RunResult result = SimCluster.run(seed, options);
            System.out.println(result);
            result.marks().forEach((m, n) -> marks.merge(m, n, Integer::sum));
            landedInCrash += result.stats().persistsLandedInCrash();
            lostInCrash += result.stats().persistsLostInCrash();
            histories += result.historyOps();
            if (!result.violations().isEmpty()) failures.add("seed " + seed + ": " + result.violations());
        }
        System.out.println("SIM checked " + histories + " operations; marks " + marks);
        assertThat(failures).as("violations (replay with -Dballot.sim.seed=<seed>)").isEmpty();
        if (!SimSeed.replaying()) {
            // Coverage marks: the rare paths the proof sketch relies on actually ran (TigerBeetle-style).
            assertThat(marks.keySet()).containsAll(EnumSet.of(Mark.PREPARE, Mark.FAST_PATH, Mark.CONTENTION,
                    Mark.PREPARE_FOUND_INCOMPLETE, Mark.PREPARE_FOUND_STALE_COMMIT, Mark.FAST_PATH_STALE,
                    Mark.FAST_PATH_SUPERSEDED, Mark.FAST_PATH_QUERY_MISS, Mark.FAST_PATH_EMPTY_VALIDATION,
                    Mark.READ_ONLY_ROUND, Mark.READ_ONLY_AWAITS_COMMIT, Mark.BATCHED, Mark.RETRY_WITHOUT_SIDE_EFFECTS,
                    Mark.PROPOSAL_IN_DOUBT, Mark.IN_DOUBT_RESOLVED_APPLIED, Mark.COMMIT_PIGGYBACKED,
                    Mark.LATE_PROMISE_MERGED, Mark.PRUNE,
                    Mark.RETRANSMIT, Mark.UNKNOWN, Mark.ACCEPTOR_WAITED_FOR_PERSIST, Mark.DECIDED_ON_ACCEPT,
                    Mark.OWN_REFUSAL_WITHHELD_PROPOSAL));
            // The acceptor shell's persists were caught in flight by crashes, both ways (§4.12).
            assertThat(landedInCrash).as("persists in flight at a crash that reached the disk").isPositive();
            assertThat(lostInCrash).as("persists in flight at a crash that were lost").isPositive();
        }
    }

    /**
     * One replica (RF 1): its acceptance decides, and it applies and prunes the decree in the same write (§4.6). The
     * faults that remain are lost, duplicated and delayed messages, clock jumps and crashes right after a persist.
     */
    @Test
    void soleReplicaIsLinearizableUnderFaults() {
        List<String> failures = new ArrayList<>();
        Map<Mark, Integer> marks = new EnumMap<>(Mark.class);
        long histories = 0;
        for (long seed : SimSeed.seeds(40)) {
            SimCluster.RunResult result = SimCluster.run(seed, SimOptions.random(new SplittableRandom(seed), OPS).withNodes(1));
            System.out.println(result);
            result.marks().forEach((m, n) -> marks.merge(m, n, Integer::sum));
            histories += result.historyOps();
            if (!result.violations().isEmpty()) failures.add("seed " + seed + ": " + result.violations());
        }
        System.out.println("SIM (one replica) checked " + histories + " operations; marks " + marks);
        assertThat(failures).as("violations (replay with -Dballot.sim.seed=<seed>)").isEmpty();
        assertThat(histories).isPositive();
        if (!SimSeed.replaying()) assertThat(marks).containsKey(Mark.DEFERRED_PROMISE_WRITTEN_OUT);
    }

    /**
     * Replicas purge idle partitions' registers behind a ballot floor (§4.13) while clients pause long enough for
     * partitions to go idle: histories stay linearizable, and registers were really purged and partitions used again.
     */
    @Test
    void purgedRegistersKeepEveryHistoryLinearizable() {
        Map<Mark, Integer> marks = new EnumMap<>(Mark.class);
        List<String> failures = new ArrayList<>();
        long histories = 0;
        for (long seed : SimSeed.seeds(40)) {
            SimOptions options = SimOptions.random(new SplittableRandom(seed), OPS);
            // The grace period exceeds every request's deadline, as the server requires of its setting.
            SimCluster.RunResult result = SimCluster.run(seed, options.withPurge(2 * options.opTimeoutNanos()));
            System.out.println(result);
            result.marks().forEach((m, n) -> marks.merge(m, n, Integer::sum));
            histories += result.historyOps();
            if (!result.violations().isEmpty()) failures.add("seed " + seed + ": " + result.violations());
        }
        System.out.println("SIM (purging) checked " + histories + " operations; marks " + marks);
        assertThat(failures).as("violations (replay with -Dballot.sim.seed=<seed>)").isEmpty();
        if (!SimSeed.replaying()) assertThat(marks.getOrDefault(Mark.PURGED, 0)).as("registers purged").isGreaterThan(10);
    }

    /**
     * Every crash is a power loss (§4.15): replicas lose the commits, prunes and purges they wrote without a sync since
     * their last synced write, after answering them. Promises and acceptances are synced, so every history stays
     * linearizable and replicas agree; unsynced writes were really lost.
     */
    @Test
    void powerLossesThatTakeUnsyncedCommitsKeepEveryHistoryLinearizable() {
        List<String> failures = new ArrayList<>();
        long histories = 0;
        int undone = 0;
        for (long seed : SimSeed.seeds(40)) {
            SimOptions options = SimOptions.random(new SplittableRandom(seed), OPS).withPowerLoss();
            if ((seed & 1) == 1) options = options.withPurge(2 * options.opTimeoutNanos()); // purges need commits that stay
            SimCluster.RunResult result = SimCluster.run(seed, options);
            System.out.println(result);
            histories += result.historyOps();
            undone += result.stats().unsyncedLostInPowerLoss();
            if (!result.violations().isEmpty()) failures.add("seed " + seed + ": " + result.violations());
        }
        System.out.println("SIM (power loss) checked " + histories + " operations; unsynced writes undone " + undone);
        assertThat(failures).as("violations (replay with -Dballot.sim.seed=<seed>)").isEmpty();
        if (!SimSeed.replaying()) assertThat(undone).as("unsynced writes undone by power losses").isGreaterThan(10);
    }

    /**
     * A node joins partway through and replaces one replica of every key (§4.14); coordinators learn of it at different
     * moments. It abstains from the keys' votes, and every history stays linearizable.
     */
    @Test
    void aJoiningReplicaThatAbstainsKeepsHistoriesLinearizable() {
        Map<Mark, Integer> marks = new EnumMap<>(Mark.class);
        List<String> failures = new ArrayList<>();
        long histories = 0;
        for (long seed : SimSeed.seeds(40)) {
            SimCluster.RunResult result = SimCluster.run(seed, SimOptions.random(new SplittableRandom(seed), OPS).withNodes(3).withJoin());
            System.out.println(result);
            result.marks().forEach((m, n) -> marks.merge(m, n, Integer::sum));
            histories += result.historyOps();
            if (!result.violations().isEmpty()) failures.add("seed " + seed + ": " + result.violations());
        }
        System.out.println("SIM (join) checked " + histories + " operations; marks " + marks);
        assertThat(failures).as("violations (replay with -Dballot.sim.seed=<seed>)").isEmpty();
        if (!SimSeed.replaying()) assertThat(marks.getOrDefault(Mark.ABSTAINED, 0)).as("abstentions").isGreaterThan(10);
    }

    @Test
    void steadyStateTakesOneRoundTripAtAnyAndAtQuorum() {
        SimCluster.RunResult any = SimCluster.run(1, SimOptions.steady(1, 200, SimLevel.ANY));
        SimCluster.RunResult quorum = SimCluster.run(2, SimOptions.steady(1, 200, SimLevel.QUORUM));
        System.out.println(any);
        System.out.println(quorum);
        assertThat(any.violations()).isEmpty();
        assertThat(quorum.violations()).isEmpty();
        // The first request pays the prepare; every later one rides the held promise, and at QUORUM the remote
        // acceptance that decides also applies (§4.6.1).
        assertThat(any.stats().roundTripsPerApplied()).isLessThan(1.05);
        assertThat(quorum.stats().roundTripsPerApplied()).isLessThan(1.05);
    }
}
