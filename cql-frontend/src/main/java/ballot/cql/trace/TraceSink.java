package ballot.cql.trace;

/**
 * Where finished trace sessions go ({@code TraceWriter} on a node). Called on the threads that finish requests (the
 * transport's event loops among them): implementations must neither block nor throw.
 */
public interface TraceSink {
    /** A finished session: its events first, then its session row. */
    void completed(TraceSession.Completed session);

    /**
     * {@code session}, finished, has events that came after (replies slower than the consistency level). The sink
     * takes them with {@link TraceSession#takeLate()} a little later, on another thread, and gets with them every late
     * event added until then; the session calls this again only for events added after that.
     */
    void late(TraceSession session);
}
