package ballot.cql.spi;

import ballot.cql.ConsistencyLevel;
import ballot.cql.data.PartitionData;
import java.util.ArrayList;
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

    /**
     * {@link #run}, with a row for every participant. A participant whose row the result lacks (the transaction was
     * decided by its record, a retried or recovered one, or refused before that participant was read) is read after the
     * decision, in a read-only transaction at {@code serial}: each row is then current at some moment after the outcome.
     * The rows the result has stay, the one a condition failed on among them, so a condition evaluated on the answer
     * still fails.
     */
    default CompletableFuture<TransactionResult> runAndRead(List<CasRequest> participants, ConsistencyLevel serial,
            ConsistencyLevel commit, StatementSource source) {
        return run(participants, serial, commit, source).thenCompose(result -> {
            List<PartitionData> seen = result.reads();
            if (seen.size() == participants.size() && !seen.contains(null)) return CompletableFuture.completedFuture(result);
            List<CasRequest> reads = new ArrayList<>(participants.size());
            for (CasRequest p : participants) reads.add(CasRequest.read(p.table(), p.key(), p.read()));
            return run(reads, serial, ConsistencyLevel.ONE, null).thenApply(after -> {
                List<PartitionData> rows = new ArrayList<>(participants.size());
                for (int i = 0; i < participants.size(); i++)
                    rows.add(i < seen.size() && seen.get(i) != null ? seen.get(i) : after.reads().get(i));
                return new TransactionResult(result.applied(), rows);
            });
        });
    }
}
