package ballot.cql.transport;

import ballot.cql.protocol.message.Event;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the rest of the node publishes topology, status and schema events. Each event goes to every connection that
 * REGISTERed for its type, encoded in that connection's protocol version, on stream -1. Thread-safe.
 */
public final class EventBroadcaster {
    private final Set<Connection> subscribers = ConcurrentHashMap.newKeySet();

    public void publish(Event event) {
        for (Connection connection : subscribers) connection.sendIfRegistered(event);
    }

    /** Connections currently registered for at least one event type. */
    public int subscriberCount() {
        return subscribers.size();
    }

    void subscribe(Connection connection) {
        subscribers.add(connection);
    }

    void unsubscribe(Connection connection) {
        subscribers.remove(connection);
    }
}
