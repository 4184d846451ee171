package ballot.cql.spi;

import ballot.cql.ConsistencyLevel;
import ballot.cql.WriteType;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.TokenRange;
import ballot.cql.index.IndexExpression;
import ballot.cql.schema.TableMetadata;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The node's read and write paths as the query layer sees them: plain statements are sent to the replicas of their
 * partitions and complete when the consistency level is met (or fail with Unavailable / timeouts). Implemented by the
 * server; the query layer never touches storage directly.
 */
public interface DataCoordinator {
    /** Applies the updates (atomically per partition) and completes once {@code consistency} is met. */
    CompletableFuture<Void> write(List<PartitionUpdate> updates, ConsistencyLevel consistency, WriteType writeType);

    /** Reads one partition at {@code consistency}. */
    CompletableFuture<PartitionData> read(TableMetadata table, PartitionKey key, ReadSpec spec, ConsistencyLevel consistency);

    /**
     * Reads the partitions of a token range in token order, at most {@code partitionLimit} partitions and
     * {@code spec.rowLimit()} live rows; returns only partitions with live data.
     */
    CompletableFuture<List<PartitionData>> scan(TableMetadata table, TokenRange range, ReadSpec spec, int partitionLimit,
            ConsistencyLevel consistency);

    /**
     * Reads the partitions of a token range with rows that an index query selects (docs/indexes.md, "Queries"): as
     * {@link #scan}, but each replica answers from its index with the rows whose current values match
     * {@code expression}. {@code used} names every index the query relies on; a replica where one is still building
     * fails the read (READ_FAILURE, INDEX_NOT_AVAILABLE).
     */
    CompletableFuture<IndexScanResult> indexScan(TableMetadata table, IndexExpression expression, List<String> used, TokenRange range,
            ReadSpec spec, int partitionLimit, ConsistencyLevel consistency);

    /** Removes all data of the table on every replica. */
    CompletableFuture<Void> truncate(TableMetadata table);

    /**
     * This coordinator with one deadline, {@code timeout} from now, for every operation (ScyllaDB's USING TIMEOUT, for
     * one execution of a statement): each step waits for replicas only as long as is left of it, in place of the
     * configured timeout of its kind, and a step that would start after the deadline fails at once with its timeout
     * error (READ_TIMEOUT, WRITE_TIMEOUT, TRUNCATE_ERROR) without sending anything. A write of several partitions may
     * still have sent its earlier partitions to their replicas, which may apply them: a timeout, as ever, says the
     * write may or may not have happened. Compare-and-set and SERIAL reads keep Paxos's own timeouts, as in ScyllaDB.
     */
    DataCoordinator within(Duration timeout);

    /**
     * This coordinator with one deadline for every operation, the configured read timeout ({@code range}: the range
     * timeout) from now; itself if it has a deadline already ({@link #within}). A statement that reads in several
     * steps (a scan read in chunks, the partitions of an IN) then ends within its timeout as a whole.
     */
    DataCoordinator withReadDeadline(boolean range);
}
