package ballot.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.net.InetSocketAddress;
import java.util.UUID;

/**
 * The internode wire format (docs/membership.md §1): every frame is {@code length(4) · type(1) · body}. The handshake
 * frames start with a magic and the sender's version range at fixed offsets that never change, so any two versions
 * can at least tell each other why they cannot talk.
 */
final class WireFormat {
    static final int MAGIC = 0x42414C4C; // "BALL"
    /**
     * Messaging versions this node speaks. A new version is added at the top; old ones are dropped from the bottom.
     * 2 (2026-12-03): READ and SCAN replies carry transaction stamps, INDEX_SCAN replies the partitions intents hold,
     * traced replies put the events first, and TXN_STEP's Resolve lost its early flag (that morning); 1 is not read any
     * more, so nodes of older builds are refused at the handshake instead of misreading each other.
     */
    static final int VERSION_MIN = 2;
    static final int VERSION_MAX = 2;
    /** Before the handshake completes nothing legitimate is longer than this. */
    static final int HANDSHAKE_BYTES_MAX = 4096;

    static final byte HELLO = 0x01;
    static final byte WELCOME = 0x02;
    static final byte REFUSE = 0x03;
    static final byte REQUEST = 0x10;
    static final byte RESPONSE = 0x11;
    static final byte FAILURE = 0x12;

    /** Why a handshake was refused; the code travels in REFUSE. */
    enum RefuseReason {
        PROTOCOL(1), VERSION(2), CLUSTER_NAME(3), HOST_ID(4), ADDRESS(5), OTHER(6);

        final int code;

        RefuseReason(int code) {
            this.code = code;
        }

        static RefuseReason of(int code) {
            for (RefuseReason reason : values()) if (reason.code == code) return reason;
            return OTHER;
        }
    }

    /** The FAILURE codes: only OVERLOADED is distinguished; any other failure of the remote handler is REMOTE_ERROR. */
    static final int FAILURE_REMOTE_ERROR = 1;
    static final int FAILURE_OVERLOADED = 2;

    record Hello(int versionMin, int versionMax, String clusterName, UUID hostId, InetSocketAddress address) {}

    record Welcome(int version, String clusterName, UUID hostId, InetSocketAddress address) {}

    record Refuse(int versionMin, int versionMax, RefuseReason reason, String message) {}

    private WireFormat() {}

    /** Starts a frame of {@code type}: the length is filled in by {@link #finish}. */
    static ByteBuf begin(ByteBufAllocator allocator, byte type) {
        ByteBuf out = allocator.buffer();
        out.writeInt(0);
        out.writeByte(type);
        return out;
    }

    static ByteBuf finish(ByteBuf frame) {
        frame.setInt(frame.readerIndex(), frame.readableBytes() - 4);
        return frame;
    }

    static ByteBuf hello(ByteBufAllocator allocator, Hello hello) {
        ByteBuf out = begin(allocator, HELLO);
        out.writeInt(MAGIC);
        out.writeShort(hello.versionMin());
        out.writeShort(hello.versionMax());
        Codecs.writeShortString(out, hello.clusterName());
        Codecs.writeUuid(out, hello.hostId());
        Codecs.writeAddress(out, hello.address());
        return finish(out);
    }

    static ByteBuf welcome(ByteBufAllocator allocator, Welcome welcome) {
        ByteBuf out = begin(allocator, WELCOME);
        out.writeInt(MAGIC);
        out.writeShort(welcome.version());
        Codecs.writeShortString(out, welcome.clusterName());
        Codecs.writeUuid(out, welcome.hostId());
        Codecs.writeAddress(out, welcome.address());
        return finish(out);
    }

    static ByteBuf refuse(ByteBufAllocator allocator, Refuse refuse) {
        ByteBuf out = begin(allocator, REFUSE);
        out.writeInt(MAGIC);
        out.writeShort(refuse.versionMin());
        out.writeShort(refuse.versionMax());
        out.writeByte(refuse.reason().code);
        String message = refuse.message().length() > 1000 ? refuse.message().substring(0, 1000) : refuse.message();
        Codecs.writeShortString(out, message);
        return finish(out);
    }

    /** Reads a handshake frame body (after length and type); throws {@link IllegalArgumentException} when malformed. */
    static Hello readHello(ByteBuf in) {
        readMagic(in);
        Codecs.need(in, 4, "version range");
        int min = in.readUnsignedShort();
        int max = in.readUnsignedShort();
        return new Hello(min, max, Codecs.readShortString(in), Codecs.readUuid(in), Codecs.readAddress(in));
    }

    static Welcome readWelcome(ByteBuf in) {
        readMagic(in);
        Codecs.need(in, 2, "version");
        int version = in.readUnsignedShort();
        return new Welcome(version, Codecs.readShortString(in), Codecs.readUuid(in), Codecs.readAddress(in));
    }

    static Refuse readRefuse(ByteBuf in) {
        readMagic(in);
        Codecs.need(in, 5, "refusal");
        int min = in.readUnsignedShort();
        int max = in.readUnsignedShort();
        RefuseReason reason = RefuseReason.of(in.readUnsignedByte());
        return new Refuse(min, max, reason, Codecs.readShortString(in));
    }

    private static void readMagic(ByteBuf in) {
        Codecs.need(in, 4, "magic");
        int magic = in.readInt();
        if (magic != MAGIC) throw new IllegalArgumentException(String.format("magic 0x%08X is not Ballot's 0x%08X", magic, MAGIC));
    }

    /** The highest version in both ranges, or -1. */
    static int commonVersion(int peerMin, int peerMax) {
        int version = Math.min(peerMax, VERSION_MAX);
        return version >= Math.max(peerMin, VERSION_MIN) ? version : -1;
    }

    static String versions(int min, int max) {
        return min == max ? String.valueOf(min) : min + ".." + max;
    }
}
