package ballot.replication;

import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.ReadSpec;
import ballot.cql.schema.TableMetadata;
import java.util.concurrent.CompletableFuture;

/**
 * How a coordinator's plain reads honour transactions' locks (docs/txn.md §10), given by the node that hosts
 * transactions: a partition whose newest transaction state, as the replicas' answers stamp it
 * ({@link Replication#reportIntents}), holds an intent is read through the transaction layer, which waits for the
 * intent's transaction or recovers it first. So a plain read that starts after a transaction's answer sees its writes
 * even while they are still being resolved.
 */
@FunctionalInterface
public interface HeldPartitions {
    /** The partition read as {@code spec} asks, once no intent holds it: a linearizable read. */
    CompletableFuture<PartitionData> readResolved(TableMetadata table, PartitionKey key, ReadSpec spec);
}
