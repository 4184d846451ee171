package ballot.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Phi accrual with the exponential model (docs/membership.md §3), checked against a naive reference. */
class FailureDetectorTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final UUID NODE = new UUID(1, 1);

    private static FailureDetector detector(int window) {
        return new FailureDetector(8, window, 2 * SECOND, 2 * SECOND);
    }

    @Test
    void unknownNodeHasPhiZero() {
        assertThat(detector(1000).phi(NODE, 5 * SECOND)).isZero();
        assertThat(detector(1000).convicts(NODE, 500 * SECOND)).isFalse();
    }

    @Test
    void phiGrowsLinearlyWithSilenceOverTheMeanInterval() {
        FailureDetector detector = detector(1000);
        long t = 0;
        // the first report seeds the window with 2 s; 1000 more push it out: 1000 intervals of 1 s, phi(t) = t / ln 10
        for (int i = 0; i < 1001; i++) detector.report(NODE, t += SECOND);
        assertThat(detector.phi(NODE, t + SECOND)).isCloseTo(1 / Math.log(10), within(1e-9));
        assertThat(detector.convicts(NODE, t + 18 * SECOND)).isFalse();
        assertThat(detector.convicts(NODE, t + 19 * SECOND)).as("8 · ln 10 ≈ 18.4 intervals").isTrue();
    }

    @Test
    void oneHeartbeatIsEnoughToSuspectSilence() {
        FailureDetector detector = detector(1000);
        detector.report(NODE, 0);
        // seeded with the initial interval (2 s): conviction after 8 · ln 10 · 2 s ≈ 36.8 s
        assertThat(detector.convicts(NODE, 36 * SECOND)).isFalse();
        assertThat(detector.convicts(NODE, 37 * SECOND)).isTrue();
    }

    @Test
    void longGapsDoNotTeachTheDetectorToWaitLonger() {
        FailureDetector detector = detector(1000);
        long t = 0;
        for (int i = 0; i < 100; i++) detector.report(NODE, t += SECOND);
        t += 60 * SECOND; // a partition
        detector.report(NODE, t);
        assertThat(detector.phi(NODE, t + 10 * SECOND)).as("mean still about 1 s").isGreaterThan(4.2);
    }

    @Test
    void windowForgetsOldIntervals() {
        FailureDetector detector = detector(10);
        long t = 0;
        for (int i = 0; i < 10; i++) detector.report(NODE, t += SECOND / 10);
        for (int i = 0; i < 10; i++) detector.report(NODE, t += SECOND);
        assertThat(detector.phi(NODE, t + SECOND)).isCloseTo(1 / Math.log(10), within(1e-9));
    }

    @Test
    void restartForgetsTheHistory() {
        FailureDetector detector = detector(1000);
        detector.report(NODE, 0);
        detector.remove(NODE);
        assertThat(detector.phi(NODE, 100 * SECOND)).isZero();
    }

    @Test
    void matchesANaiveReferenceOnRandomArrivals() {
        SplittableRandom random = new SplittableRandom(42);
        int window = 50;
        FailureDetector detector = detector(window);
        List<Long> intervals = new ArrayList<>(List.of(2 * SECOND));
        long t = 0;
        long last = 0;
        detector.report(NODE, 0);
        for (int i = 0; i < 2000; i++) {
            long gap = random.nextLong(1, 3 * SECOND);
            t += gap;
            detector.report(NODE, t);
            if (gap <= 2 * SECOND) intervals.add(gap);
            last = t;
            long now = t + random.nextLong(0, 20 * SECOND);
            List<Long> recent = intervals.subList(Math.max(0, intervals.size() - window), intervals.size());
            double mean = recent.stream().mapToLong(Long::longValue).average().orElseThrow();
            double expected = (now - last) / (mean * Math.log(10));
            assertThat(detector.phi(NODE, now)).isCloseTo(expected, within(1e-6));
        }
    }
}
