package ballot.cql.trace;

import java.util.List;
import java.util.UUID;

/**
 * A trace kept on the coordinator: besides the steps taken here, it takes the events replicas record for the request
 * and send back with their replies. One request's {@link TraceSession}, or the {@link SharedTrace} of several requests
 * whose work is shared.
 */
public sealed interface CoordinatorTrace extends Trace permits TraceSession, SharedTrace {
    /** The session id that traced internode requests carry to replicas. */
    UUID id();

    /**
     * Adds the events a replica recorded for this request and sent back with its reply, then {@code activity} (the
     * reply's arrival) on this node: one step, so that a reply arriving after the session finished is one late batch.
     */
    void reply(List<TraceEvent> replicaEvents, String activity);
}
