package ballot.cql.trace;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The coordinator's record of one traced request: a row of system_traces.sessions and the events of every node that
 * worked on the request. The transport makes it when the request arrives, the query layer names the request
 * ({@link #begin}), any thread adds events, and the transport {@link #finish}es it when the answer is ready; then its
 * events and, after them, its session row (with the duration drivers wait for) go to the {@link TraceSink}. Events
 * that arrive later (a replica that answered after the consistency level was met) are written on their own.
 */
public final class TraceSession implements CoordinatorTrace {
    /** The one kind of trace Ballot writes ({@code Tracing.TraceType.QUERY} in Cassandra). */
    static final String COMMAND = "QUERY";

    /** A finished session: the row of system_traces.sessions and the events known at the end. */
    public record Completed(UUID sessionId, InetAddress client, String command, InetAddress coordinator, int coordinatorPort,
            int durationMicros, Map<String, String> parameters, String request, long startedAtMillis, List<TraceEvent> events) {}

    private final UUID id;
    private final boolean requested;
    private final InetAddress client;
    private final InetAddress coordinator;
    private final int coordinatorPort;
    private final long startedAtMillis;
    private final long startNanos;
    private final TraceSink sink;
    /** Guarded by {@code this}. */
    private String request = "";
    private Map<String, String> parameters = Map.of();
    private List<TraceEvent> events = new ArrayList<>();
    private boolean finished;

    TraceSession(UUID id, boolean requested, InetAddress client, InetAddress coordinator, int coordinatorPort, long startedAtMillis,
            long startNanos, TraceSink sink) {
        this.id = id;
        this.requested = requested;
        this.client = client;
        this.coordinator = coordinator;
        this.coordinatorPort = coordinatorPort;
        this.startedAtMillis = startedAtMillis;
        this.startNanos = startNanos;
        this.sink = sink;
    }

    /** The session's id: the key of its rows in system_traces. */
    @Override
    public UUID id() {
        return id;
    }

    /**
     * Whether the client asked for the trace (the envelope's tracing flag) rather than the request being sampled. Only
     * then does the answer carry the tracing flag and {@link #id()}, as in Cassandra ({@code Message.Request.execute}).
     */
    public boolean requested() {
        return requested;
    }

    /** Names the request ("Execute CQL3 query") and its parameters (the query, consistency level, ...). */
    public synchronized void begin(String request, Map<String, String> parameters) {
        this.request = request;
        this.parameters = Map.copyOf(parameters);
    }

    @Override
    public void event(String activity) {
        add(List.of(TraceEvent.now(activity, coordinator, coordinatorPort, startNanos)));
    }

    @Override
    public void add(List<TraceEvent> more) {
        synchronized (this) {
            if (!finished) {
                events.addAll(more);
                return;
            }
        }
        sink.late(id, more);
    }

    /** Ends the session now: later calls do nothing. Cheap: the writing happens elsewhere. */
    public void finish() {
        Completed completed;
        synchronized (this) {
            if (finished) return;
            finished = true;
            int duration = (int) Math.min(Integer.MAX_VALUE, (System.nanoTime() - startNanos) / 1000);
            completed = new Completed(id, client, COMMAND, coordinator, coordinatorPort, duration, parameters, request,
                    startedAtMillis, List.copyOf(events));
            events = null;
        }
        sink.completed(completed);
    }

    @Override
    public String toString() {
        return "TraceSession[" + id + "]";
    }
}
