package ballot.cql.protocol.message;

import java.net.InetSocketAddress;

/** A node joined, left or moved; {@code address} is its native-protocol address. */
public record TopologyChange(Change change, InetSocketAddress address) implements Event {
    public enum Change { NEW_NODE, REMOVED_NODE, MOVED_NODE }

    @Override
    public EventType type() {
        return EventType.TOPOLOGY_CHANGE;
    }
}
