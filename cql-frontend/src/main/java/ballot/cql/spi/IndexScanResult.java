package ballot.cql.spi;

import ballot.cql.data.PartitionData;
import java.util.List;

/**
 * A chunk of an index query's answer: partitions in token order with their matching rows; whether the last one's
 * matching rows are all there ({@code lastComplete}), and whether the token range has no further matches
 * ({@code exhausted}). A pager resumes in the last partition when it is not complete, after it otherwise.
 */
public record IndexScanResult(List<PartitionData> partitions, boolean lastComplete, boolean exhausted) {
    public IndexScanResult {
        partitions = List.copyOf(partitions);
    }
}
