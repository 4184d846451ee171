package ballot.cql.protocol;

import ballot.cql.ConsistencyLevel;
import ballot.cql.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The notations of native_protocol_v5.spec §3 ([string], [bytes], [inet], ...) read from and written to a
 * {@link ByteBuf}. Reads check that the bytes are there and throw {@link ProtocolException} naming what was being
 * read, so that a truncated or lying body becomes a PROTOCOL_ERROR rather than an IndexOutOfBoundsException.
 * Byte values read are copied: they stay valid after the envelope body is released.
 */
public final class Primitives {
    private Primitives() {}

    public static int readUnsignedShort(ByteBuf in, String what) {
        require(in, 2, what);
        return in.readUnsignedShort();
    }

    public static int readInt(ByteBuf in, String what) {
        require(in, 4, what);
        return in.readInt();
    }

    public static long readLong(ByteBuf in, String what) {
        require(in, 8, what);
        return in.readLong();
    }

    public static int readUnsignedByte(ByteBuf in, String what) {
        require(in, 1, what);
        return in.readUnsignedByte();
    }

    /** [string]: a [short] length and that many UTF-8 bytes. */
    public static String readString(ByteBuf in, String what) {
        int length = readUnsignedShort(in, what);
        return readUtf8(in, length, what);
    }

    public static void writeString(String s, ByteBuf out) {
        int lengthIndex = out.writerIndex();
        out.writeShort(0);
        int length = ByteBufUtil.writeUtf8(out, s);
        if (length > 0xFFFF)
            throw new IllegalArgumentException("[string] of " + length + " UTF-8 bytes exceeds 65535: " + abbreviate(s));
        out.setShort(lengthIndex, length);
    }

    /** [long string]: an [int] length and that many UTF-8 bytes. */
    public static String readLongString(ByteBuf in, String what) {
        int length = readInt(in, what);
        if (length < 0) throw new ProtocolException("Negative length " + length + " for " + what);
        return readUtf8(in, length, what);
    }

    public static void writeLongString(String s, ByteBuf out) {
        int lengthIndex = out.writerIndex();
        out.writeInt(0);
        int length = ByteBufUtil.writeUtf8(out, s);
        out.setInt(lengthIndex, length);
    }

