package ballot.cql.trace;

import ballot.cql.data.TimeUuids;
import java.net.InetAddress;
import java.util.UUID;

/**
 * One row of system_traces.events: what happened ({@code activity}), on which node ({@code source}, with its internode
 * port) and thread, and when: a timeuuid, and microseconds since that node began working on the request.
 */
public record TraceEvent(UUID eventId, String activity, InetAddress source, int sourcePort, int sourceElapsedMicros,
        String thread) {
    /** {@code activity} happening now on this thread of {@code source}, which began on the request at {@code startNanos}. */
    public static TraceEvent now(String activity, InetAddress source, int sourcePort, long startNanos) {
        int elapsed = (int) Math.min(Integer.MAX_VALUE, (System.nanoTime() - startNanos) / 1000);
        return new TraceEvent(TimeUuids.next(System.currentTimeMillis()), activity, source, sourcePort, elapsed,
                Thread.currentThread().getName());
    }
}
