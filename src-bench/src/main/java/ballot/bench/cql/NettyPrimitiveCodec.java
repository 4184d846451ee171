package ballot.bench.cql;

import com.datastax.oss.protocol.internal.PrimitiveCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * The DataStax native-protocol library's {@link PrimitiveCodec} over Netty {@link ByteBuf}s, so that its
 * {@code FrameCodec} reads and writes the same buffers as Ballot's codec in {@link EnvelopeDecoderBenchmark}. Reads
 * copy values out, as Ballot's {@code Primitives} do; writes allocate exactly what the library asks for.
 */
final class NettyPrimitiveCodec implements PrimitiveCodec<ByteBuf> {
    private final ByteBufAllocator alloc;

    NettyPrimitiveCodec(ByteBufAllocator alloc) {
        this.alloc = alloc;
    }

    @Override
    public ByteBuf allocate(int size) {
        return alloc.ioBuffer(size, size);
    }

    @Override
    public void release(ByteBuf buffer) {
        buffer.release();
    }

    @Override
    public int sizeOf(ByteBuf buffer) {
        return buffer.readableBytes();
    }

    @Override
    public ByteBuf concat(ByteBuf left, ByteBuf right) {
        CompositeByteBuf both = alloc.compositeBuffer(2);
        both.addComponents(true, left, right);
        return both;
    }

    @Override
    public void markReaderIndex(ByteBuf source) {
        source.markReaderIndex();
    }

    @Override
    public void resetReaderIndex(ByteBuf source) {
        source.resetReaderIndex();
    }

    @Override
    public byte readByte(ByteBuf source) {
        return source.readByte();
    }

    @Override
    public int readInt(ByteBuf source) {
        return source.readInt();
    }

    @Override
    public int readInt(ByteBuf source, int offset) {
        return source.getInt(source.readerIndex() + offset);
    }

    @Override
    public InetAddress readInetAddr(ByteBuf source) {
        byte[] address = new byte[source.readUnsignedByte()];
        source.readBytes(address);
        try {
            return InetAddress.getByAddress(address);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("address of " + address.length + " bytes", e);
        }
    }

    @Override
    public long readLong(ByteBuf source) {
        return source.readLong();
    }

    @Override
    public int readUnsignedShort(ByteBuf source) {
        return source.readUnsignedShort();
    }

    @Override
    public ByteBuffer readBytes(ByteBuf source) {
        int length = source.readInt();
        if (length < 0) return null;
        byte[] bytes = new byte[length];
        source.readBytes(bytes);
        return ByteBuffer.wrap(bytes);
    }

    @Override
    public byte[] readShortBytes(ByteBuf source) {
        byte[] bytes = new byte[source.readUnsignedShort()];
        source.readBytes(bytes);
        return bytes;
    }

    @Override
    public String readString(ByteBuf source) {
        return readUtf8(source, source.readUnsignedShort());
    }

    @Override
    public String readLongString(ByteBuf source) {
        return readUtf8(source, source.readInt());
    }

    private static String readUtf8(ByteBuf source, int length) {
        String s = source.toString(source.readerIndex(), length, StandardCharsets.UTF_8);
        source.skipBytes(length);
        return s;
    }

    @Override
    public ByteBuf readRetainedSlice(ByteBuf source, int length) {
        return source.readRetainedSlice(length);
    }

    @Override
    public void updateCrc(ByteBuf source, CRC32 crc) {
        crc.update(source.nioBuffer(source.readerIndex(), source.readableBytes()));
    }

    @Override
    public void writeByte(byte b, ByteBuf dest) {
        dest.writeByte(b);
    }

    @Override
    public void writeInt(int i, ByteBuf dest) {
        dest.writeInt(i);
    }

    @Override
    public void writeInetAddr(InetAddress address, ByteBuf dest) {
        byte[] bytes = address.getAddress();
        dest.writeByte(bytes.length);
        dest.writeBytes(bytes);
    }

    @Override
    public void writeLong(long l, ByteBuf dest) {
        dest.writeLong(l);
    }

    @Override
    public void writeUnsignedShort(int i, ByteBuf dest) {
        dest.writeShort(i);
    }

    @Override
    public void writeString(String s, ByteBuf dest) {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        dest.writeShort(utf8.length);
        dest.writeBytes(utf8);
    }

    @Override
    public void writeLongString(String s, ByteBuf dest) {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        dest.writeInt(utf8.length);
        dest.writeBytes(utf8);
    }

    @Override
    public void writeBytes(ByteBuffer bytes, ByteBuf dest) {
        if (bytes == null) {
            dest.writeInt(-1);
            return;
        }
        dest.writeInt(bytes.remaining());
        dest.writeBytes(bytes.duplicate());
    }

    @Override
    public void writeBytes(byte[] bytes, ByteBuf dest) {
        if (bytes == null) {
            dest.writeInt(-1);
            return;
        }
        dest.writeInt(bytes.length);
        dest.writeBytes(bytes);
    }

    @Override
    public void writeShortBytes(byte[] bytes, ByteBuf dest) {
        dest.writeShort(bytes.length);
        dest.writeBytes(bytes);
    }
}
