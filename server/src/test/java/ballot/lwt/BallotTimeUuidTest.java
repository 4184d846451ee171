package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.type.CqlTypes;
import ballot.paxos.Ballot;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Ballots as system.paxos's time UUIDs (docs/paxos.md §12): the fields, the caps, and ballot order kept. */
class BallotTimeUuidTest {
    @Test
    void timestampIsTheBallotsMicrosInTimeUuidUnits() {
        UUID epoch = BallotTimeUuid.of(new Ballot(0, 0, 0, 0));
        assertThat(epoch).as("the Unix epoch as a time UUID").isEqualTo(UUID.fromString("13814000-1dd2-11b2-8000-000000000000"));

        long micros = 1_700_000_000_123_456L;
        UUID u = BallotTimeUuid.of(new Ballot(micros, 5, 0x1234_5678, 3));
        assertThat(u.version()).isEqualTo(1);
        assertThat(u.variant()).isEqualTo(2);
        assertThat(u.timestamp()).isEqualTo(micros * 10 + BallotTimeUuid.GREGORIAN_TO_UNIX_100NS);
        assertThat(u.clockSequence()).isEqualTo(5);
        assertThat(u.node()).isEqualTo(0x1234_5678_0003L);
        assertThat(BallotTimeUuid.of(new Ballot(micros, 5, 0x1234_5678, 3))).as("deterministic").isEqualTo(u);
    }

    @Test
    void isAValidTimeuuidForCql() {
        UUID u = BallotTimeUuid.of(new Ballot(1_700_000_000_000_000L, 1, 42, 1));
        assertThat(CqlTypes.TIMEUUID.compose(CqlTypes.TIMEUUID.decompose(u))).isEqualTo(u);
    }

    @Test
    void capsCounterAndIncarnationInsteadOfWrapping() {
        UUID u = BallotTimeUuid.of(new Ballot(1, 1 << 20, Integer.MAX_VALUE, 1 << 20));
        assertThat(u.clockSequence()).isEqualTo(BallotTimeUuid.CLOCK_SEQUENCE_MAX);
        assertThat(u.node()).isEqualTo((long) Integer.MAX_VALUE << 16 | BallotTimeUuid.INCARNATION_MAX);
        assertThat(BallotTimeUuid.of(new Ballot(1, BallotTimeUuid.CLOCK_SEQUENCE_MAX + 1, 0, 0)).clockSequence())
                .as("one past the field: capped, not 0").isEqualTo(BallotTimeUuid.CLOCK_SEQUENCE_MAX);
    }

    @Test
    void laterBallotsNeverHaveEarlierTimestamps() {
        Random random = new Random(20240611);
        for (int i = 0; i < 10_000; i++) {
            Ballot a = randomBallot(random);
            Ballot b = randomBallot(random);
            Ballot earlier = Ballot.max(a, b) == a ? b : a;
            Ballot later = Ballot.max(a, b);
            UUID e = BallotTimeUuid.of(earlier);
            UUID l = BallotTimeUuid.of(later);
            assertThat(l.timestamp()).as("%s after %s", later, earlier).isGreaterThanOrEqualTo(e.timestamp());
            if (later.micros() > earlier.micros()) assertThat(l.timestamp()).as("%s after %s", later, earlier).isGreaterThan(e.timestamp());
            else assertThat(l.clockSequence()).as("%s after %s, same micros", later, earlier).isGreaterThanOrEqualTo(e.clockSequence());
        }
    }

    @Test
    void aLaterCounterInOneMicrosecondHasAHigherClockSequence() {
        for (int counter = 0; counter < BallotTimeUuid.CLOCK_SEQUENCE_MAX; counter++) {
            assertThat(BallotTimeUuid.of(new Ballot(7, counter + 1, 1, 1)).clockSequence())
                    .isGreaterThan(BallotTimeUuid.of(new Ballot(7, counter, 1, 1)).clockSequence());
        }
    }

    @Test
    void refusesBallotsBeyondTheLastTimestamp() {
        assertThat(BallotTimeUuid.of(new Ballot(BallotTimeUuid.MICROS_MAX, 0, 0, 0)).timestamp()).isLessThan(1L << 60);
        assertThatThrownBy(() -> BallotTimeUuid.of(new Ballot(BallotTimeUuid.MICROS_MAX + 1, 0, 0, 0))).isInstanceOf(IllegalArgumentException.class);
    }

    /** Micros from a few values, so that equal micros (the counter decides) are common. */
    private static Ballot randomBallot(Random random) {
        long micros = 1_700_000_000_000_000L + random.nextInt(4);
        return new Ballot(micros, random.nextInt(3) == 0 ? random.nextInt(1 << 16) : random.nextInt(4),
                random.nextInt(Integer.MAX_VALUE), random.nextInt(100));
    }
}
