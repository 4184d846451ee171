package ballot.cluster;

import ballot.net.Codec;
import ballot.net.Codecs;
import ballot.net.Verb;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The gossip messages and their verbs (docs/membership.md §2). Verb ids 1 to 15 are reserved for membership.
 *
 * <pre>
 * digest   = hostId(16) · generation(4) · maxVersion(4)
 * state    = hostId(16) · generation(4) · heartbeat(4) · count(2) · (key(2) · version(4) · value(length(4) · UTF-8))*
 * SYN      = clusterName(length(2) · UTF-8) · count(4) · digest*
 * ACK      = flags(1: 0x01 shadow) · count(4) · digest* · count(4) · state*
 * ACK2     = count(4) · state*
 * ECHO     = (empty) → digest of the answering node
 * </pre>
 */
final class GossipMessages {
    private GossipMessages() {}

    /** A round's opening: what the sender knows, as digests. An empty list is a shadow round: "tell me everything, learn nothing of me". */
    record Syn(String clusterName, List<GossipDigest> digests) {}

    /** The answer to a SYN: states the sender lacks, and what the receiver wants. {@code shadow}: the receiver is itself in its shadow round and has nothing to tell. */
    record Ack(boolean shadow, List<GossipDigest> requests, List<EndpointState> states) {}

    /** The sender's answer to an ACK's requests; also how a node pushes its own state (shutdown, leave). */
    record Ack2(List<EndpointState> states) {}

    /** The largest count any list may announce; anything above is a malformed message. */
    private static final int COUNT_MAX = 1 << 20;

    static final Codec<GossipDigest> DIGEST = new Codec<>() {
        @Override
        public void encode(GossipDigest value, ByteBuf out) {
            Codecs.writeUuid(out, value.hostId());
            out.writeInt(value.generation());
            out.writeInt(value.maxVersion());
        }

        @Override
        public GossipDigest decode(ByteBuf in) {
            UUID hostId = Codecs.readUuid(in);
            Codecs.need(in, 8, "digest");
            return new GossipDigest(hostId, in.readInt(), in.readInt());
        }
    };

    static final Codec<EndpointState> STATE = new Codec<>() {
        @Override
        public void encode(EndpointState value, ByteBuf out) {
            Codecs.writeUuid(out, value.hostId());
            out.writeInt(value.generation());
            out.writeInt(value.heartbeat());
            out.writeShort(value.states().size());
            value.states().forEach((key, versioned) -> {
                out.writeShort(key);
                out.writeInt(versioned.version());
                Codecs.writeString(out, versioned.value());
            });
        }

        @Override
        public EndpointState decode(ByteBuf in) {
            UUID hostId = Codecs.readUuid(in);
            Codecs.need(in, 10, "endpoint state");
            int generation = in.readInt();
            int heartbeat = in.readInt();
            int count = in.readUnsignedShort();
            Map<Integer, VersionedValue> states = new TreeMap<>();
            for (int i = 0; i < count; i++) {
                Codecs.need(in, 6, "application state");
                int key = in.readUnsignedShort();
                int version = in.readInt();
                states.put(key, new VersionedValue(Codecs.readString(in), version));
            }
            return new EndpointState(hostId, generation, heartbeat, states);
        }
    };

    static final Codec<Syn> SYN_CODEC = new Codec<>() {
        @Override
        public void encode(Syn value, ByteBuf out) {
            Codecs.writeShortString(out, value.clusterName());
            writeList(out, value.digests(), DIGEST);
        }

        @Override
        public Syn decode(ByteBuf in) {
            return new Syn(Codecs.readShortString(in), readList(in, DIGEST));
        }
    };

    static final Codec<Ack> ACK_CODEC = new Codec<>() {
        @Override
        public void encode(Ack value, ByteBuf out) {
            out.writeByte(value.shadow() ? 1 : 0);
            writeList(out, value.requests(), DIGEST);
            writeList(out, value.states(), STATE);
        }

        @Override
        public Ack decode(ByteBuf in) {
            Codecs.need(in, 1, "flags");
            boolean shadow = (in.readByte() & 1) != 0;
            return new Ack(shadow, readList(in, DIGEST), readList(in, STATE));
        }
    };

    static final Codec<Ack2> ACK2_CODEC = new Codec<>() {
        @Override
        public void encode(Ack2 value, ByteBuf out) {
            writeList(out, value.states(), STATE);
        }

        @Override
        public Ack2 decode(ByteBuf in) {
            return new Ack2(readList(in, STATE));
        }
    };

    static final Verb<Syn, Ack> SYN = new Verb<>(1, "GOSSIP_SYN", SYN_CODEC, ACK_CODEC);
    static final Verb<Ack2, Void> ACK2 = new Verb<>(2, "GOSSIP_ACK2", ACK2_CODEC, Codecs.EMPTY);
    static final Verb<Void, GossipDigest> ECHO = new Verb<>(3, "GOSSIP_ECHO", Codecs.EMPTY, DIGEST);

    private static <T> void writeList(ByteBuf out, List<T> values, Codec<T> codec) {
        out.writeInt(values.size());
        for (T value : values) codec.encode(value, out);
    }

    private static <T> List<T> readList(ByteBuf in, Codec<T> codec) {
        Codecs.need(in, 4, "count");
        int count = in.readInt();
        if (count < 0 || count > COUNT_MAX) throw new IllegalArgumentException("list of " + count + " entries; limit is " + COUNT_MAX);
        List<T> values = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) values.add(codec.decode(in));
        return values;
    }
}
