package ballot.paxos.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

/**
 * The checks must be able to fail: with a bug planted on purpose in the simulated store, the same simulations must
 * report violations (docs/paxos.md §10). If these tests fail, the checker or the workload has gone blind.
 */
class PlantedBugSimulationTest {
    private static final int SEEDS = 300;

    /** A store that does not persist promises (a missing fsync on prepare) lets two proposals win one round. */
    @Test
    void checkerFindsLostPromises() {
        List<String> found = runUntilViolation(SimStore.Bug.FORGET_PROMISES, false);
        System.out.println("planted FORGET_PROMISES found: " + found.subList(0, Math.min(3, found.size())));
        assertThat(found).as("the linearizability checker must catch a store that forgets promises").isNotEmpty();
        assertThat(found.get(0)).contains("not linearizable");
    }

    /** A store that never changes its plain-write version makes the fast path evaluate on stale data. */
    @Test
    void freshnessCheckFindsIgnoredPlainWrites() {
        List<String> found = runUntilViolation(SimStore.Bug.IGNORE_PLAIN_WRITES, true);
        System.out.println("planted IGNORE_PLAIN_WRITES found: " + found.subList(0, Math.min(3, found.size())));
        assertThat(found).as("the freshness check must catch a fast path that ignores plain writes").isNotEmpty();
        assertThat(found.get(0)).containsAnyOf("stale read", "stale evaluation");
    }

    /** A store that answers a persist before it is durable loses acknowledged steps in crashes (§4.12). */
    @Test
    void checkerFindsPersistsAcknowledgedBeforeTheyAreDurable() {
        List<String> found = runUntilViolation(SimStore.Bug.ACKNOWLEDGE_BEFORE_DURABLE, false);
        System.out.println("planted ACKNOWLEDGE_BEFORE_DURABLE found: " + found.subList(0, Math.min(3, found.size())));
        assertThat(found).as("the checks must catch an acceptor that replies before its persist is on disk").isNotEmpty();
    }

    /** Promises and acceptances written without a sync, as commits are, are lost by power losses (§4.15). */
    @Test
    void checkerFindsVotesThatAPowerLossTakes() {
        List<String> found = searchSeeds(SimStore.Bug.UNSYNCED_VOTES, 20_261_129L, 200,
                seed -> SimOptions.random(new SplittableRandom(seed), 40).withHomeAffinity(0.2).withPowerLoss());
        assertThat(found).as("the checks must catch promises and acceptances that a power loss can take").isNotEmpty();
    }

    /**
     * A commit that clears the replica's acceptance, written without a sync, can be lost while the other replicas purge
     * the decree: the acceptance is then finished again over later writes (§4.15).
     */
    @Test
    void checkerFindsClearingCommitsThatAPowerLossTakes() {
        List<String> found = searchSeeds(SimStore.Bug.UNSYNCED_CLEARING_COMMITS, 20_261_130L, 600, seed -> {
            SimOptions options = SimOptions.random(new SplittableRandom(seed), 40).withPowerLoss();
            return options.withPurge(2 * options.opTimeoutNanos());
        });
        assertThat(found).as("the checks must catch commits that clear an acceptance without a sync").isNotEmpty();
    }

    /** A node that joined and votes on keys it has no history of lets a quorum miss a decision (§4.14). */
    @Test
    void checkerFindsAJoinedReplicaThatVotesWithoutHistory() {
        List<String> found = searchSeeds(SimStore.Bug.JOINER_VOTES, 20_251_126L, 200,
                seed -> SimOptions.random(new SplittableRandom(seed), 40).withNodes(3).withJoin());
        assertThat(found).as("the checks must catch a joined replica that votes without the history").isNotEmpty();
    }

    /** A proposal that claims its acceptance decides, without a quorum less one behind it, applies undecided values. */
    @Test
    void checkerFindsAcceptancesThatClaimADecisionTheyDoNotHave() {
        List<String> found = runUntilViolation(SimStore.Bug.CLAIMED_DECISIONS, false);
        assertThat(found).as("the checks must catch replicas that apply a proposal no quorum accepted").isNotEmpty();
    }

    /**
     * A proposal sent to the other voters before the coordinator's own replica accepted it, while that replica may hold
     * its ballot's promise in memory only (§4.2.5): when that replica refuses it, its requests run again although the
     * others may decide it. (A crash that forgets the promise is the other hazard; the simulation seldom meets it, and
     * {@code CoordinatorScenarioTest.aCrashBeforeOurReplicaAcceptsLeavesNothingOfTheBallot} scripts it.)
     */
    @Test
    void checkerFindsProposalsSentBeforeAPromiseInMemoryIsDurable() {
        List<String> found = runUntilViolation(SimStore.Bug.OWN_VOTE_NOT_AWAITED, false);
        System.out.println("planted OWN_VOTE_NOT_AWAITED found: " + found.subList(0, Math.min(3, found.size())));
        assertThat(found).as("the checks must catch proposals that do not wait for the promise kept in memory").isNotEmpty();
    }

    /** Runs {@code bug} with the options of up to {@code runs} seeds drawn from {@code seedOfSeeds}, until a violation. */
    private static List<String> searchSeeds(SimStore.Bug bug, long seedOfSeeds, int runs, LongFunction<SimOptions> options) {
        List<String> found = new ArrayList<>();
        SplittableRandom seeds = new SplittableRandom(seedOfSeeds);
        for (int i = 0; i < runs && found.isEmpty(); i++) {
            long seed = seeds.nextLong() & Long.MAX_VALUE;
            found.addAll(SimCluster.run(seed, options.apply(seed).withBug(bug)).violations());
        }
        System.out.println("planted " + bug + " found: " + found.subList(0, Math.min(3, found.size())));
        return found;
    }

    private static List<String> runUntilViolation(SimStore.Bug bug, boolean plainWrites) {
        SplittableRandom seeds = new SplittableRandom(20_240_601L + bug.ordinal());
        for (int i = 0; i < SEEDS; i++) {
            long seed = seeds.nextLong() & Long.MAX_VALUE;
            SimOptions options = plainWrites
                    ? SimOptions.steady(4, 60, SimLevel.ANY).withPlainWrites(true).withHomeAffinity(0.9)
                    : SimOptions.random(new SplittableRandom(seed), 40).withHomeAffinity(0.2).withPlainWrites(false);
            SimCluster.RunResult result = SimCluster.run(seed, options.withBug(bug));
            System.out.println(result);
            if (!result.violations().isEmpty()) return new ArrayList<>(result.violations());
        }
        return List.of();
    }
}
