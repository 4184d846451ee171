package ballot.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LatencyPercentilesTest {
    private static Timer timer(MeterRegistry registry, String consistency) {
        return Timer.builder("t").tag("consistency", consistency).publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(100_000)).maximumExpectedValue(Duration.ofSeconds(10)).register(registry);
    }

    /** 90 values of 1 ms and 10 of 100 ms, split over two timers. */
    @Test
    void sumsTimersAndReadsPercentilesFromTheirBuckets() {
        MeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Timer one = timer(registry, "ONE");
        Timer quorum = timer(registry, "QUORUM");
        for (int i = 0; i < 90; i++) (i % 2 == 0 ? one : quorum).record(1, TimeUnit.MILLISECONDS);
        for (int i = 0; i < 10; i++) quorum.record(100, TimeUnit.MILLISECONDS);

        LatencyPercentiles p = LatencyPercentiles.of(List.of(one, quorum));
        assertThat(p.count()).isEqualTo(100);
        // A percentile is its bucket's upper bound: at most ~10% (one bucket) above the value.
        assertThat(p.p50Micros()).isBetween(1_000.0, 1_100.0);
        assertThat(p.p75Micros()).isBetween(1_000.0, 1_100.0);
        assertThat(p.p95Micros()).isBetween(100_000.0, 110_000.0);
        assertThat(p.p99Micros()).isBetween(100_000.0, 110_000.0);
        assertThat(p.maxMicros()).isCloseTo(100_000.0, within(1.0));
    }

    @Test
    void isAllZeroWithoutValues() {
        LatencyPercentiles p = LatencyPercentiles.of(List.of(timer(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), "ONE")));
        assertThat(p).isEqualTo(new LatencyPercentiles(0, 0, 0, 0, 0, 0, 0));
        assertThat(LatencyPercentiles.of(List.of())).isEqualTo(new LatencyPercentiles(0, 0, 0, 0, 0, 0, 0));
    }
}
