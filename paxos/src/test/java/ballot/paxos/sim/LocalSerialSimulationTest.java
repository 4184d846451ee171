package ballot.paxos.sim;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.paxos.Mark;
import ballot.paxos.coordinator.CasResult.Outcome;
import ballot.paxos.sim.SimOptions.DcPartitions;
import ballot.paxos.sim.SimOptions.Serial;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Seeded simulations of two data centers (docs/paxos.md §4.6, §11): LOCAL_SERIAL rounds vote in their own data
 * center only and send the other one nothing but commits and prunes; a cut between the data centers stops SERIAL but
 * neither data center's LOCAL_SERIAL; SERIAL and LOCAL_SERIAL mixed on one partition are not linearizable.
 * Replay a run with {@code -Dballot.sim.seed=<seed>}.
 */
class LocalSerialSimulationTest {
    private static final int OPS = Integer.getInteger("ballot.sim.ops", 40);
    /** What a LOCAL_SERIAL round may send to (and hear from) the other data center; plain writes go everywhere. */
    private static final Set<String> LEARNER_TRAFFIC = Set.of("Commit", "Committed", "Prune", "PlainWrite", "PlainAck");

    @Test
    void localSerialIsLinearizableInEachDataCenterUnderFaults() {
        Map<Mark, Integer> marks = new EnumMap<>(Mark.class);
        Map<String, Integer> crossDc = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        long histories = 0;
        for (long seed : SimSeed.seeds(40)) {
            SimCluster.RunResult result = SimCluster.run(seed, SimOptions.localSerial(new SplittableRandom(seed), OPS));
            System.out.println(result + " crossDc=" + result.crossDcMessages());
            result.marks().forEach((m, n) -> marks.merge(m, n, Integer::sum));
            result.crossDcMessages().forEach((type, n) -> crossDc.merge(type, n, Integer::sum));
            histories += result.historyOps();
            if (!result.violations().isEmpty()) failures.add("seed " + seed + ": " + result.violations());
        }
        System.out.println("SIM (LOCAL_SERIAL, two data centers) checked " + histories + " operations; marks " + marks
                + "; across data centers " + crossDc);
        assertThat(failures).as("violations (replay with -Dballot.sim.seed=<seed>)").isEmpty();
        assertThat(crossDc.keySet()).as("messages between data centers").isSubsetOf(LEARNER_TRAFFIC);
        assertThat(crossDc).as("learners get the commits").containsKey("Commit");
        if (!SimSeed.replaying()) {
            assertThat(crossDc).as("and acknowledge them, so decrees are pruned").containsKeys("Committed", "Prune");
            assertThat(marks.keySet()).containsAll(EnumSet.of(Mark.FAST_PATH, Mark.CONTENTION, Mark.PREPARE_FOUND_INCOMPLETE,
                    Mark.PROPOSAL_IN_DOUBT, Mark.COMMIT_PIGGYBACKED, Mark.COMMIT_TIMEOUT, Mark.PRUNE));
        }
    }

    @Test
    void aCutBetweenDataCentersStopsNeitherDataCentersLocalSerial() {
        SimOptions cut = SimOptions.steady(2, 50, SimLevel.LOCAL_QUORUM).withKeys(2)
                .withTopology(List.of(3, 3), Serial.LOCAL_SERIAL, DcPartitions.PERMANENT)
                .withCommitLevels(SimLevel.LOCAL_QUORUM, SimLevel.LOCAL_ONE, SimLevel.ANY);
        SimCluster.RunResult result = SimCluster.run(3, cut);
        System.out.println(result);
        assertThat(result.violations()).isEmpty();
        // A client in each data center (one each: no contention), every request decided by its data center's quorum.
        assertThat(result.stats().outcomes().keySet()).containsOnly(Outcome.APPLIED, Outcome.NOT_APPLIED);
        assertThat(result.stats().ops()).isEqualTo(2 * 50);
        assertThat(result.stats().applied()).isPositive();
    }

    @Test
    void aCutBetweenDataCentersStopsSerial() {
        SimOptions cut = SimOptions.steady(2, 5, SimLevel.QUORUM).withKeys(2)
                .withTopology(List.of(3, 3), Serial.SERIAL, DcPartitions.PERMANENT);
        SimCluster.RunResult result = SimCluster.run(4, cut);
        System.out.println(result);
        assertThat(result.violations()).isEmpty();
        // Three voters of six answer: no quorum of promises, so nothing was proposed.
        assertThat(result.stats().outcomes().keySet()).containsOnly(Outcome.TIMED_OUT);
    }

    /**
     * SERIAL and LOCAL_SERIAL of one data center on the same partitions are not linearizable in Ballot, even where every
     * quorum of one meets every quorum of the other (2+2 and 3+1 replicas): rules such as §5.7's dead proposal count a
     * proposal's refusals against the analysing round's electorate, not the proposal's (docs/paxos.md §11). The
     * simulation finds such histories; if it stops finding them, the documented caveat needs another look.
     */
    @Test
    void serialMixedWithLocalSerialOnOnePartitionIsNotLinearizable() {
        SplittableRandom seeds = new SplittableRandom(20_250_301L);
        List<String> found = List.of();
        for (int i = 0; i < 40 && found.isEmpty(); i++) {
            long seed = seeds.nextLong() & Long.MAX_VALUE;
            SplittableRandom r = new SplittableRandom(seed);
            List<Integer> layout = r.nextBoolean() ? List.of(2, 2) : List.of(3, 1);
            SimOptions options = SimOptions.random(r, OPS).withTopology(layout, Serial.MIXED, DcPartitions.NONE)
                    .withCommitLevels(SimLevel.values());
            SimCluster.RunResult result = SimCluster.run(seed, options);
            System.out.println(result);
            found = result.violations();
        }
        assertThat(found).as("a non-linearizable history from mixing SERIAL and LOCAL_SERIAL").isNotEmpty();
        assertThat(found.get(0)).contains("not linearizable");
    }
}
