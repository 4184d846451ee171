package ballot.tracing;

import ballot.cql.trace.Trace;
import ballot.cql.trace.TraceEvent;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A replica's part of a traced request: the events of one traced internode request handled here, named with this
 * node's address and timed from the request's arrival. They travel back to the coordinator with the reply, which
 * writes them with its own, so a session's events are complete when its duration is written.
 */
final class ReplicaTrace implements Trace {
    private final InetSocketAddress self;
    private final long startNanos = System.nanoTime();
    private final List<TraceEvent> events = new ArrayList<>();

    ReplicaTrace(InetSocketAddress self) {
        this.self = self;
    }

    @Override
    public void event(String activity) {
        TraceEvent event = TraceEvent.now(activity, self.getAddress(), self.getPort(), startNanos);
        synchronized (events) {
            events.add(event);
        }
    }

    List<TraceEvent> events() {
        synchronized (events) {
            return List.copyOf(events);
        }
    }
}
