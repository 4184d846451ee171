package ballot.cql.protocol.message;

import static ballot.cql.protocol.Primitives.readString;

import ballot.cql.error.ProtocolException;
import ballot.cql.protocol.Primitives;
import ballot.cql.protocol.ProtocolVersion;
import io.netty.buffer.ByteBuf;
import java.util.List;

/**
 * EVENT bodies (native_protocol_v5.spec §4.2.6) and the schema-change body they share with RESULT. v3 has no
 * FUNCTION or AGGREGATE targets; as Cassandra does, such a change reaches a v3 client as an update of its keyspace.
 */
final class EventCodec {
    private EventCodec() {}

    static void encode(Event event, ProtocolVersion version, ByteBuf out) {
        Primitives.writeString(event.type().name(), out);
        if (event instanceof TopologyChange t) {
            Primitives.writeString(t.change().name(), out);
            Primitives.writeInet(t.address(), out);
        } else if (event instanceof StatusChange s) {
            Primitives.writeString(s.status().name(), out);
            Primitives.writeInet(s.address(), out);
        } else if (event instanceof SchemaChangeEvent s) {
            encodeSchemaChange(s.change(), version, out);
        }
    }

    static void encodeSchemaChange(SchemaChange c, ProtocolVersion version, ByteBuf out) {
        boolean routine = c.target() == SchemaChange.Target.FUNCTION || c.target() == SchemaChange.Target.AGGREGATE;
        if (routine && !version.isAtLeast(ProtocolVersion.V4)) {
            encodeSchemaChange(SchemaChange.keyspace(SchemaChange.Change.UPDATED, c.keyspace()), version, out);
            return;
        }
        Primitives.writeString(c.change().name(), out);
        Primitives.writeString(c.target().name(), out);
        Primitives.writeString(c.keyspace(), out);
        if (c.target() != SchemaChange.Target.KEYSPACE) Primitives.writeString(c.name(), out);
        if (routine) Primitives.writeStringList(c.argumentTypes(), out);
    }

    static Event decode(ByteBuf in, ProtocolVersion version) {
        EventType type = valueOf(EventType.class, readString(in, "event type"));
        switch (type) {
            case TOPOLOGY_CHANGE:
                return new TopologyChange(valueOf(TopologyChange.Change.class, readString(in, "topology change")),
                        Primitives.readInet(in, "node address"));
            case STATUS_CHANGE:
                return new StatusChange(valueOf(StatusChange.Status.class, readString(in, "status change")),
                        Primitives.readInet(in, "node address"));
            default:
                return new SchemaChangeEvent(decodeSchemaChange(in, version));
        }
    }

    static SchemaChange decodeSchemaChange(ByteBuf in, ProtocolVersion version) {
        SchemaChange.Change change = valueOf(SchemaChange.Change.class, readString(in, "schema change type"));
        SchemaChange.Target target = valueOf(SchemaChange.Target.class, readString(in, "schema change target"));
        String keyspace = readString(in, "keyspace");
        String name = target == SchemaChange.Target.KEYSPACE ? "" : readString(in, "name");
        boolean routine = target == SchemaChange.Target.FUNCTION || target == SchemaChange.Target.AGGREGATE;
        List<String> args = routine ? Primitives.readStringList(in, "argument types") : List.of();
        return new SchemaChange(change, target, keyspace, name, args);
    }

    private static <E extends Enum<E>> E valueOf(Class<E> type, String name) {
        try {
            return Enum.valueOf(type, name);
        } catch (IllegalArgumentException e) {
            throw new ProtocolException("Invalid " + type.getSimpleName() + " '" + name + "'");
        }
    }
}