    public static List<String> readStringList(ByteBuf in, String what) {
        int n = readUnsignedShort(in, what);
        List<String> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) list.add(readString(in, what));
        return list;
    }

    public static void writeStringList(List<String> list, ByteBuf out) {
        out.writeShort(checkShortCount(list.size(), "[string list]"));
        for (String s : list) writeString(s, out);
    }

    /** [string map], keeping the wire order. */
    public static Map<String, String> readStringMap(ByteBuf in, String what) {
        int n = readUnsignedShort(in, what);
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) map.put(readString(in, what), readString(in, what));
        return map;
    }

    public static void writeStringMap(Map<String, String> map, ByteBuf out) {
        out.writeShort(checkShortCount(map.size(), "[string map]"));
        map.forEach((k, v) -> {
            writeString(k, out);
            writeString(v, out);
        });
    }

    public static Map<String, List<String>> readStringMultimap(ByteBuf in, String what) {
        int n = readUnsignedShort(in, what);
        Map<String, List<String>> map = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) map.put(readString(in, what), readStringList(in, what));
        return map;
    }

    public static void writeStringMultimap(Map<String, List<String>> map, ByteBuf out) {
        out.writeShort(checkShortCount(map.size(), "[string multimap]"));
        map.forEach((k, v) -> {
            writeString(k, out);
            writeStringList(v, out);
        });
    }

    /** [bytes]: an [int] length, negative for null. */
    public static ByteBuffer readBytes(ByteBuf in, String what) {
        int length = readInt(in, what);
        if (length < 0) return null;
        return copy(in, length, what);
    }

    public static void writeBytes(ByteBuffer bytes, ByteBuf out) {
        if (bytes == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(bytes.remaining());
        out.writeBytes(bytes.duplicate());
    }

    /** [short bytes]: a [short] length and that many bytes. */
    public static ByteBuffer readShortBytes(ByteBuf in, String what) {
        int length = readUnsignedShort(in, what);
        return copy(in, length, what);
    }

    public static void writeShortBytes(ByteBuffer bytes, ByteBuf out) {
        out.writeShort(checkShortCount(bytes.remaining(), "[short bytes]"));
        out.writeBytes(bytes.duplicate());
    }

    /** Skips a [bytes map]: a request's custom payload, read apart by {@link ballot.cql.protocol.message.RequestCodec#customPayload}. */
    public static void skipBytesMap(ByteBuf in, String what) {
        int n = readUnsignedShort(in, what);
        for (int i = 0; i < n; i++) {
            skip(in, readUnsignedShort(in, what), what);
            int length = readInt(in, what);
            if (length > 0) skip(in, length, what);
        }
    }

    /** Reads a [bytes map] (a request's custom payload); a null value stays null. */
    public static Map<String, ByteBuffer> readBytesMap(ByteBuf in, String what) {
        int n = readUnsignedShort(in, what);
        Map<String, ByteBuffer> map = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) map.put(readString(in, what), readBytes(in, what));
        return map;
    }

    public static void writeBytesMap(Map<String, ByteBuffer> map, ByteBuf out) {
        out.writeShort(checkShortCount(map.size(), "[bytes map]"));
        map.forEach((k, v) -> {
            writeString(k, out);
            writeBytes(v, out);
        });
    }

    public static ConsistencyLevel readConsistency(ByteBuf in, String what) {
        return ConsistencyLevel.fromCode(readUnsignedShort(in, what));
    }

    public static void writeConsistency(ConsistencyLevel cl, ByteBuf out) {
        out.writeShort(cl.code());
    }

    public static UUID readUuid(ByteBuf in, String what) {
        require(in, 16, what);
        return new UUID(in.readLong(), in.readLong());
    }

    public static void writeUuid(UUID uuid, ByteBuf out) {
        out.writeLong(uuid.getMostSignificantBits());
        out.writeLong(uuid.getLeastSignificantBits());
    }

    /** [inetaddr]: a [byte] size (4 or 16) and the address bytes. */
    public static InetAddress readInetAddr(ByteBuf in, String what) {
        int size = readUnsignedByte(in, what);
        if (size != 4 && size != 16) throw new ProtocolException("Invalid address size " + size + " for " + what);
        require(in, size, what);
        byte[] address = new byte[size];
        in.readBytes(address);
        try {
            return InetAddress.getByAddress(address);
        } catch (UnknownHostException e) {
            throw new ProtocolException("Invalid address for " + what, e);
        }
    }

    public static void writeInetAddr(InetAddress address, ByteBuf out) {
        byte[] bytes = address.getAddress();
        out.writeByte(bytes.length);
        out.writeBytes(bytes);
    }

    /** [inet]: an [inetaddr] and an [int] port. */
    public static InetSocketAddress readInet(ByteBuf in, String what) {
        InetAddress address = readInetAddr(in, what);
        return new InetSocketAddress(address, readInt(in, what));
    }

    public static void writeInet(InetSocketAddress address, ByteBuf out) {
        writeInetAddr(address.getAddress(), out);
        out.writeInt(address.getPort());
    }

    public static void require(ByteBuf in, int bytes, String what) {
        if (in.readableBytes() < bytes)
            throw new ProtocolException("Truncated message: " + what + " needs " + bytes + " bytes but only "
                    + in.readableBytes() + " remain");
    }

    private static void skip(ByteBuf in, int bytes, String what) {
        require(in, bytes, what);
        in.skipBytes(bytes);
    }

    private static ByteBuffer copy(ByteBuf in, int length, String what) {
        require(in, length, what);
        byte[] bytes = new byte[length];
        in.readBytes(bytes);
        return ByteBuffer.wrap(bytes);
    }

    private static String readUtf8(ByteBuf in, int length, String what) {
        require(in, length, what);
        String s = in.toString(in.readerIndex(), length, StandardCharsets.UTF_8);
        in.skipBytes(length);
        return s;
    }

    private static int checkShortCount(int count, String what) {
        if (count > 0xFFFF) throw new IllegalArgumentException(what + " has " + count + " entries; the limit is 65535");
        return count;
    }

    private static String abbreviate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "...";
    }
}
