package ballot.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The console's points from meters registered as the node registers them (PaxosStats, CqlMetrics), sampled on a
 * clock the test moves: rates are per second of monotonic time, quantiles come from the interval's buckets only.
 */
class MeterSamplerTest {
    private static final long SECOND = 1_000_000_000L;
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Timer writeLatency = Timer.builder("ballot.paxos.cas.write.latency").publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofNanos(100_000)).maximumExpectedValue(Duration.ofSeconds(10)).register(registry);
    private final DistributionSummary contention = DistributionSummary.builder("ballot.paxos.cas.write.contention")
            .serviceLevelObjectives(1, 2, 4, 8, 16).register(registry);
    private final DistributionSummary roundTrips = DistributionSummary.builder("ballot.paxos.cas.write.round.trips")
            .tag("outcome", "APPLIED").register(registry);
    private final Counter notMet = Counter.builder("ballot.paxos.cas.write.condition.not.met").register(registry);
    private final Counter queries = Counter.builder("ballot.cql.requests").tag("opcode", "QUERY").register(registry);
    private final Counter overloaded = Counter.builder("ballot.cql.errors").tag("code", "OVERLOADED").register(registry);
    private final MeterSampler sampler = new MeterSampler(registry, 3);

    @Test
    void ratesArePerSecondOfMonotonicTimeBetweenReadings() {
        sampler.sample(0, 1_000);
        for (int i = 0; i < 100; i++) {
            writeLatency.record(Duration.ofMillis(i < 90 ? 1 : 100));
            roundTrips.record(i < 50 ? 1 : 2);
        }
        contention.record(3);
        notMet.increment(10);
        queries.increment(300);
        overloaded.increment(4);
        sampler.sample(2 * SECOND, 99_000); // the wall clock jumped; rates follow the monotonic clock

        ConsolePoint p = sampler.points().get(0);
        assertThat(p.timeMillis()).isEqualTo(99_000);
        assertThat(p.lwtPerSecond()).isEqualTo(50.0);
        assertThat(p.contentionPerSecond()).isEqualTo(1.5);
        assertThat(p.conditionNotMetPerSecond()).isEqualTo(5.0);
        assertThat(p.timeoutsPerSecond()).isZero();
        assertThat(p.roundTripsPerLwt()).isEqualTo(1.5);
        assertThat(p.requestsPerSecond()).containsEntry("QUERY", 150.0);
        assertThat(p.errorsPerSecond()).containsEntry("OVERLOADED", 2.0);
        assertThat(p.lwtP50Millis()).isBetween(0.9, 1.2); // within the bucket holding 1 ms
        assertThat(p.lwtP99Millis()).isBetween(89.0, 112.0); // within the bucket holding 100 ms
    }

    @Test
    void quantilesCoverOnlyTheInterval() {
        for (int i = 0; i < 1000; i++) writeLatency.record(Duration.ofSeconds(1));
        sampler.sample(0, 0);
        for (int i = 0; i < 10; i++) writeLatency.record(Duration.ofMillis(2));
        sampler.sample(SECOND, 1_000);

        assertThat(sampler.points().get(0).lwtP99Millis()).isBetween(1.8, 2.3);
    }

    @Test
    void anIntervalWithoutLwtsHasGapsForLatencyAndRoundTripsAndZeroRates() {
        sampler.sample(0, 0);
        sampler.sample(SECOND, 1_000);

        ConsolePoint p = sampler.points().get(0);
        assertThat(p.lwtPerSecond()).isZero();
        assertThat(p.lwtP50Millis()).isNull();
        assertThat(p.lwtP99Millis()).isNull();
        assertThat(p.roundTripsPerLwt()).isNull();
    }

    @Test
    void keepsTheLatestPointsOldestFirst() {
        for (int i = 0; i <= 5; i++) sampler.sample(i * SECOND, i * 1_000L);

        List<ConsolePoint> points = sampler.points();
        assertThat(points).extracting(ConsolePoint::timeMillis).containsExactly(3_000L, 4_000L, 5_000L);
    }

    @Test
    void theFirstReadingMakesNoPoint() {
        sampler.sample(0, 0);

        assertThat(sampler.points()).isEmpty();
    }

    @Test
    void refusesReadingsOutOfTimeOrder() {
        sampler.sample(SECOND, 0);

        assertThatThrownBy(() -> sampler.sample(SECOND, 0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("time order");
    }
}
