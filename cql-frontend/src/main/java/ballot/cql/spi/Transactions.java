package ballot.cql.spi;

import ballot.cql.ConsistencyLevel;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The node's multi-partition transactions as the query layer sees them (docs/txn.md §11.1): compare-and-sets on
 * several partitions that apply all or nothing, strictly serializable with each other and with every conditional
 * statement and SERIAL read of their partitions. Implemented by the server over its Paxos.
 */
public interface Transactions {
    /** The most partitions one transaction may involve. */
    int PARTICIPANTS_MAX = 32;

    /**
     * Runs {@code participants}, at most one per partition, as one transaction: every update is written if every
     * condition holds on the partitions' rows at one moment, and nothing is written otherwise. Completes once the
     * writes are applied at {@code commit}. Fails with InvalidRequest for a statement error, WriteTimeout(CAS) when the
     * outcome is unknown, and Unavailable when too few replicas of a partition are alive. {@code source} is what the
     * client sent, from which {@code participants} can be rebuilt in order on another node (null: they cannot be).
     */
    CompletableFuture<TransactionResult> run(List<CasRequest> participants, ConsistencyLevel serial, ConsistencyLevel commit,
            StatementSource source);
}
