package ballot.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import org.junit.jupiter.api.Test;

/** Framing of internode streams, and what a plaintext node says of a peer that opens with TLS. */
class FrameDecoderTest {
    @Test
    void splitsFramesFedByteAtATime() {
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder());
        for (byte b : new byte[] {0, 0, 0, 2, 7, 9}) channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
        ByteBuf frame = channel.readInbound();
        assertThat(frame.readableBytes()).isEqualTo(2);
        assertThat(frame.getByte(1)).isEqualTo((byte) 9);
        frame.release();
        assertThat(channel.finishAndReleaseAll()).isFalse();
    }

    @Test
    void namesTheSettingWhenThePeerOpensWithATlsHandshake() {
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder());
        // A TLS 1.2/1.3 ClientHello record header: handshake (22), version 3.1, length 512.
        assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {0x16, 0x03, 0x01, 0x02, 0x00, 0x01})))
                .isInstanceOf(DecoderException.class)
                .hasMessageContaining("server_encryption_options.internode_encryption must be the same on every node");
        channel.finishAndReleaseAll();
    }
}
