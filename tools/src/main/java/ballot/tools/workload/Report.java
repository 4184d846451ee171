package ballot.tools.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/** The text a workload prints: progress lines, the summary, the errors. Latencies are shown in milliseconds. */
final class Report {
    private Report() {}

    /** E.g. {@code [   12.0s]  45.7% 12345/27000  rps 10234  lat ms min 0.41 med 1.20 max 18.30}. */
    static String progress(Interval i) {
        double percent = i.count() == 0 ? 100 : 100.0 * i.completed() / i.count();
        long rps = i.intervalNanos() <= 0 ? 0 : Math.round(i.intervalCompleted() * 1e9 / i.intervalNanos());
        Histogram h = i.latencyMicros();
        String latency = h.getTotalCount() == 0 ? "lat ms -"
                : "lat ms min " + ms(h.getMinValue()) + " med " + ms(h.getValueAtPercentile(50)) + " max " + ms(h.getMaxValue());
        return String.format(Locale.ROOT, "[%7.1fs] %5.1f%% %d/%d  rps %d  %s", i.elapsedNanos() / 1e9, percent, i.completed(), i.count(), rps, latency);
    }

    /**
     * E.g. {@code pop: 27000 accounts in 2.7 s: inserted 26990, duplicates 10, errors 0; 10000 ops/s; latency ms p50 1.20
     * p95 3.10 p99 5.00 p99.9 9.80 max 18.30}; a run stopped by its deadline says {@code 12000 of 27000 accounts}.
     */
    static String summary(String command, String items, LoadResult<?> r) {
        return summary(command, items, r, Object::toString);
    }

    /** The summary with each outcome named by {@code label}. */
    static <O extends Enum<O>> String summary(String command, String items, LoadResult<O> r, Function<? super O, String> label) {
        StringJoiner counts = new StringJoiner(", ");
        r.outcomes().forEach((outcome, n) -> counts.add(label.apply(outcome) + " " + n));
        counts.add("errors " + r.errorCount());
        double seconds = r.elapsedNanos() / 1e9;
        long throughput = seconds <= 0 ? 0 : Math.round(r.completed() / seconds);
        Histogram h = r.latencyMicros();
        String latency = h.getTotalCount() == 0 ? "latency ms -"
                : "latency ms p50 " + ms(h.getValueAtPercentile(50)) + " p95 " + ms(h.getValueAtPercentile(95)) + " p99 "
                        + ms(h.getValueAtPercentile(99)) + " p99.9 " + ms(h.getValueAtPercentile(99.9)) + " max " + ms(h.getMaxValue());
        String done = r.stoppedEarly() ? r.completed() + " of " + r.count() : Long.toString(r.completed());
        return String.format(Locale.ROOT, "%s: %s %s in %.1f s%s: %s; %d ops/s; %s", command, done, items, seconds,
                r.stoppedEarly() ? " (stopped at --duration)" : "", counts, throughput, latency);
    }

    /** Errors by kind and the first distinct messages; no lines when there were none. */
    static List<String> errors(LoadResult<?> r) {
        if (r.errors().isEmpty()) return List.of();
        StringJoiner kinds = new StringJoiner(", ", "errors by kind: ", "");
        for (Map.Entry<String, Long> e : r.errors().entrySet()) kinds.add(e.getKey() + " " + e.getValue());
        List<String> lines = new ArrayList<>();
        lines.add(kinds.toString());
        lines.add("first distinct errors:");
        for (String message : r.firstErrors()) lines.add("  " + message);
        return lines;
    }

    private static String ms(long micros) {
        return String.format(Locale.ROOT, "%.2f", micros / 1_000.0);
    }
}
