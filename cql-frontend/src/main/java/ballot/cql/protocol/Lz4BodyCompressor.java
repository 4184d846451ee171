package ballot.cql.protocol;

import ballot.cql.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * LZ4 compression of envelope bodies (v4 and earlier): a 4-byte big-endian uncompressed length, then one LZ4 block.
 */
public final class Lz4BodyCompressor implements BodyCompressor {
    public static final Lz4BodyCompressor INSTANCE = new Lz4BodyCompressor();
    private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
    private static final LZ4SafeDecompressor DECOMPRESSOR = LZ4Factory.fastestInstance().safeDecompressor();

    private Lz4BodyCompressor() {}

    @Override
    public ByteBuf compress(ByteBuf body, ByteBufAllocator alloc) {
        int length = body.readableBytes();
        int maxCompressed = COMPRESSOR.maxCompressedLength(length);
        ByteBuf out = alloc.buffer(4 + maxCompressed);
        out.writeInt(length);
        int written = COMPRESSOR.compress(body.nioBuffer(body.readerIndex(), length), 0, length,
                out.nioBuffer(4, maxCompressed), 0, maxCompressed);
        out.writerIndex(4 + written);
        return out;
    }

    @Override
    public ByteBuf decompress(ByteBuf body, int frameBytesMax, ByteBufAllocator alloc) {
        Primitives.require(body, 4, "uncompressed length of an LZ4-compressed body");
        int start = body.readerIndex();
        int length = body.getInt(start);
        if (length < 0 || length > frameBytesMax)
            throw new ProtocolException("Compressed body declares " + length + " uncompressed bytes; the limit is "
                    + frameBytesMax + " (frameBytesMax)");
        ByteBuf out = alloc.buffer(length);
        try {
            int written = DECOMPRESSOR.decompress(body.nioBuffer(start + 4, body.readableBytes() - 4), 0,
                    body.readableBytes() - 4, out.nioBuffer(0, length), 0, length);
            if (written != length)
                throw new ProtocolException("LZ4 body decompressed to " + written + " bytes; it declares " + length);
            out.writerIndex(length);
            return out;
        } catch (LZ4Exception e) {
            out.release();
            throw new ProtocolException("Envelope body is not valid LZ4: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }
}
