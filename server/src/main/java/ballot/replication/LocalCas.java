package ballot.replication;

import ballot.cluster.NodeInfo;
import ballot.cql.ConsistencyLevel;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.spi.CasRequest;
import ballot.cql.spi.CasResult;
import ballot.storage.StorageEngine;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * Compare-and-set when this node is the partition's only replica (replication factor 1 here, or a single-node
 * cluster): under the partition's lock the row is read, the condition evaluated and the update synced to disk before
 * the answer, which is linearizable because no other node holds the partition. Replicated partitions need Paxos.
 */
final class LocalCas implements ReplicatedCoordinator.CasEngine {
    private final LocalReplica local;
    private final StorageEngine storage;
    private final LongSupplier nowMicros;

    LocalCas(LocalReplica local, StorageEngine storage, LongSupplier nowMicros) {
        this.local = local;
        this.storage = storage;
        this.nowMicros = nowMicros;
    }

    @Override
    public CompletableFuture<CasResult> cas(CasRequest request, List<NodeInfo> replicas, ConsistencyLevel serial, ConsistencyLevel commit) {
        UUID self = local.hostId();
        if (replicas.size() != 1 || !replicas.get(0).hostId().equals(self)) {
            throw new InvalidRequestException("Conditional statements on a keyspace replicated to other nodes need Paxos, "
                    + "which this build does not have yet; use a keyspace with replication_factor 1 on the coordinator");
        }
        synchronized (local.lock(request.key())) {
            PartitionData current = storage.read(request.table(), request.key(), request.read());
            long timestamp = nowMicros.getAsLong();
            PartitionUpdate update = request.apply(current, timestamp);
            if (update == null) return CompletableFuture.completedFuture(new CasResult(false, current));
            if (!update.isEmpty()) local.applyDurably(List.of(local.mutation(update)));
            return CompletableFuture.completedFuture(new CasResult(true, current));
        }
    }
}
