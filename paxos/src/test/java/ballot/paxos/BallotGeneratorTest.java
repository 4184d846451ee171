package ballot.paxos;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.paxos.spi.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ballots are time-ordered, unique and monotonic per node even when the clock steps back (docs/paxos.md §4.1). */
class BallotGeneratorTest {
    private long wall = 1_000_000;
    private final Clock clock = new Clock() {
        @Override
        public long nanoTime() {
            return 0;
        }

        @Override
        public long wallMicros() {
            return wall;
        }
    };

    @Test
    void followsTheClockWhenItMovesForward() {
        BallotGenerator g = new BallotGenerator(clock, NodeId.of(3), 0);
        assertThat(g.next(0).micros()).isEqualTo(1_000_000);
        wall += 500;
        assertThat(g.next(0).micros()).isEqualTo(1_000_500);
    }

    @Test
    void staysMonotonicWhenTheClockStepsBack() {
        BallotGenerator g = new BallotGenerator(clock, NodeId.of(3), 0);
        List<Ballot> issued = new ArrayList<>();
        issued.add(g.next(0));
        wall -= 10_000;
        issued.add(g.next(0));
        issued.add(g.next(0));
        wall += 20_000;
        issued.add(g.next(0));
        for (int i = 1; i < issued.size(); i++) assertThat(issued.get(i)).isGreaterThan(issued.get(i - 1));
        assertThat(issued.get(1).micros()).as("never behind the last issued micros").isEqualTo(1_000_000);
    }

    @Test
    void honoursTheMinimumAskedFor() {
        BallotGenerator g = new BallotGenerator(clock, NodeId.of(3), 0);
        assertThat(g.next(5_000_000).micros()).isEqualTo(5_000_000);
        Ballot other = new Ballot(7_000_000, 4, 9, 0);
        assertThat(g.nextAfter(other, 0)).isGreaterThan(other);
    }

    @Test
    void isUniqueAcrossNodesAndIncarnations() {
        HashSet<Ballot> all = new HashSet<>();
        for (int node = 1; node <= 3; node++)
            for (int incarnation = 0; incarnation < 3; incarnation++) {
                BallotGenerator g = new BallotGenerator(clock, NodeId.of(node), incarnation);
                for (int i = 0; i < 100; i++) assertThat(all.add(g.next(0))).isTrue();
            }
    }

    @Test
    void ordersByMicrosFirst() {
        assertThat(new Ballot(2, 0, 1, 0)).isGreaterThan(new Ballot(1, 99, 99, 99));
        assertThat(new Ballot(1, 1, 1, 0)).isGreaterThan(new Ballot(1, 0, 9, 0));
        assertThat(Ballot.ZERO).isLessThan(new Ballot(1, 0, 0, 0));
    }
}
