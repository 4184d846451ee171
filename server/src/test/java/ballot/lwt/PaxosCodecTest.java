package ballot.lwt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.net.Codec;
import ballot.paxos.Ballot;
import ballot.paxos.Bytes;
import ballot.paxos.Decree;
import ballot.paxos.NodeId;
import ballot.paxos.PaxosKey;
import ballot.paxos.Proposal;
import ballot.paxos.RecentDecrees;
import ballot.paxos.acceptor.AcceptorState;
import ballot.paxos.message.Accepted;
import ballot.paxos.message.Commit;
import ballot.paxos.message.Committed;
import ballot.paxos.message.Prepare;
import ballot.paxos.message.Promise;
import ballot.paxos.message.Propose;
import ballot.paxos.message.Prune;
import ballot.paxos.message.Rejected;
import ballot.paxos.message.Reply;
import ballot.paxos.spi.LocalRead;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Serialisation of the acceptor registers and the Paxos messages: golden layout, round trips, malformed input. */
class PaxosCodecTest {
    private static final PaxosKey KEY = new PaxosKey(Bytes.wrap(new byte[] {(byte) 0xAB}));
    private static final Ballot B1 = new Ballot(0x10, 1, 2, 3);
    private static final Ballot B2 = new Ballot(0x20, 0, 2, 3);
    private static final Ballot B3 = new Ballot(0x30, 0, 5, 1);
    private static final Bytes E1 = Bytes.wrap(new byte[] {1, 2});
    private static final Bytes E2 = Bytes.wrap(new byte[] {3});

    private static String ballotHex(long micros, int counter, int node, int incarnation) {
        return String.format("%016x%08x%08x%08x", micros, counter, node, incarnation);
    }

    @Test
    void registersHaveAGoldenLayout() {
        Decree committed = new Decree(B1, B1, null); // pruned
        Proposal accepted = new Proposal(B2, B2, List.of(E1), committed, Map.of(NodeId.of(9), 7L, NodeId.of(4), 6L));
        AcceptorState state = new AcceptorState(B3, accepted, committed, 0x40,
                new RecentDecrees(List.of(new RecentDecrees.Id(B1, B1)), Ballot.ZERO));
        String expected = "01" // format
                + ballotHex(0x30, 0, 5, 1) // promised
                + "0000000000000040" // span end
                + ballotHex(0x10, 1, 2, 3) + ballotHex(0x10, 1, 2, 3) + "01" // committed: ballot, origin, pruned
                + "01" // has accepted
                + ballotHex(0x20, 0, 2, 3) + ballotHex(0x20, 0, 2, 3) // accepted: ballot, origin
                + "00000001" + "00000002" + "0102" // one entry of two bytes
                + ballotHex(0x10, 1, 2, 3) + ballotHex(0x10, 1, 2, 3) + "01" // predecessor, pruned
                + "01" + "00000002" + "00000004" + "0000000000000006" + "00000009" + "0000000000000007" // checked, in node order
                + "01" + ballotHex(0x10, 1, 2, 3) + ballotHex(0x10, 1, 2, 3) // one recent decree
                + ballotHex(0, 0, 0, 0); // recent floor
        byte[] bytes = PaxosCodec.encodeState(state);
        assertThat(HexFormat.of().formatHex(bytes)).isEqualTo(expected);
        assertThat(PaxosCodec.decodeState(bytes)).isEqualTo(state);
    }

    @Test
    void registersWithEntriesEverywhereRoundTripAtTheirExactSize() {
        Decree committed = new Decree(B1, B1, List.of(E1, E2, Bytes.EMPTY));
        Proposal unchecked = new Proposal(B2, B2, List.of(E2), committed, null);
        RecentDecrees recent = new RecentDecrees(List.of(new RecentDecrees.Id(B1, B1), new RecentDecrees.Id(B2, B1)), B1);
        for (AcceptorState state : List.of(new AcceptorState(B3, unchecked, committed, 0x40, recent),
                new AcceptorState(B3, null, committed, 0x40, RecentDecrees.NONE))) {
            byte[] bytes = PaxosCodec.encodeState(state);
            assertThat(PaxosCodec.decodeState(bytes)).isEqualTo(state);
        }
    }

    @Test
    void emptyRegistersRoundTrip() {
        assertThat(PaxosCodec.decodeState(PaxosCodec.encodeState(AcceptorState.EMPTY))).isEqualTo(AcceptorState.EMPTY);
    }

