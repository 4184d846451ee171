package ballot.cql.spi;

import ballot.cql.ConsistencyLevel;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.ReadSpec;
import ballot.cql.schema.TableMetadata;
import java.util.concurrent.CompletableFuture;

/**
 * The node's lightweight transactions as the query layer sees them: compare-and-set and SERIAL reads, each
 * linearizable with every other one on its partition. Implemented by the server's Paxos; separate from
 * {@link DataCoordinator}, whose plain reads and writes know nothing of it.
 */
public interface LwtCoordinator {
    /**
     * Runs a compare-and-set linearizably with every other one on the partition: reads what {@code request} needs at
     * {@code serial}, evaluates it, and if it applies, commits the update at {@code commit} before completing. Fails
     * with WriteTimeout(CAS) when the outcome is unknown, and with Unavailable when too few replicas are alive.
     */
    CompletableFuture<CasResult> cas(CasRequest request, ConsistencyLevel serial, ConsistencyLevel commit);

    /**
     * Reads one partition linearizably (SERIAL or LOCAL_SERIAL): as a compare-and-set that never applies, so it sees
     * every conditional update that completed before it and finishes any that is half done. Fails with ReadTimeout
     * when it cannot complete in time.
     */
    default CompletableFuture<PartitionData> readSerial(TableMetadata table, PartitionKey key, ReadSpec spec, ConsistencyLevel serial) {
        return cas(CasRequest.read(table, key, spec), serial, ConsistencyLevel.ONE).thenApply(CasResult::current);
    }
}
