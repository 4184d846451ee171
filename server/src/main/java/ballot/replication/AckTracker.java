package ballot.replication;

import ballot.cluster.NodeInfo;
import ballot.cql.ConsistencyLevel;
import ballot.cql.WriteType;
import ballot.cql.error.RequestFailureReason;
import ballot.cql.error.WriteFailureException;
import ballot.cql.error.WriteTimeoutException;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Counts a write's replica acknowledgements against its consistency level (per data center for LOCAL_* and
 * EACH_QUORUM) and completes once the level is met. Once every replica has answered without the level being met it
 * fails: WRITE_FAILURE if some replica failed the write (its storage refused it), WRITE_TIMEOUT otherwise.
 */
final class AckTracker {
    private final ConsistencyLevel cl;
    private final Map<String, Integer> factors;
    private final String localDc;
    private final int blockFor;
    private final int sent;
    private final WriteType writeType;
    private final Map<String, Integer> neededPerDc = new HashMap<>();
    private final Map<String, Integer> ackedPerDc = new HashMap<>();
    private final CompletableFuture<Void> result = new CompletableFuture<>();
    private final Map<InetSocketAddress, RequestFailureReason> failures = new LinkedHashMap<>();
    /** What the first failed replica said. */
    private String failureCause;
    private int acks;
    private int responses;

    AckTracker(ConsistencyLevel cl, Map<String, Integer> factors, String localDc, int sent, WriteType writeType) {
        this.cl = cl == ConsistencyLevel.ANY ? ConsistencyLevel.ONE : cl;
        this.factors = factors;
        this.localDc = localDc;
        this.blockFor = Consistency.blockFor(this.cl, factors, localDc);
        this.sent = sent;
        this.writeType = writeType;
        if (this.cl == ConsistencyLevel.EACH_QUORUM && !factors.containsKey("")) {
            factors.forEach((dc, rf) -> neededPerDc.put(dc, rf / 2 + 1));
        }
    }

    synchronized void ack(NodeInfo replica) {
        responses++;
        if (!neededPerDc.isEmpty()) {
            ackedPerDc.merge(replica.dataCenter(), 1, Integer::sum);
            acks++;
        } else if (Consistency.counts(cl, factors, replica, localDc)) {
            acks++;
        }
        check();
    }

    /** The replica failed the write, saying {@code cause}. */
    synchronized void fail(NodeInfo replica, String cause) {
        failures.put(replica.internode(), RequestFailureReason.UNKNOWN);
        if (failureCause == null) failureCause = cause;
        unanswered(replica);
    }

    /** No answer will come from the replica (unreachable, or it timed out). */
    synchronized void unanswered(NodeInfo replica) {
        responses++;
        check();
    }

    private void check() {
        if (result.isDone()) return;
        if (met()) {
            result.complete(null);
        } else if (responses >= sent) {
            result.completeExceptionally(failures.isEmpty() ? timeout()
                    : new WriteFailureException(cl, acks, blockFor, failures, writeType, failureCause));
        }
    }

    private boolean met() {
        if (neededPerDc.isEmpty()) return acks >= blockFor;
        for (Map.Entry<String, Integer> e : neededPerDc.entrySet()) {
            if (ackedPerDc.getOrDefault(e.getKey(), 0) < e.getValue()) return false;
        }
        return true;
    }

    CompletableFuture<Void> result() {
        return result;
    }

    synchronized WriteTimeoutException timeout() {
        return new WriteTimeoutException(cl, acks, blockFor, writeType, 0);
    }
}