    @Test
    void everyMessageRoundTrips() {
        Decree decree = new Decree(B2, B1, List.of(E1, E2));
        Proposal proposal = new Proposal(B3, B2, List.of(E2), decree, null);
        RecentDecrees recent = RecentDecrees.NONE.with(decree);
        assertThat(roundTrip(PaxosCodec.PREPARE, new Prepare(KEY, B3, List.of(E1, E2)))).isEqualTo(new Prepare(KEY, B3, List.of(E1, E2)));
        Propose propose = new Propose(KEY, proposal, new Ballot(0x40, 0, 5, 1), B1);
        assertThat(roundTrip(PaxosCodec.PROPOSE, propose)).isEqualTo(propose);
        Propose bare = new Propose(KEY, proposal, null, null);
        assertThat(roundTrip(PaxosCodec.PROPOSE, bare)).isEqualTo(bare);
        for (Propose.Decides decides : Propose.Decides.values()) {
            Propose deciding = new Propose(KEY, proposal, null, null, decides);
            assertThat(roundTrip(PaxosCodec.PROPOSE, deciding)).isEqualTo(deciding);
        }
        assertThat(roundTrip(PaxosCodec.COMMIT, new Commit(KEY, decree))).isEqualTo(new Commit(KEY, decree));
        assertThat(roundTrip(PaxosCodec.PRUNE, new Prune(KEY, B2))).isEqualTo(new Prune(KEY, B2));
        List<Prune> batch = List.of(new Prune(KEY, B2), new Prune(KEY, B3));
        assertThat(roundTrip(PaxosCodec.PRUNES, batch)).isEqualTo(batch);
        assertThat(roundTrip(PaxosCodec.PRUNES, List.of())).isEmpty();
        List<Reply> replies = List.of(
                new Promise(KEY, B3, proposal, decree, recent, new LocalRead(List.of(E1), 99)),
                new Promise(KEY, B3, null, Decree.NONE, RecentDecrees.NONE, new LocalRead(List.of(), 0)),
                new Rejected(KEY, B2, Rejected.Phase.PROPOSE, Rejected.Reason.STALE, B3, 0x31, 12),
                new Rejected(KEY, B2, Rejected.Phase.PREPARE, Rejected.Reason.SUPERSEDED, B3, 0, 0),
                new Accepted(KEY, B3, B2, true),
                new Accepted(KEY, B3, B2, false, true),
                new Committed(KEY, B2));
        for (Reply reply : replies) assertThat(roundTrip(PaxosCodec.REPLY, reply)).isEqualTo(reply);
    }

    @Test
    void malformedInputIsRefusedNotMisread() {
        byte[] state = PaxosCodec.encodeState(AcceptorState.EMPTY);
        for (int length = 0; length < state.length; length++) {
            byte[] truncated = java.util.Arrays.copyOf(state, length);
            assertThatThrownBy(() -> PaxosCodec.decodeState(truncated)).as("truncated to %d", length).isInstanceOf(IllegalArgumentException.class);
        }
        byte[] unknownFormat = state.clone();
        unknownFormat[0] = 9;
        assertThatThrownBy(() -> PaxosCodec.decodeState(unknownFormat)).hasMessageContaining("format 9");
        ByteBuf bad = Unpooled.wrappedBuffer(new byte[] {7});
        assertThatThrownBy(() -> PaxosCodec.REPLY.decode(bad)).hasMessageContaining("unknown reply tag 7");
        ByteBuf hugeCount = Unpooled.buffer().writeInt(1).writeByte(0xAB).writeBytes(new byte[20]).writeInt(Integer.MAX_VALUE);
        assertThatThrownBy(() -> PaxosCodec.PREPARE.decode(hugeCount)).hasMessageContaining("bad element count");
    }

    private static <T> T roundTrip(Codec<T> codec, T value) {
        ByteBuf buf = Unpooled.buffer();
        try {
            codec.encode(value, buf);
            byte[] first = ByteBufUtil.getBytes(buf);
            T decoded = codec.decode(buf);
            assertThat(buf.isReadable()).as("whole message read").isFalse();
            ByteBuf again = Unpooled.buffer();
            codec.encode(decoded, again);
            assertThat(ByteBufUtil.getBytes(again)).as("re-encoding is byte-identical").isEqualTo(first);
            again.release();
            return decoded;
        } finally {
            buf.release();
        }
    }
}
