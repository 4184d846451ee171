package ballot.cql.spi;

import ballot.cql.ConsistencyLevel;
import ballot.cql.WriteType;
import ballot.cql.data.PartitionData;
import ballot.cql.error.WriteTimeoutException;
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

    /** How many times {@link #runAndRead} reads again participants a read-only transaction also left without a row. */
    int REREADS_MAX = 3;

    /**
     * {@link #run}, with a row for every participant. A participant whose row the result lacks (the transaction was
     * decided by its record, a retried or recovered one, or refused before that participant was read) is read after the
     * decision, in a read-only transaction at {@code serial}: each row is then current at some moment after the outcome.
     * A read-only transaction can itself be decided by its record; what it leaves without a row is read again, at most
     * {@link #REREADS_MAX} times, then the statement times out (WriteTimeout, CAS). The rows the result has stay, the
     * one a condition failed on among them, so a condition evaluated on the answer still fails.
     */
    default CompletableFuture<TransactionResult> runAndRead(List<CasRequest> participants, ConsistencyLevel serial,
            ConsistencyLevel commit, StatementSource source) {
        return run(participants, serial, commit, source).thenCompose(result -> withEveryRow(result, participants, serial, REREADS_MAX));
    }

    private CompletableFuture<TransactionResult> withEveryRow(TransactionResult result, List<CasRequest> participants,
            ConsistencyLevel serial, int rereadsLeft) {
        List<PartitionData> rows = new ArrayList<>(result.reads()); // one per participant, in order (TransactionResult)
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) if (rows.get(i) == null) missing.add(i);
        if (missing.isEmpty()) return CompletableFuture.completedFuture(result);
        if (rereadsLeft == 0) return CompletableFuture.failedFuture(new WriteTimeoutException(serial, 0, 1, WriteType.CAS, 0));
        List<CasRequest> reads = new ArrayList<>(missing.size());
        for (int i : missing) reads.add(CasRequest.read(participants.get(i).table(), participants.get(i).key(), participants.get(i).read()));
        return run(reads, serial, ConsistencyLevel.ONE, null).thenCompose(after -> {
            for (int j = 0; j < missing.size(); j++) rows.set(missing.get(j), after.reads().get(j));
            return withEveryRow(new TransactionResult(result.applied(), rows), participants, serial, rereadsLeft - 1);
        });
    }
}
