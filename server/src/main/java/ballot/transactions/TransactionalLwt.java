package ballot.transactions;

import ballot.cql.ConsistencyLevel;
import ballot.cql.data.PartitionData;
import ballot.cql.spi.CasRequest;
import ballot.cql.spi.CasResult;
import ballot.cql.spi.LwtCoordinator;
import ballot.cql.spi.TransactionResult;
import ballot.cql.spi.Transactions;
import ballot.cql.error.ReadTimeoutException;
import ballot.cql.error.WriteTimeoutException;
import ballot.lwt.IntentFound;
import ballot.lwt.PaxosEngine;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Conditional statements and SERIAL reads that honour transactions' locks (docs/txn.md §10, §11.1): each runs as a
 * plain Paxos compare-and-set, and one that finds an intent on its partition runs again as a one-partition
 * transaction (1PC), which waits for the intent's transaction to be decided (or recovers it) and evaluates the
 * statement in the same CAS as its decision.
 */
public final class TransactionalLwt implements LwtCoordinator {
    private final LwtCoordinator paxos;
    private final Transactions transactions;

    public TransactionalLwt(PaxosEngine paxos, TransactionHost transactions) {
        this((LwtCoordinator) paxos, transactions);
        paxos.honourLocks(TxnStateCodec::holdsIntent);
    }

    /** Over any LWT coordinator that fails with {@link IntentFound} where a transaction holds the partition. */
    TransactionalLwt(LwtCoordinator paxos, Transactions transactions) {
        this.paxos = paxos;
        this.transactions = transactions;
    }

    @Override
    public CompletableFuture<CasResult> cas(CasRequest request, ConsistencyLevel serial, ConsistencyLevel commit) {
        return paxos.cas(request, serial, commit).exceptionallyCompose(failure -> {
            Throwable cause = unwrap(failure);
            if (!(cause instanceof IntentFound)) return CompletableFuture.failedFuture(cause);
            return asTransaction(request, serial, commit);
        });
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    private CompletableFuture<CasResult> asTransaction(CasRequest request, ConsistencyLevel serial, ConsistencyLevel commit) {
        // An LWT's 1PC runs where the LWT was coordinated: what its client sent is not at hand (docs/txn.md §11.1).
        CompletableFuture<TransactionResult> run = transactions.runAndRead(List.of(request), serial, commit, null);
        if (request.isRead()) { // a SERIAL read that could not finish in time times out as a read, as it would through Paxos
            run = run.exceptionallyCompose(failure -> CompletableFuture.failedFuture(unwrap(failure) instanceof WriteTimeoutException
                    ? new ReadTimeoutException(serial, 0, 1, false) : unwrap(failure)));
        }
        return run.thenApply(result -> {
            PartitionData read = result.reads().get(0);
            if (request.isRead()) return new CasResult(false, PaxosEngine.limit(read, request.read()));
            return new CasResult(result.applied(), read);
        });
    }
}
