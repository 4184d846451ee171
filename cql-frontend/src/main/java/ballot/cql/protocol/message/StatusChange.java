package ballot.cql.protocol.message;

import java.net.InetSocketAddress;

/** A node went up or down; {@code address} is its native-protocol address. */
public record StatusChange(Status status, InetSocketAddress address) implements Event {
    public enum Status { UP, DOWN }

    @Override
    public EventType type() {
        return EventType.STATUS_CHANGE;
    }
}
