package ballot.cql.protocol.message;

import java.util.Set;

/** Subscribes the connection to server-pushed events of these types; answered with {@link Ready}. */
public record Register(Set<EventType> eventTypes) implements Request {
    public Register {
        eventTypes = Set.copyOf(eventTypes);
    }
}
