package ballot.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Whom a round gossips with (docs/membership.md §2). */
class GossipTargetsTest {
    private final SplittableRandom random = new SplittableRandom(1);

    @Test
    void aloneANodeGossipsToASeed() {
        assertThat(GossipTargets.choose(List.of(), List.of(), List.of("s1", "s2"), random)).singleElement().isIn("s1", "s2");
    }

    @Test
    void withoutSeedsOrUnreachableOneLivePeer() {
        for (int i = 0; i < 100; i++) {
            assertThat(GossipTargets.choose(List.of("a", "b", "c"), List.of(), List.of(), random)).singleElement().isIn("a", "b", "c");
        }
    }

    @Test
    void neverTheSameTargetTwice() {
        for (int i = 0; i < 1000; i++) {
            List<String> targets = GossipTargets.choose(List.of("s1"), List.of("u"), List.of("s1"), random);
            assertThat(targets).doesNotHaveDuplicates();
        }
    }

    @Test
    void unreachablePeersAreTriedInProportion() {
        int trials = 20_000;
        int tried = 0;
        for (int i = 0; i < trials; i++) {
            if (GossipTargets.choose(List.of("a", "b", "c"), List.of("u"), List.of(), random).contains("u")) tried++;
        }
        assertThat((double) tried / trials).isCloseTo(1.0 / 4, within(0.02));
    }

    @Test
    void seedIsAddedWhenTheLivePeerWasNotOne() {
        int trials = 20_000;
        int seeded = 0;
        for (int i = 0; i < trials; i++) {
            if (GossipTargets.choose(List.of("a", "b", "c"), List.of(), List.of("s"), random).contains("s")) seeded++;
        }
        assertThat((double) seeded / trials).as("seeds / (live + unreachable)").isCloseTo(1.0 / 3, within(0.02));
    }

    @Test
    void noExtraSeedWhenTheLivePeerIsTheOnlySeed() {
        for (int i = 0; i < 100; i++) {
            assertThat(GossipTargets.choose(List.of("s"), List.of(), List.of("s"), random)).containsExactly("s");
        }
    }
}
