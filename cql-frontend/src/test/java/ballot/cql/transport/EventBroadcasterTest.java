package ballot.cql.transport;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.protocol.Envelope;
import ballot.cql.protocol.ProtocolVersion;
import ballot.cql.protocol.message.EventType;
import ballot.cql.protocol.message.Ready;
import ballot.cql.protocol.message.Register;
import ballot.cql.protocol.message.ResponseCodec;
import ballot.cql.protocol.message.SchemaChange;
import ballot.cql.protocol.message.SchemaChangeEvent;
import ballot.cql.protocol.message.StatusChange;
import java.net.InetSocketAddress;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EventBroadcasterTest {
    private final EventBroadcaster events = new EventBroadcaster();
    private final ScriptedHandler handler = new ScriptedHandler();

    private EmbeddedClient registered(ProtocolVersion version, Set<EventType> types) {
        EmbeddedClient client = new EmbeddedClient(CqlServerOptions.defaults(), handler, events).version(version).start(null);
        if (!types.isEmpty()) {
            client.send(new Register(types), 1);
            assertThat(client.next()).isEqualTo(new Ready());
        }
        return client;
    }

    @Test
    void sendsEachEventOnlyToConnectionsRegisteredForItsTypeOnStreamMinusOne() {
        EmbeddedClient schema = registered(ProtocolVersion.V5, Set.of(EventType.SCHEMA_CHANGE));
        EmbeddedClient status = registered(ProtocolVersion.V4, Set.of(EventType.STATUS_CHANGE, EventType.TOPOLOGY_CHANGE));
        EmbeddedClient none = registered(ProtocolVersion.V5, Set.of());
        SchemaChangeEvent created = new SchemaChangeEvent(SchemaChange.table(SchemaChange.Change.CREATED, "ks", "t"));
        StatusChange down = new StatusChange(StatusChange.Status.DOWN, new InetSocketAddress("127.0.0.2", 9042));

        events.publish(created);
        events.publish(down);

        Envelope toSchema = schema.nextEnvelope();
        assertThat(toSchema.streamId()).isEqualTo(-1);
        assertThat(toSchema.version()).isEqualTo(ProtocolVersion.V5);
        assertThat(ResponseCodec.decode(toSchema, in -> null)).isEqualTo(created);
        assertThat(schema.nextEnvelope()).isNull();

        Envelope toStatus = status.nextEnvelope();
        assertThat(toStatus.streamId()).isEqualTo(-1);
        assertThat(toStatus.version()).isEqualTo(ProtocolVersion.V4);
        assertThat(ResponseCodec.decode(toStatus, in -> null)).isEqualTo(down);
        assertThat(status.nextEnvelope()).isNull();

        assertThat(none.nextEnvelope()).isNull();
        assertThat(events.subscriberCount()).isEqualTo(2);
    }

    @Test
    void forgetsAConnectionOnceItCloses() {
        EmbeddedClient client = registered(ProtocolVersion.V5, Set.of(EventType.SCHEMA_CHANGE));

        client.channel.close();

        assertThat(events.subscriberCount()).isZero();
        events.publish(new SchemaChangeEvent(SchemaChange.keyspace(SchemaChange.Change.DROPPED, "ks")));
        assertThat(client.nextEnvelope()).isNull();
    }

    @Test
    void addsToTheTypesOfAnEarlierRegister() {
        EmbeddedClient client = registered(ProtocolVersion.V5, Set.of(EventType.SCHEMA_CHANGE));
        client.send(new Register(Set.of(EventType.STATUS_CHANGE)), 2);
        client.next();

        events.publish(new SchemaChangeEvent(SchemaChange.keyspace(SchemaChange.Change.DROPPED, "ks")));
        events.publish(new StatusChange(StatusChange.Status.UP, new InetSocketAddress("127.0.0.3", 9042)));

        assertThat(client.nextEnvelope()).isNotNull();
        assertThat(client.nextEnvelope()).isNotNull();
    }
}
