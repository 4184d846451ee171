package ballot.lwt;

import ballot.paxos.Decree;
import ballot.paxos.PaxosKey;
import ballot.paxos.acceptor.AcceptorState;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Test steps that need a persist to be on disk before they go on. */
final class Durably {
    private Durably() {}

    /** Persists through the store's group commit and waits until it is durable; its failure is thrown. */
    static void persist(RocksPaxosStore store, PaxosKey key, AcceptorState state, List<Decree> apply) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        store.persist(key, state, apply, true, failed -> {
            if (failed == null) done.complete(null);
            else done.completeExceptionally(failed);
        });
        try {
            done.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw (RuntimeException) e.getCause();
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError("persist of " + key + " did not complete", e);
        }
    }
}
