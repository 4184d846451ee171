package ballot.lwt;

import ballot.cql.trace.CoordinatorTrace;
import ballot.cql.trace.SharedTrace;
import ballot.paxos.PaxosKey;
import java.util.HashMap;
import java.util.Map;

/**
 * The traces of a lane's traced requests in flight, by partition. A Paxos round serves every request queued on its
 * partition, so its steps belong to each traced request among them (an untraced one's included, as in Cassandra: the
 * round is the same). Confined to the lane's thread. Untraced requests neither add nor allocate anything, and while
 * nothing is traced a look-up is one {@code isEmpty}.
 */
final class PartitionTraces {
    private final Map<PaxosKey, CoordinatorTrace> traces = new HashMap<>();

    /** Where the steps on {@code key} are recorded; null when no traced request is in flight on it. */
    CoordinatorTrace of(PaxosKey key) {
        return traces.isEmpty() ? null : traces.get(key);
    }

    /** {@code trace}'s request is in flight on {@code key}: the partition's steps go to it too. */
    void add(PaxosKey key, CoordinatorTrace trace) {
        traces.merge(key, trace, SharedTrace::with);
    }

    /** {@code trace}'s request on {@code key} is done (answered, or failed to start). */
    void remove(PaxosKey key, CoordinatorTrace trace) {
        traces.computeIfPresent(key, (k, current) -> SharedTrace.without(current, trace));
    }
}
