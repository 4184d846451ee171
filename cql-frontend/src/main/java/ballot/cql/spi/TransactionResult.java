package ballot.cql.spi;

import ballot.cql.data.PartitionData;
import java.util.List;

/**
 * The outcome of a transaction: whether its updates were written, and the rows each participant read, in participant
 * order. Applied: a consistent snapshot at the transaction's commit point. Not applied: what the participants read
 * before the condition that failed, and the rows that condition failed on; null for a participant that read nothing
 * the coordinator saw (each row was current at some moment of the transaction; not a snapshot).
 */
public record TransactionResult(boolean applied, List<PartitionData> reads) {
    public TransactionResult {
        reads = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(reads));
    }
}
