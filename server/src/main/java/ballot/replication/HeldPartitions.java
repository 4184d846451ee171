package ballot.replication;

import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.ReadSpec;
import ballot.cql.schema.TableMetadata;
import java.util.concurrent.CompletableFuture;

/**
 * How plain reads honour transactions' locks (docs/txn.md §10), given by the node that hosts transactions: a replica
 * tells the coordinator whether the partition's transaction state holds an intent, and a partition whose newest state
 * does is read through the transaction layer, which waits for the intent's transaction or recovers it first. So a
 * plain read that starts after a transaction's answer sees its writes even while they are still being resolved.
 */
public interface HeldPartitions {
    /** Whether a stored transaction state (without its timestamp) holds an intent. */
    boolean holdsIntent(byte[] state);

    /** The partition read as {@code spec} asks, once no intent holds it: a linearizable read. */
    CompletableFuture<PartitionData> readResolved(TableMetadata table, PartitionKey key, ReadSpec spec);
}
