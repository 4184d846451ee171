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
 * that arrive later (a replica that answered after the consistency level was met) are kept until the sink takes them
 * ({@link #takeLate()}), so the late replies of a request are written together: at most {@value #LATE_EVENTS_MAX} at a
 * time, the rest dropped and counted.
 */
public final class TraceSession implements CoordinatorTrace {
    /** The one kind of trace Ballot writes ({@code Tracing.TraceType.QUERY} in Cassandra). */
    static final String COMMAND = "QUERY";

    /** Late events kept for one write; a request has a few replicas, each sending a few events. */
    static final int LATE_EVENTS_MAX = 1000;

    /** A finished session: the row of system_traces.sessions and the events known at the end. */
    public record Completed(UUID sessionId, InetAddress client, String command, InetAddress coordinator, int coordinatorPort,
            int durationMicros, Map<String, String> parameters, String request, long startedAtMillis, List<TraceEvent> events) {}

    /** Events that came after the session finished, and how many more were dropped beyond {@link #LATE_EVENTS_MAX}. */
    public record Late(UUID sessionId, List<TraceEvent> events, int dropped) {}

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
    /** After the finish: events waiting for the sink to take them; null while none are. */
    private List<TraceEvent> late;
    private int lateDropped;

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
        append(List.of(now(activity)));
    }

    @Override
    public void reply(List<TraceEvent> replicaEvents, String activity) {
        List<TraceEvent> step = new ArrayList<>(replicaEvents.size() + 1);
        step.addAll(replicaEvents);
        step.add(now(activity));
        append(step);
    }

    private TraceEvent now(String activity) {
        return TraceEvent.now(activity, coordinator, coordinatorPort, startNanos);
    }

    private void append(List<TraceEvent> step) {
        synchronized (this) {
            if (!finished) {
                events.addAll(step);
                return;
            }
            boolean first = late == null;
            if (first) late = new ArrayList<>();
            int kept = Math.min(step.size(), LATE_EVENTS_MAX - late.size());
            late.addAll(step.subList(0, kept));
            lateDropped += step.size() - kept;
            if (!first) return; // the sink will take these with the others
        }
        sink.late(this);
    }

    /** The events that came after the finish since the last call; the next late event calls the sink again. */
    public synchronized Late takeLate() {
        Late taken = new Late(id, late == null ? List.of() : late, lateDropped);
        late = null;
        lateDropped = 0;
        return taken;
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
