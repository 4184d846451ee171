package ballot.cql.data;

import java.util.List;

/**
 * What to read of each partition: clustering slices in clustering order (non-overlapping, sorted), whether to return
 * rows in reverse order, how many live rows at most in all ({@code rowLimit}) and per partition
 * ({@code partitionRowLimit}), and the time at which TTLs are evaluated.
 */
public record ReadSpec(List<Slice> slices, boolean reversed, int rowLimit, int partitionRowLimit, int nowInSec) {
    public static ReadSpec all(int nowInSec) {
        return new ReadSpec(List.of(Slice.ALL), false, Integer.MAX_VALUE, Integer.MAX_VALUE, nowInSec);
    }

    public ReadSpec withSlices(List<Slice> newSlices) {
        return new ReadSpec(newSlices, reversed, rowLimit, partitionRowLimit, nowInSec);
    }
}
