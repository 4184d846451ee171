package ballot.tools.workload;

import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * A finished run: requests answered ({@code completed}) of {@code count}, each either an outcome or an error; the
 * latencies of the outcomes; and whether the run stopped at its deadline before issuing all of them. Outcomes are in
 * the enum's order, errors by kind in alphabetical order.
 */
record LoadResult<O extends Enum<O>>(long count, long completed, Map<O, Long> outcomes, Map<String, Long> errors,
                                     List<String> firstErrors, Histogram latencyMicros, long elapsedNanos, boolean stoppedEarly) {
    long outcome(O outcome) {
        return outcomes.getOrDefault(outcome, 0L);
    }

    long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }
}
