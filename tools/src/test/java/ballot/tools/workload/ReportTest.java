package ballot.tools.workload;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.tools.workload.Pop.Registration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ReportTest {
    /** Latencies 1..1000 ms, one of each; percentiles come out as the top of their 3-digit bucket. */
    private static Histogram oneToThousandMillis() {
        Histogram h = new Histogram(3);
        for (long ms = 1; ms <= 1_000; ms++) h.recordValue(ms * 1_000);
        return h;
    }

    private static Map<Registration, Long> registrations(long inserted, long duplicates) {
        return new TreeMap<>(Map.of(Registration.INSERTED, inserted, Registration.DUPLICATE, duplicates));
    }

    @Test
    void progressLineShowsShareRateAndIntervalLatencies() {
        Histogram h = new Histogram(3);
        h.recordValue(410);
        h.recordValue(1_200);
        h.recordValue(18_300);
        Interval interval = new Interval(12_000_000_000L, 12_345, 27_000, 5_117, 500_000_000L, h);
        assertThat(Report.progress(interval)).isEqualTo("[   12.0s]  45.7% 12345/27000  rps 10234  lat ms min 0.41 med 1.20 max 18.30");
    }

    @Test
    void progressLineWithoutCompletions() {
        Interval interval = new Interval(1_000_000_000L, 0, 500, 0, 1_000_000_000L, new Histogram(3));
        assertThat(Report.progress(interval)).isEqualTo("[    1.0s]   0.0% 0/500  rps 0  lat ms -");
    }

    @Test
    void summaryCountsOutcomesAndErrorsWithTailLatencies() {
        LoadResult<Registration> result = new LoadResult<>(1_000, 1_000, registrations(990, 8), Map.of("WriteTimeoutException", 2L),
                List.of(), oneToThousandMillis(), 2_500_000_000L, false);
        assertThat(Report.summary("pop", "accounts", result)).isEqualTo("pop: 1000 accounts in 2.5 s: inserted 990, duplicates 8, errors 2; "
                + "400 ops/s; latency ms p50 500.22 p95 950.27 p99 990.21 p99.9 999.42 max 1000.45");
    }

    @Test
    void summaryOfARunStoppedAtItsDeadline() {
        Histogram h = new Histogram(3);
        h.recordValue(2_000);
        LoadResult<Registration> result = new LoadResult<>(27_000, 1, registrations(1, 0), Map.of(), List.of(), h, 10_000_000_000L, true);
        assertThat(Report.summary("pop", "accounts", result)).isEqualTo("pop: 1 of 27000 accounts in 10.0 s (stopped at --duration): "
                + "inserted 1, duplicates 0, errors 0; 0 ops/s; latency ms p50 2.00 p95 2.00 p99 2.00 p99.9 2.00 max 2.00");
    }

    @Test
    void errorLinesByKindThenFirstMessages() {
        LoadResult<Registration> result = new LoadResult<>(10, 10, registrations(7, 0),
                new TreeMap<>(Map.of("WriteTimeoutException", 2L, "UnavailableException", 1L)),
                List.of("WriteTimeoutException: timeout during CAS write", "UnavailableException: not enough replicas"),
                new Histogram(3), 1_000_000_000L, false);
        assertThat(Report.errors(result)).containsExactly("errors by kind: UnavailableException 1, WriteTimeoutException 2",
                "first distinct errors:", "  WriteTimeoutException: timeout during CAS write", "  UnavailableException: not enough replicas");
        assertThat(Report.summary("pop", "accounts", result)).contains("inserted 7, duplicates 0, errors 3;").endsWith("latency ms -");
    }

    @Test
    void noErrorLinesWithoutErrors() {
        LoadResult<Registration> result = new LoadResult<>(1, 1, registrations(1, 0), Map.of(), List.of(), new Histogram(3), 1, false);
        assertThat(Report.errors(result)).isEmpty();
    }
}
