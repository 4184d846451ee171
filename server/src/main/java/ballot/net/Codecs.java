package ballot.net;

import io.netty.buffer.ByteBuf;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** Building blocks for internode payload codecs. Every read checks its length first and throws on malformed bytes. */
public final class Codecs {
    /** A payload with no bytes, for requests or replies that carry nothing. */
    public static final Codec<Void> EMPTY = new Codec<>() {
        @Override
        public void encode(Void value, ByteBuf out) {}

        @Override
        public Void decode(ByteBuf in) {
            return null;
        }
    };

    /** A payload that is its own bytes, for messages encoded by their module. */
    public static final Codec<byte[]> BYTES = new Codec<>() {
        @Override
        public void encode(byte[] value, ByteBuf out) {
            out.writeBytes(value);
        }

        @Override
        public byte[] decode(ByteBuf in) {
            byte[] bytes = new byte[in.readableBytes()];
            in.readBytes(bytes);
            return bytes;
        }
    };

    private Codecs() {}

    /** {@code length(2) · UTF-8}. */
    public static void writeShortString(ByteBuf out, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 0xFFFF) throw new IllegalArgumentException("string of " + bytes.length + " bytes; limit is 65535");
        out.writeShort(bytes.length);
        out.writeBytes(bytes);
    }

    public static String readShortString(ByteBuf in) {
        need(in, 2, "string length");
        int length = in.readUnsignedShort();
        need(in, length, "string");
        return in.readCharSequence(length, StandardCharsets.UTF_8).toString();
    }

    /** {@code length(4) · UTF-8}. */
    public static void writeString(ByteBuf out, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.writeBytes(bytes);
    }

    public static String readString(ByteBuf in) {
        need(in, 4, "string length");
        int length = in.readInt();
        if (length < 0) throw new IllegalArgumentException("negative string length " + length);
        need(in, length, "string");
        return in.readCharSequence(length, StandardCharsets.UTF_8).toString();
    }

    public static void writeUuid(ByteBuf out, UUID value) {
        out.writeLong(value.getMostSignificantBits());
        out.writeLong(value.getLeastSignificantBits());
    }

    public static UUID readUuid(ByteBuf in) {
        need(in, 16, "uuid");
        return new UUID(in.readLong(), in.readLong());
    }

    /** {@code ipLength(1) · ip(4|16) · port(2)}. */
    public static void writeAddress(ByteBuf out, InetSocketAddress address) {
        if (address.isUnresolved()) throw new IllegalArgumentException("unresolved address " + address);
        byte[] ip = address.getAddress().getAddress();
        out.writeByte(ip.length);
        out.writeBytes(ip);
        out.writeShort(address.getPort());
    }

    public static InetSocketAddress readAddress(ByteBuf in) {
        need(in, 1, "address length");
        int length = in.readUnsignedByte();
        if (length != 4 && length != 16) throw new IllegalArgumentException("address of " + length + " bytes; must be 4 or 16");
        need(in, length + 2, "address");
        byte[] ip = new byte[length];
        in.readBytes(ip);
        try {
            return new InetSocketAddress(InetAddress.getByAddress(ip), in.readUnsignedShort());
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("bad address: " + e.getMessage(), e);
        }
    }

    /** Throws unless {@code in} has {@code bytes} more readable bytes. */
    public static void need(ByteBuf in, int bytes, String what) {
        if (in.readableBytes() < bytes) {
            throw new IllegalArgumentException(what + " needs " + bytes + " bytes; only " + in.readableBytes() + " remain");
        }
    }
}
