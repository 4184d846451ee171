package ballot.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.net.Codec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The gossip payloads of docs/membership.md §2: golden bytes, round trips, malformed input. */
class GossipMessagesTest {
    private static final UUID A = new UUID(0x0102030405060708L, 0x090A0B0C0D0E0F10L);

    @Test
    void digestMatchesGoldenBytes() {
        ByteBuf out = Unpooled.buffer();
        GossipMessages.DIGEST.encode(new GossipDigest(A, 5, 300), out);
        assertThat(ByteBufUtil.hexDump(out)).isEqualTo("0102030405060708090a0b0c0d0e0f10" + "00000005" + "0000012c");
    }

    @Test
    void stateMatchesGoldenBytes() {
        ByteBuf out = Unpooled.buffer();
        GossipMessages.STATE.encode(new EndpointState(A, 5, 9, Map.of()).with(AppState.STATUS, "NORMAL", 2), out);
        assertThat(ByteBufUtil.hexDump(out)).isEqualTo("0102030405060708090a0b0c0d0e0f10" + "00000005" + "00000009"
                + "0001" + "0001" + "00000002" + "00000006" + "4e4f524d414c");
    }

    @Test
    void messagesRoundTrip() {
        EndpointState state = GossipRulesTest.complete(A, 7, 3).with(AppState.SCHEMA, UUID.randomUUID().toString(), 9);
        GossipMessages.Syn syn = new GossipMessages.Syn("Test Cluster", List.of(state.digest(), new GossipDigest(UUID.randomUUID(), 1, -1)));
        GossipMessages.Ack ack = new GossipMessages.Ack(false, List.of(state.digest()), List.of(state, state.above(4)));
        GossipMessages.Ack2 ack2 = new GossipMessages.Ack2(List.of(state));
        assertThat(roundTrip(GossipMessages.SYN_CODEC, syn)).isEqualTo(syn);
        assertThat(roundTrip(GossipMessages.ACK_CODEC, ack)).isEqualTo(ack);
        assertThat(roundTrip(GossipMessages.ACK2_CODEC, ack2)).isEqualTo(ack2);
        GossipMessages.Ack shadow = new GossipMessages.Ack(true, List.of(), List.of());
        assertThat(roundTrip(GossipMessages.ACK_CODEC, shadow)).isEqualTo(shadow);
    }

    @Test
    void malformedListsAreRefused() {
        ByteBuf huge = Unpooled.buffer().writeInt(Integer.MAX_VALUE);
        assertThatThrownBy(() -> GossipMessages.ACK2_CODEC.decode(huge)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit");
        ByteBuf truncated = Unpooled.buffer().writeInt(1).writeLong(1);
        assertThatThrownBy(() -> GossipMessages.ACK2_CODEC.decode(truncated)).isInstanceOf(IllegalArgumentException.class);
    }

    private static <T> T roundTrip(Codec<T> codec, T value) {
        ByteBuf buffer = Unpooled.buffer();
        codec.encode(value, buffer);
        T decoded = codec.decode(buffer);
        assertThat(buffer.isReadable()).isFalse();
        return decoded;
    }
}
