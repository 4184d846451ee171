package ballot.txn.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The checks must be able to fail (docs/txn.md §12): with a participant broken on purpose, the same simulations must
 * report violations. If these tests fail, the checker or the workload has gone blind to that class of bug.
 */
class PlantedBugSimulationTest {
    private static final int SEEDS = 60;

    /** A placement that meets another intent but answers PLACED: the coordinator commits without every intent. */
    @Test
    void checkerCatchesACommitWithoutEveryIntent() {
        List<String> found = runUntilViolation(SimStore.Bug.PLACED_WITHOUT_INTENT);
        assertThat(found).as("a commit without every intent must be caught").isNotEmpty();
        assertThat(String.join(" ", found)).containsAnyOf("half- or mis-applied", "without an intent", "serial order", "not applied");
    }

    /** A fence blind to the intent: recovery aborts transactions that were implicitly committed. */
    @Test
    void checkerCatchesRecoveryThatAbortsACommittedTransaction() {
        List<String> found = runUntilViolation(SimStore.Bug.FENCE_BLIND);
        assertThat(found).as("recovery aborting a committed transaction must be caught").isNotEmpty();
        assertThat(String.join(" ", found)).containsAnyOf("answered COMPLETED but not applied", "finalized otherwise");
    }

    /** A placement that ignores markers: a fenced or applied attempt locks again, so a transfer can apply twice. */
    @Test
    void checkerCatchesAnIntentWrittenAfterItWasFenced() {
        List<String> found = runUntilViolation(SimStore.Bug.PLACE_IGNORES_MARKERS);
        assertThat(found).as("a missing intent written after its fence must be caught").isNotEmpty();
    }

    /** Intents resolved while the record is still staging: recovery aborts a transaction already applied (§4.3, §8 I3). */
    @Test
    void checkerCatchesIntentsResolvedBeforeTheRecordIsFinal() {
        List<String> found = runUntilViolation(SimStore.Bug.FINALIZE_FORGOTTEN);
        assertThat(found).as("a resolution before the record is final must be caught").isNotEmpty();
        assertThat(String.join(" ", found)).containsAnyOf("half- or mis-applied", "finalized otherwise", "total balance", "but applied");
    }

    private static List<String> runUntilViolation(SimStore.Bug bug) {
        SplittableRandom seeds = new SplittableRandom(20_250_701L + bug.ordinal());
        for (int i = 0; i < SEEDS; i++) {
            long seed = seeds.nextLong() & Long.MAX_VALUE;
            TransferSim.RunResult result = TransferSim.run(seed, SimOptions.random(new SplittableRandom(seed), 25).withBug(bug));
            if (!result.violations().isEmpty()) {
                System.out.println("planted " + bug + " found after " + (i + 1) + " runs: " + result + " "
                        + result.violations().subList(0, Math.min(3, result.violations().size())));
                return result.violations();
            }
        }
        return List.of();
    }
}
