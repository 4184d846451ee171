package ballot.cql.spi;

import ballot.cql.data.PartitionData;
import java.util.List;

/**
 * The outcome of a transaction: whether its updates were written, and when they were, the rows each participant's
 * condition read (in participant order), a consistent snapshot at the transaction's commit point.
 */
public record TransactionResult(boolean applied, List<PartitionData> reads) {
    public TransactionResult {
        reads = List.copyOf(reads);
    }
}
