package ballot.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import java.util.List;

/**
 * Splits the stream into frames ({@code length(4) · body}) and emits each body as a retained slice. The limit starts at
 * {@link WireFormat#HANDSHAKE_BYTES_MAX} and is raised once the handshake completes, so a peer that does not speak
 * Ballot is found out after a few bytes rather than after the 16 MiB it seems to announce.
 */
final class FrameDecoder extends ByteToMessageDecoder {
    /** The first two bytes of a TLS handshake record (content type 22, major version 3): a peer with internode TLS. */
    private static final int TLS_HANDSHAKE_RECORD = 0x1603;

    private int frameBytesMax = WireFormat.HANDSHAKE_BYTES_MAX;

    void frameBytesMax(int bytes) {
        frameBytesMax = bytes;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() < 4) return;
        int length = in.getInt(in.readerIndex());
        if (length < 1 || length > frameBytesMax) {
            in.skipBytes(in.readableBytes());
            if (length >>> 16 == TLS_HANDSHAKE_RECORD)
                throw new CorruptedFrameException("the peer speaks TLS and this node does not; "
                        + "server_encryption_options.internode_encryption must be the same on every node");
            throw new CorruptedFrameException("frame of " + Integer.toUnsignedString(length) + " bytes; limit is " + frameBytesMax + " (frameBytesMax)");
        }
        if (in.readableBytes() < 4 + length) return;
        in.skipBytes(4);
        out.add(in.readRetainedSlice(length));
    }
}
