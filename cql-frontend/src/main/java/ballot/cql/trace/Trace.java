package ballot.cql.trace;

/**
 * Where a traced request records its steps: on the coordinator a {@link TraceSession}, on a replica the events it
 * sends back with its reply. Only traced requests have one, so code on the request path asks {@link Tracing#current()}
 * and records nothing (and allocates nothing) when it is null.
 */
public interface Trace {
    /** Records that {@code activity} happens now, on this node and thread. */
    void event(String activity);
}
