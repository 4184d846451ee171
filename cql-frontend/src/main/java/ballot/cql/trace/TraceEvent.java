package ballot.cql.trace;

import java.net.InetAddress;
import java.util.UUID;

/**
 * One row of system_traces.events: what happened ({@code activity}), on which node ({@code source}, with its internode
 * port) and thread, and when: a timeuuid, and microseconds since that node began working on the request.
 */
public record TraceEvent(UUID eventId, String activity, InetAddress source, int sourcePort, int sourceElapsedMicros,
        String thread) {}
