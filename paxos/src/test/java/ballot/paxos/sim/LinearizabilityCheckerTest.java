package ballot.paxos.sim;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.paxos.sim.LinearizabilityChecker.Kind;
import ballot.paxos.sim.LinearizabilityChecker.Op;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The checker accepts linearizable register histories and rejects the classic anomalies (docs/paxos.md §10). */
class LinearizabilityCheckerTest {
    private final List<Op> ops = new ArrayList<>();

    private void op(long start, long end, Kind kind, Long expected, Long write, Long observed, boolean applied) {
        ops.add(new Op(ops.size(), ops.size(), start, end, kind, expected, write, observed, applied));
    }

    private void read(long start, long end, Long observed) {
        op(start, end, Kind.READ, null, null, observed, false);
    }

    private boolean linearizable() {
        return LinearizabilityChecker.check(ops, null, 1_000_000).linearizable();
    }

    @Test
    void acceptsSequentialHistory() {
        op(0, 1, Kind.CAS, null, 1L, null, true);
        op(2, 3, Kind.CAS, 1L, 2L, 1L, true);
        op(4, 5, Kind.CAS, 1L, 3L, 2L, false);
        read(6, 7, 2L);
        assertThat(linearizable()).isTrue();
    }

    @Test
    void rejectsStaleReadAfterCompletedWrite() {
        op(0, 1, Kind.SET, null, 1L, null, true);
        op(2, 3, Kind.SET, null, 2L, 1L, true);
        read(4, 5, 1L);
        assertThat(linearizable()).isFalse();
    }

    @Test
    void acceptsEitherOrderForConcurrentWrites() {
        op(0, 10, Kind.SET, null, 1L, null, true);
        op(1, 9, Kind.SET, null, 2L, 1L, true);
        read(11, 12, 2L);
        assertThat(linearizable()).isTrue();
    }

    @Test
    void rejectsLostUpdate() {
        op(0, 10, Kind.CAS, null, 1L, null, true);
        op(0, 10, Kind.CAS, null, 2L, null, true); // both saw "absent" and both applied
        assertThat(linearizable()).isFalse();
    }

    @Test
    void unknownOperationMayTakeEffectLateOrNever() {
        op(0, Op.UNKNOWN, Kind.SET, null, 5L, null, false);
        read(10, 11, null);
        read(20, 21, 5L); // took effect after the first read
        assertThat(linearizable()).isTrue();
        ops.clear();
        op(0, Op.UNKNOWN, Kind.SET, null, 5L, null, false);
        read(10, 11, null); // never took effect
        assertThat(linearizable()).isTrue();
    }

    @Test
    void rejectsValueNobodyWrote() {
        op(0, 1, Kind.CAS, null, 1L, null, true);
        read(2, 3, 7L);
        assertThat(linearizable()).isFalse();
    }

    @Test
    void rejectsFailedCasThatShouldHaveApplied() {
        op(0, 1, Kind.CAS, null, 1L, null, true);
        op(2, 3, Kind.CAS, 1L, 2L, 1L, false); // claims the condition failed while the value was 1
        assertThat(linearizable()).isFalse();
    }

    @Test
    void checksAConcurrentHistoryQuickly() {
        SplittableRandom r = new SplittableRandom(7);
        long t = 0;
        Long value = null;
        long next = 1;
        for (int i = 0; i < 400; i++) { // a linearizable history from a sequential run, then intervals widened
            long start = t;
            t += 10;
            Long before = value;
            long w = next++;
            boolean unknown = r.nextInt(20) == 0;
            if (r.nextBoolean()) {
                boolean holds = java.util.Objects.equals(before, value);
                value = w;
                ops.add(new Op(ops.size(), i % 8, start - r.nextInt(40), unknown ? Op.UNKNOWN : t + r.nextInt(40),
                        Kind.CAS, before, w, before, holds));
            } else {
                ops.add(new Op(ops.size(), i % 8, start - r.nextInt(40), t + r.nextInt(40), Kind.READ, null, null, value, false));
            }
        }
        LinearizabilityChecker.Result result = LinearizabilityChecker.check(ops, null, 5_000_000);
        assertThat(result.linearizable()).as(result.detail()).isTrue();
    }
}
