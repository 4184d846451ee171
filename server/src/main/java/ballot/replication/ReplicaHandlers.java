package ballot.replication;

import ballot.cql.ConsistencyLevel;
import ballot.cql.data.PartitionData;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import ballot.net.Messaging;
import ballot.storage.IndexNotAvailableException;
import ballot.cql.data.PartitionKey;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** Answers the replication verbs on this node: the replica side of reads, writes, scans, truncates and counters. */
final class ReplicaHandlers {
    private ReplicaHandlers() {}

    /** Installs the handlers; {@code coordinator} is looked up per request, as it exists only once the node has joined. */
    static void register(Messaging messaging, LocalReplica local, Supplier<ReplicatedCoordinator> coordinator, Supplier<Schema> schema) {
        messaging.handle(ReplicationVerbs.MUTATION, (mutations, from) -> {
            local.apply(mutations);
            return CompletableFuture.completedFuture(null);
        });
        messaging.handle(ReplicationVerbs.READ, (command, from) -> CompletableFuture.completedFuture(read(local, command)));
        messaging.handle(ReplicationVerbs.SCAN, (command, from) -> CompletableFuture.completedFuture(
                local.scan(command.table(), command.range(), command.spec(), command.partitionLimit(),
                        command.deadMax())));
        messaging.handle(ReplicationVerbs.INDEX_SCAN, (command, from) -> CompletableFuture.completedFuture(indexScan(local, command)));
        messaging.handle(ReplicationVerbs.TRUNCATE, (table, from) -> {
            local.truncate(table);
            return CompletableFuture.completedFuture(null);
        });
        messaging.handle(ReplicationVerbs.COUNTER_LEADER, (command, from) -> {
            TableMetadata table = schema.get().table(command.update().tableId());
            if (table == null) throw new IllegalStateException("unknown table id " + command.update().tableId());
            ReplicatedCoordinator leader = coordinator.get();
            if (leader == null) throw new IllegalStateException("this node is still starting");
            return leader.leadCounter(table, command.update(), ConsistencyLevel.fromCode(command.consistencyCode()));
        });
    }

    static ReplicationVerbs.IndexScanResponse indexScan(LocalReplica local, ReplicationVerbs.IndexScanCommand command) {
        try {
            // The held partitions before the index is read: one resolved in between is in the answer with its writes.
            List<PartitionKey> held = local.heldByIntents(command.table(), command.range());
            return new ReplicationVerbs.IndexScanResponse(local.indexScan(command), true, held);
        } catch (IndexNotAvailableException e) {
            return new ReplicationVerbs.IndexScanResponse(List.of(), false, List.of());
        }
    }

    static ReplicationVerbs.ReadResponse read(LocalReplica local, ReplicationVerbs.ReadCommand command) {
        LocalReplica.Read read = local.readWithStamp(command.table(), command.key(), command.spec());
        return command.digestOnly() ? new ReplicationVerbs.ReadResponse(null, LocalReplica.digest(read.data()), read.txn())
                : new ReplicationVerbs.ReadResponse(read.data(), null, read.txn());
    }
}
