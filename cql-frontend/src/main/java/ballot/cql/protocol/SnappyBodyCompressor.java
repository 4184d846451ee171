package ballot.cql.protocol;

import ballot.cql.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xerial.snappy.Snappy;

/**
 * Snappy compression of envelope bodies (v4 and earlier): one raw Snappy block, which carries its own uncompressed
 * length. Drivers offer it (gocql's built-in compressor, the Java driver's {@code snappy} setting), and Cassandra 5.0
 * takes it where its native library loads; so does this node ({@link #INSTANCE} is null otherwise, and SUPPORTED
 * leaves it out).
 */
final class SnappyBodyCompressor implements BodyCompressor {
    private static final Logger log = LoggerFactory.getLogger(SnappyBodyCompressor.class);

    static final SnappyBodyCompressor INSTANCE = load();

    private SnappyBodyCompressor() {}

    private static SnappyBodyCompressor load() {
        try {
            byte[] probe = Snappy.compress(new byte[] {1, 2, 3});
            return Snappy.uncompress(probe).length == 3 ? new SnappyBodyCompressor() : null;
        } catch (IOException | RuntimeException | Error e) {
            // snappy-java throws SnappyError (an Error) when it has no native library for this platform or cannot
            // write it to java.io.tmpdir: the node then offers LZ4 alone, and this class still loads.
            log.warn("Snappy is not available on this node ({}); clients may use LZ4 or no compression", e.toString());
            return null;
        }
    }

    @Override
    public ByteBuf compress(ByteBuf body, ByteBufAllocator alloc) {
        byte[] in = ByteBufUtil.getBytes(body, body.readerIndex(), body.readableBytes(), false);
        byte[] out = new byte[Snappy.maxCompressedLength(in.length)];
        try {
            int written = Snappy.compress(in, 0, in.length, out, 0);
            return alloc.buffer(written).writeBytes(out, 0, written);
        } catch (IOException e) {
            throw new IllegalStateException("Snappy could not compress a body of " + in.length + " bytes: " + e.getMessage(), e);
        }
    }

    @Override
    public ByteBuf decompress(ByteBuf body, int frameBytesMax, ByteBufAllocator alloc) {
        byte[] in = ByteBufUtil.getBytes(body, body.readerIndex(), body.readableBytes(), false);
        try {
            if (!Snappy.isValidCompressedBuffer(in)) throw new ProtocolException("Envelope body is not valid Snappy");
            int length = Snappy.uncompressedLength(in);
            if (length < 0 || length > frameBytesMax)
                throw new ProtocolException("Compressed body declares " + length + " uncompressed bytes; the limit is "
                        + frameBytesMax + " (frameBytesMax)");
            byte[] out = new byte[length];
            int written = Snappy.uncompress(in, 0, in.length, out, 0);
            return alloc.buffer(written).writeBytes(out, 0, written);
        } catch (IOException e) {
            throw new ProtocolException("Envelope body is not valid Snappy: " + e.getMessage(), e);
        }
    }
}
