package ballot.cql.trace;

import java.util.List;
import java.util.UUID;

/**
 * Where finished trace sessions go ({@link TraceWriter} on a node). Called on the threads that finish requests (the
 * transport's event loops among them): implementations must neither block nor throw.
 */
public interface TraceSink {
    /** A finished session: its events first, then its session row. */
    void completed(TraceSession.Completed session);

    /** Events that arrived after their session finished. */
    void late(UUID sessionId, List<TraceEvent> events);
}
