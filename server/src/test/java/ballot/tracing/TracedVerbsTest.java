package ballot.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.trace.TraceEvent;
import ballot.net.Codecs;
import ballot.net.Verb;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.net.InetAddress;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TracedVerbsTest {
    private static final Verb<Void, Void> PING = new Verb<>(42, "PING", Codecs.EMPTY, Codecs.EMPTY);

    @Test
    void twinHasTheTracedBitAndItsOwnName() {
        Verb<TracedVerbs.Traced<Void>, TracedVerbs.TracedReply<Void>> twin = TracedVerbs.twin(PING);
        assertThat(twin.id()).isEqualTo(42 | 0x8000);
        assertThat(twin.name()).isEqualTo("TRACED_PING");
        assertThat(TracedVerbs.twin(PING)).isSameAs(twin);
        assertThatThrownBy(() -> TracedVerbs.twin(twin)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void requestAndReplyRoundTripWithTheReplicasEvents() throws Exception {
        var twin = TracedVerbs.twin(PING);
        UUID session = UUID.randomUUID();
        ByteBuf buf = Unpooled.buffer();
        twin.request().encode(new TracedVerbs.Traced<>(session, null), buf);
        assertThat(twin.request().decode(buf).sessionId()).isEqualTo(session);

        List<TraceEvent> events = List.of(new TraceEvent(UUID.randomUUID(), "Read 1 live rows and 0 tombstone cells",
                InetAddress.getByName("127.0.0.2"), 7000, 812, "messaging-handler-1"));
        buf.clear();
        twin.response().encode(new TracedVerbs.TracedReply<>(null, events), buf);
        assertThat(twin.response().decode(buf).events()).isEqualTo(events);
        assertThat(buf.readableBytes()).isZero();
    }

    /** A payload that takes the rest of its frame (a transaction step's replies) still comes back with its events. */
    @Test
    void aReplyThatReadsToTheEndOfTheFrameKeepsItsEvents() throws Exception {
        var twin = TracedVerbs.twin(new Verb<>(43, "STEPS", Codecs.BYTES, Codecs.BYTES));
        List<TraceEvent> events = List.of(new TraceEvent(UUID.randomUUID(), "Starting Paxos",
                InetAddress.getByName("127.0.0.2"), 7000, 90, "paxos-lane-1"));
        ByteBuf buf = Unpooled.buffer();
        twin.response().encode(new TracedVerbs.TracedReply<>(new byte[] {1, 2, 3}, events), buf);
        TracedVerbs.TracedReply<byte[]> decoded = twin.response().decode(buf);
        assertThat(decoded.value()).containsExactly(1, 2, 3);
        assertThat(decoded.events()).isEqualTo(events);
    }

    @Test
    void refusesAnEventCountLargerThanTheFrame() {
        ByteBuf buf = Unpooled.buffer().writeInt(1_000);
        assertThatThrownBy(() -> TracedVerbs.twin(PING).response().decode(buf)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("trace event count 1000");
    }
}
