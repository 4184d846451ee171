package ballot.tracing;

import ballot.cql.trace.TraceEvent;
import ballot.net.Codec;
import ballot.net.Codecs;
import ballot.net.Verb;
import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The traced twin of each verb: the same request with the tracing session id in front, and the same reply after the
 * events the replica recorded. A twin's id is the verb's with bit 15 set, so verb ids stay below 0x8000.
 */
final class TracedVerbs {
    static final int TRACED_BIT = 0x8000;

    /** A request of a traced session. */
    record Traced<Q>(UUID sessionId, Q payload) {}

    /** A reply with the replica's events. */
    record TracedReply<R>(R value, List<TraceEvent> events) {}

    private static final ConcurrentHashMap<Integer, Verb<?, ?>> TWINS = new ConcurrentHashMap<>();

    private TracedVerbs() {}

    @SuppressWarnings("unchecked")
    static <Q, R> Verb<Traced<Q>, TracedReply<R>> twin(Verb<Q, R> verb) {
        if ((verb.id() & TRACED_BIT) != 0) throw new IllegalArgumentException("verb " + verb + " has the traced bit set");
        return (Verb<Traced<Q>, TracedReply<R>>) TWINS.computeIfAbsent(verb.id(), id -> new Verb<>(id | TRACED_BIT,
                "TRACED_" + verb.name(), request(verb.request()), reply(verb.response())));
    }

    private static <Q> Codec<Traced<Q>> request(Codec<Q> payload) {
        return new Codec<>() {
            @Override
            public void encode(Traced<Q> value, ByteBuf out) {
                Codecs.writeUuid(out, value.sessionId());
                payload.encode(value.payload(), out);
            }

            @Override
            public Traced<Q> decode(ByteBuf in) {
                UUID session = Codecs.readUuid(in);
                return new Traced<>(session, payload.decode(in));
            }
        };
    }

    private static <R> Codec<TracedReply<R>> reply(Codec<R> value) {
        return new Codec<>() {
            // The events go first: a reply's own codec may take the rest of the frame (Codecs.BYTES).
            @Override
            public void encode(TracedReply<R> reply, ByteBuf out) {
                out.writeInt(reply.events().size());
                for (TraceEvent e : reply.events()) {
                    Codecs.writeUuid(out, e.eventId());
                    Codecs.writeString(out, e.activity());
                    Codecs.writeAddress(out, new InetSocketAddress(e.source(), e.sourcePort()));
                    out.writeInt(e.sourceElapsedMicros());
                    Codecs.writeShortString(out, e.thread());
                }
                value.encode(reply.value(), out);
            }

            @Override
            public TracedReply<R> decode(ByteBuf in) {
                Codecs.need(in, 4, "trace event count");
                int count = in.readInt();
                if (count < 0 || count > in.readableBytes()) throw new IllegalArgumentException("trace event count " + count);
                List<TraceEvent> events = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    UUID id = Codecs.readUuid(in);
                    String activity = Codecs.readString(in);
                    InetSocketAddress source = Codecs.readAddress(in);
                    Codecs.need(in, 4, "trace event elapsed");
                    int elapsed = in.readInt();
                    events.add(new TraceEvent(id, activity, source.getAddress(), source.getPort(), elapsed, Codecs.readShortString(in)));
                }
                return new TracedReply<>(value.decode(in), events);
            }
        };
    }
}
