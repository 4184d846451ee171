package ballot.net;

import io.netty.buffer.ByteBuf;

/** How a message payload is written to and read from an internode frame. Decoding malformed bytes throws. */
public interface Codec<T> {
    void encode(T value, ByteBuf out);

    T decode(ByteBuf in);
}
