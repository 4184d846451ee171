package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.paxos.sim.LinearizabilityChecker;
import ballot.paxos.sim.LinearizabilityChecker.Kind;
import ballot.paxos.sim.LinearizabilityChecker.Op;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checks of LwtLinearizabilityIT on a history it recorded from a real cluster under faults (unknown outcomes
 * included), and the bugs they must catch in it: a stale read (planted as StaleRead does in every run of the IT; the
 * paxos module's PlantedBugSimulationTest plants bugs in the protocol instead) and a lost acknowledged write.
 */
class RegisterHistoryTest {
    private static final long STEPS_MAX = 10_000_000;

    private static List<Op> recorded() throws IOException {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(
                Objects.requireNonNull(RegisterHistoryTest.class.getResourceAsStream("lwt-history-register.txt")),
                StandardCharsets.UTF_8))) {
            return RegisterHistory.read(reader);
        }
    }

    /** The value the last SERIAL read saw after the run. */
    private static Long finalValue(List<Op> ops) {
        return ops.stream().filter(o -> o.kind() == Kind.READ && o.definite())
                .max(Comparator.comparingLong(Op::completeNanos)).orElseThrow().observed();
    }

    @Test
    void recordedHistoryIsLinearizable() throws IOException {
        List<Op> ops = recorded();
        assertThat(ops).hasSizeGreaterThan(400).anyMatch(o -> !o.definite());
        LinearizabilityChecker.Result result = LinearizabilityChecker.check(ops, null, STEPS_MAX);
        assertThat(result.linearizable()).as(result.detail()).isTrue();
    }

    @Test
    void rejectsTheRecordedHistoryWithOneReadMadeStale() throws IOException {
        List<Op> planted = StaleRead.plant(recorded()).orElseThrow();
        LinearizabilityChecker.Result result = LinearizabilityChecker.check(planted, null, STEPS_MAX);
        assertThat(result.linearizable()).isFalse();
        assertThat(result.stuckAt()).as("a verdict, not a search that gave up: %s", result.detail()).isNotNull();
        assertThat(RegisterHistory.window(planted, result.stuckAt())).contains(">> " + RegisterHistory.describe(result.stuckAt()));
    }

    @Test
    void finalValueHoldsEveryAcknowledgedWrite() throws IOException {
        List<Op> ops = recorded();
        assertThat(RegisterHistory.lostWrites(ops, finalValue(ops))).isEmpty();
    }

    @Test
    void reportsAcknowledgedWritesMissingFromTheFinalValue() throws IOException {
        List<Op> ops = recorded();
        Op lastApplied = ops.stream().filter(RegisterHistory::acknowledgedWrite)
                .max(Comparator.comparingLong(Op::completeNanos)).orElseThrow();
        // As if the register had come back holding the value before the last acknowledged write.
        assertThat(RegisterHistory.lostWrites(ops, lastApplied.observed()))
                .anyMatch(p -> p.startsWith("acknowledged write lost: " + RegisterHistory.describe(lastApplied)));
        assertThat(RegisterHistory.lostWrites(ops, -1L)).first().isEqualTo("the register held -1, which no operation wrote");
    }

    @Test
    void fileFormRoundTrips(@TempDir Path directory) throws IOException {
        List<Op> ops = recorded();
        Path file = directory.resolve("register.txt");
        RegisterHistory.write(file, ops);
        try (BufferedReader reader = Files.newBufferedReader(file)) {
            assertThat(RegisterHistory.read(reader)).isEqualTo(ops);
        }
    }
}
