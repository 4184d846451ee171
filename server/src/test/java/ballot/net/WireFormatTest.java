package ballot.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The internode frames against golden bytes (docs/membership.md §1), round trips, and the frame splitter fed byte by byte. */
class WireFormatTest {
    private static final UUID HOST = new UUID(0x0102030405060708L, 0x090A0B0C0D0E0F10L);
    private static final InetSocketAddress ADDRESS = address("127.0.0.2", 7000);

    @Test
    void helloMatchesGoldenBytes() {
        ByteBuf frame = WireFormat.hello(UnpooledByteBufAllocator.DEFAULT, new WireFormat.Hello(1, 1, "c1", HOST, ADDRESS));
        String expected = "00000024" // length: 36 bytes follow
                + "01" // HELLO
                + "42414c4c" // magic "BALL"
                + "0001" + "0001" // versions 1..1
                + "0002" + "6331" // "c1"
                + "0102030405060708090a0b0c0d0e0f10" // host id
                + "04" + "7f000002" + "1b58"; // 127.0.0.2:7000
        assertThat(ByteBufUtil.hexDump(frame)).isEqualTo(expected);
        frame.skipBytes(5);
        assertThat(WireFormat.readHello(frame)).isEqualTo(new WireFormat.Hello(1, 1, "c1", HOST, ADDRESS));
        frame.release();
    }

    @Test
    void refuseKeepsVersionRangeAtFixedOffsets() {
        ByteBuf frame = WireFormat.refuse(UnpooledByteBufAllocator.DEFAULT,
                new WireFormat.Refuse(1, 3, WireFormat.RefuseReason.CLUSTER_NAME, "no"));
        assertThat(ByteBufUtil.hexDump(frame)).isEqualTo("0000000e" + "03" + "42414c4c" + "0001" + "0003" + "03" + "0002" + "6e6f");
        frame.skipBytes(5);
        assertThat(WireFormat.readRefuse(frame)).isEqualTo(new WireFormat.Refuse(1, 3, WireFormat.RefuseReason.CLUSTER_NAME, "no"));
        frame.release();
    }

    @Test
    void welcomeRoundTrips() {
        WireFormat.Welcome welcome = new WireFormat.Welcome(1, "Test Cluster", HOST, address("::1", 7001));
        ByteBuf frame = WireFormat.welcome(UnpooledByteBufAllocator.DEFAULT, welcome);
        assertThat(frame.getInt(0)).isEqualTo(frame.readableBytes() - 4);
        assertThat(frame.getByte(4)).isEqualTo(WireFormat.WELCOME);
        frame.skipBytes(5);
        assertThat(WireFormat.readWelcome(frame)).isEqualTo(welcome);
        frame.release();
    }

    @Test
    void rejectsAnotherMagic() {
        ByteBuf frame = Unpooled.buffer().writeInt(0x47455420).writeShort(1).writeShort(1);
        assertThatThrownBy(() -> WireFormat.readHello(frame)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("magic 0x47455420");
    }

    @Test
    void truncatedHelloIsAnErrorNotAnOverread() {
        ByteBuf frame = WireFormat.hello(UnpooledByteBufAllocator.DEFAULT, new WireFormat.Hello(1, 1, "c1", HOST, ADDRESS));
        frame.skipBytes(5);
        ByteBuf truncated = frame.readSlice(frame.readableBytes() - 3);
        assertThatThrownBy(() -> WireFormat.readHello(truncated)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("address");
        frame.release();
    }

    @Test
    void commonVersionIsTheHighestInBothRanges() {
        assertThat(WireFormat.commonVersion(2, 2)).isEqualTo(2);
        assertThat(WireFormat.commonVersion(1, 9)).isEqualTo(WireFormat.VERSION_MAX);
        assertThat(WireFormat.commonVersion(1, 1)).as("a build before the READ and SCAN stamps").isEqualTo(-1);
        assertThat(WireFormat.commonVersion(7, 9)).isEqualTo(-1);
        assertThat(WireFormat.commonVersion(0, 0)).isEqualTo(-1);
    }

    @Test
    void frameDecoderSplitsFramesFedByteByByte() {
        FrameDecoder decoder = new FrameDecoder();
        EmbeddedChannel channel = new EmbeddedChannel(decoder);
        ByteBuf stream = Unpooled.buffer().writeInt(3).writeBytes(new byte[] {1, 2, 3}).writeInt(1).writeByte(9);
        while (stream.isReadable()) channel.writeInbound(stream.readRetainedSlice(1));
        stream.release();
        ByteBuf first = channel.readInbound();
        ByteBuf second = channel.readInbound();
        assertThat(ByteBufUtil.hexDump(first)).isEqualTo("010203");
        assertThat(ByteBufUtil.hexDump(second)).isEqualTo("09");
        Object third = channel.readInbound();
        assertThat(third).isNull();
        first.release();
        second.release();
        assertThat(channel.finishAndReleaseAll()).isFalse();
    }

    @Test
    void frameDecoderRefusesFramesAboveTheLimitBeforeReadingThem() {
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder());
        // "GET " read as a length: a peer that does not speak Ballot
        assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer("GET / HTTP/1.1\r\n".getBytes())))
                .isInstanceOf(DecoderException.class).hasMessageContaining("limit is 4096");
        channel.finishAndReleaseAll();
    }

    @Test
    void frameDecoderLimitRisesAfterTheHandshake() {
        FrameDecoder decoder = new FrameDecoder();
        decoder.frameBytesMax(1 << 20);
        EmbeddedChannel channel = new EmbeddedChannel(decoder);
        channel.writeInbound(Unpooled.buffer().writeInt(10_000).writeBytes(new byte[10_000]));
        ByteBuf frame = channel.readInbound();
        assertThat(frame.readableBytes()).isEqualTo(10_000);
        frame.release();
        channel.finishAndReleaseAll();
    }

    @Test
    void codecsRefuseMalformedInput() {
        assertThatThrownBy(() -> Codecs.readString(Unpooled.buffer().writeInt(100).writeByte(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("only 1 remain");
        assertThatThrownBy(() -> Codecs.readAddress(Unpooled.buffer().writeByte(5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be 4 or 16");
        ByteBuf out = Unpooled.buffer();
        Codecs.writeAddress(out, address("::1", 9));
        assertThat(Codecs.readAddress(out)).isEqualTo(address("::1", 9));
    }

    private static InetSocketAddress address(String ip, int port) {
        try {
            return new InetSocketAddress(InetAddress.getByName(ip), port);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
