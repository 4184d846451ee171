package ballot.cql.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.List;

/**
 * Compression of whole envelope bodies, protocol v4 and earlier (native_protocol_v4.spec §5), by the algorithm a
 * client named in STARTUP. From v5 on, compression moves to the segments (LZ4 only).
 */
public interface BodyCompressor {
    /** Compresses {@code body}'s readable bytes into a new buffer; {@code body} is left untouched. */
    ByteBuf compress(ByteBuf body, ByteBufAllocator alloc);

    /**
     * Decompresses a compressed body into a new buffer; {@code body} is left untouched.
     *
     * @throws ballot.cql.error.ProtocolException when the body would exceed {@code frameBytesMax} or is corrupt
     */
    ByteBuf decompress(ByteBuf body, int frameBytesMax, ByteBufAllocator alloc);

    /** The algorithm named {@code name} in STARTUP ("lz4", "snappy"), or null if this node has none by that name. */
    static BodyCompressor named(String name) {
        return switch (name) {
            case "lz4" -> Lz4BodyCompressor.INSTANCE;
            case "snappy" -> SnappyBodyCompressor.INSTANCE;
            default -> null;
        };
    }

    /** The algorithms SUPPORTED lists, as Cassandra lists them: Snappy first, where its native library loads. */
    static List<String> available() {
        return SnappyBodyCompressor.INSTANCE != null ? List.of("snappy", "lz4") : List.of("lz4");
    }
}
