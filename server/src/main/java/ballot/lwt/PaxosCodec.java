package ballot.lwt;

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
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledHeapByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Serialisation of the Paxos registers (persisted in the paxos column family) and of the protocol messages (the
 * payloads of the PAXOS_* verbs). Integers are big-endian; optional parts are preceded by a presence byte.
 * <pre>
 * ballot     = micros(8) · counter(4) · node(4) · incarnation(4)
 * bytes      = length(4) · bytes                       key = bytes
 * decree     = ballot · origin ballot · pruned(1) [count(4) · bytes*]
 * proposal   = ballot · origin ballot · count(4) · bytes* · predecessor decree · checked(1) [count(4) · (node(4) · version(8))*]
 * recent     = count(1) · (ballot · origin ballot)* · floor ballot
 * state      = 0x01 · promised ballot · spanEndMicros(8) · committed decree · hasAccepted(1) [proposal] · recent
 * reply      = tag(1) · (Promise 1 | Rejected 2 | Accepted 3 | Committed 4)
 * </pre>
 * Expected versions are written in node order so that equal proposals have equal bytes. Decoding checks every length
 * and fails with IllegalArgumentException on malformed input; the records' own invariants are checked as they are built.
 */
final class PaxosCodec {
    /**
     * A growable heap buffer for encoding. Not {@code Unpooled.buffer}: that allocator counts every allocation in
     * shared LongAdders, which the lanes contended on (about 4% of an LWT's CPU).
     */
    static ByteBuf heapBuffer(int initialCapacity) {
        return new UnpooledHeapByteBuf(UnpooledByteBufAllocator.DEFAULT, initialCapacity, Integer.MAX_VALUE);
    }

    static final byte STATE_FORMAT = 1;
    private static final int ELEMENTS_MAX = 1 << 24;
    private static final int BALLOT_BYTES = 20;

    private PaxosCodec() {}

    // ---------------------------------------------------------------- registers

    static byte[] encodeState(AcceptorState state) {
        ByteBuf out = heapBuffer(128);
        try {
            out.writeByte(STATE_FORMAT);
            writeBallot(out, state.promised());
            out.writeLong(state.spanEndMicros());
            writeDecree(out, state.committed());
            out.writeBoolean(state.accepted() != null);
            if (state.accepted() != null) writeProposal(out, state.accepted());
            writeRecent(out, state.recent());
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
        }
    }

    static AcceptorState decodeState(byte[] bytes) {
        ByteBuf in = Unpooled.wrappedBuffer(bytes);
        need(in, 1, "state format");
        int format = in.readByte();
        if (format != STATE_FORMAT) throw new IllegalArgumentException("Paxos state in format " + format + "; this node reads " + STATE_FORMAT);
        Ballot promised = readBallot(in);
        need(in, 8, "span end");
        long spanEnd = in.readLong();
        Decree committed = readDecree(in);
        Proposal accepted = readFlag(in) ? readProposal(in) : null;
        RecentDecrees recent = readRecent(in);
        if (in.isReadable()) throw new IllegalArgumentException(in.readableBytes() + " bytes after the end of a Paxos state");
        return new AcceptorState(promised, accepted, committed, spanEnd, recent);
    }

    /** A decree's or proposal's entries as the registers hold them: {@code count(4) · bytes*} (system.paxos shows this). */
    static byte[] encodeEntries(List<Bytes> entries) {
        ByteBuf out = heapBuffer(64);
        try {
            writeBytesList(out, entries);
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
        }
    }

    // ---------------------------------------------------------------- messages

    static final Codec<Prepare> PREPARE = new Codec<>() {
        @Override
        public void encode(Prepare p, ByteBuf out) {
            writeKey(out, p.key());
            writeBallot(out, p.ballot());
            writeBytesList(out, p.queries());
        }

        @Override
        public Prepare decode(ByteBuf in) {
            return new Prepare(readKey(in), readBallot(in), readBytesList(in));
        }
    };

    static final Codec<Propose> PROPOSE = new Codec<>() {
        @Override
        public void encode(Propose p, ByteBuf out) {
            writeKey(out, p.key());
            writeProposal(out, p.proposal());
            writeOptionalBallot(out, p.promiseNext());
            writeOptionalBallot(out, p.pruneUpTo());
            out.writeByte(p.decides().ordinal());
        }

        @Override
        public Propose decode(ByteBuf in) {
            PaxosKey key = readKey(in);
            Proposal proposal = readProposal(in);
            Ballot promiseNext = readOptionalBallot(in);
            Ballot pruneUpTo = readOptionalBallot(in);
            need(in, 1, "decides");
            return new Propose(key, proposal, promiseNext, pruneUpTo, enumOf(Propose.Decides.values(), in.readByte(), "decides"));
        }
    };

    static final Codec<Commit> COMMIT = new Codec<>() {
        @Override
        public void encode(Commit c, ByteBuf out) {
            writeKey(out, c.key());
            writeDecree(out, c.decree());
        }

        @Override
        public Commit decode(ByteBuf in) {
            return new Commit(readKey(in), readDecree(in));
        }
    };

    static final Codec<Prune> PRUNE = new Codec<>() {
        @Override
        public void encode(Prune p, ByteBuf out) {
            writeKey(out, p.key());
            writeBallot(out, p.upTo());
        }

        @Override
        public Prune decode(ByteBuf in) {
            return new Prune(readKey(in), readBallot(in));
        }
    };

    /** Prunes for one peer, of any partitions: count(4) · prune*. */
    static final Codec<List<Prune>> PRUNES = new Codec<>() {
        @Override
        public void encode(List<Prune> prunes, ByteBuf out) {
            out.writeInt(prunes.size());
            for (Prune p : prunes) PRUNE.encode(p, out);
        }

        @Override
        public List<Prune> decode(ByteBuf in) {
            int n = count(in);
            List<Prune> prunes = new ArrayList<>(Math.min(n, PruneBatches.BATCH_MAX));
            for (int i = 0; i < n; i++) prunes.add(PRUNE.decode(in));
            return prunes;
        }
    };

    private static final int PROMISE = 1;
    private static final int REJECTED = 2;
    private static final int ACCEPTED = 3;
    private static final int COMMITTED = 4;

    static final Codec<Reply> REPLY = new Codec<>() {
        @Override
        public void encode(Reply reply, ByteBuf out) {
            if (reply instanceof Promise p) {
                out.writeByte(PROMISE);
                writeKey(out, p.key());
                writeBallot(out, p.ballot());
                out.writeBoolean(p.accepted() != null);
                if (p.accepted() != null) writeProposal(out, p.accepted());
                writeDecree(out, p.committed());
                writeRecent(out, p.recent());
                if (p.read() == null) throw new IllegalArgumentException("a promise without its read: " + p.ballot());
                writeBytesList(out, p.read().results());
                out.writeLong(p.read().plainVersion());
            } else if (reply instanceof Rejected r) {
                out.writeByte(REJECTED);
                writeKey(out, r.key());
                writeBallot(out, r.ballot());
                out.writeByte(r.phase().ordinal());
                out.writeByte(r.reason().ordinal());
                writeBallot(out, r.promised());
                out.writeLong(r.minMicros());
                out.writeLong(r.plainVersion());
            } else if (reply instanceof Accepted a) {
                out.writeByte(ACCEPTED);
                writeKey(out, a.key());
                writeBallot(out, a.ballot());
                writeBallot(out, a.appliedPredecessor());
                out.writeBoolean(a.promisedNext());
                out.writeBoolean(a.applied());
            } else if (reply instanceof Committed c) {
                out.writeByte(COMMITTED);
                writeKey(out, c.key());
                writeBallot(out, c.ballot());
            } else {
                throw new IllegalArgumentException("unknown reply " + reply);
            }
        }

        @Override
        public Reply decode(ByteBuf in) {
            need(in, 1, "reply tag");
            int tag = in.readByte();
            return switch (tag) {
                case PROMISE -> {
                    PaxosKey key = readKey(in);
                    Ballot ballot = readBallot(in);
                    Proposal accepted = readFlag(in) ? readProposal(in) : null;
                    Decree committed = readDecree(in);
                    RecentDecrees recent = readRecent(in);
                    List<Bytes> results = readBytesList(in);
                    need(in, 8, "plain version");
                    yield new Promise(key, ballot, accepted, committed, recent, new LocalRead(results, in.readLong()));
                }
                case REJECTED -> {
                    PaxosKey key = readKey(in);
                    Ballot ballot = readBallot(in);
                    need(in, 2, "phase and reason");
                    Rejected.Phase phase = enumOf(Rejected.Phase.values(), in.readByte(), "phase");
                    Rejected.Reason reason = enumOf(Rejected.Reason.values(), in.readByte(), "reason");
                    Ballot promised = readBallot(in);
                    need(in, 16, "min micros and plain version");
                    yield new Rejected(key, ballot, phase, reason, promised, in.readLong(), in.readLong());
                }
                case ACCEPTED -> {
                    PaxosKey key = readKey(in);
                    Ballot ballot = readBallot(in);
                    Ballot predecessor = readBallot(in);
                    boolean promisedNext = readFlag(in);
                    yield new Accepted(key, ballot, predecessor, promisedNext, readFlag(in));
                }
                case COMMITTED -> new Committed(readKey(in), readBallot(in));
                default -> throw new IllegalArgumentException("unknown reply tag " + tag);
            };
        }
    };

    // ---------------------------------------------------------------- building blocks

    static void writeBallot(ByteBuf out, Ballot b) {
        out.writeLong(b.micros()).writeInt(b.counter()).writeInt(b.node()).writeInt(b.incarnation());
    }

    static Ballot readBallot(ByteBuf in) {
        need(in, BALLOT_BYTES, "ballot");
        return new Ballot(in.readLong(), in.readInt(), in.readInt(), in.readInt());
    }

    private static void writeOptionalBallot(ByteBuf out, Ballot b) {
        out.writeBoolean(b != null);
        if (b != null) writeBallot(out, b);
    }

    private static Ballot readOptionalBallot(ByteBuf in) {
        return readFlag(in) ? readBallot(in) : null;
    }

    private static void writeDecree(ByteBuf out, Decree d) {
        writeBallot(out, d.ballot());
        writeBallot(out, d.origin());
        out.writeBoolean(d.isPruned());
        if (!d.isPruned()) writeBytesList(out, d.entries());
    }

    private static Decree readDecree(ByteBuf in) {
        Ballot ballot = readBallot(in);
        Ballot origin = readBallot(in);
        boolean pruned = readFlag(in);
        return new Decree(ballot, origin, pruned ? null : readBytesList(in));
    }

    private static void writeProposal(ByteBuf out, Proposal p) {
        writeBallot(out, p.ballot());
        writeBallot(out, p.origin());
        writeBytesList(out, p.entries());
        writeDecree(out, p.predecessor());
        out.writeBoolean(p.isChecked());
        if (p.isChecked()) {
            Map<NodeId, Long> sorted = new TreeMap<>(p.expectedVersions());
            out.writeInt(sorted.size());
            sorted.forEach((node, version) -> out.writeInt(node.id()).writeLong(version));
        }
    }

    private static Proposal readProposal(ByteBuf in) {
        Ballot ballot = readBallot(in);
        Ballot origin = readBallot(in);
        List<Bytes> entries = readBytesList(in);
        Decree predecessor = readDecree(in);
        Map<NodeId, Long> expected = null;
        if (readFlag(in)) {
            int n = count(in);
            expected = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                need(in, 12, "expected version");
                expected.put(NodeId.of(in.readInt()), in.readLong());
            }
        }
        return new Proposal(ballot, origin, entries, predecessor, expected);
    }

    private static void writeRecent(ByteBuf out, RecentDecrees recent) {
        out.writeByte(recent.ids().size());
        for (RecentDecrees.Id id : recent.ids()) {
            writeBallot(out, id.ballot());
            writeBallot(out, id.origin());
        }
        writeBallot(out, recent.floor());
    }

    private static RecentDecrees readRecent(ByteBuf in) {
        need(in, 1, "recent decrees");
        int n = in.readUnsignedByte();
        if (n > RecentDecrees.SIZE_MAX) throw new IllegalArgumentException(n + " recent decrees; limit is " + RecentDecrees.SIZE_MAX);
        List<RecentDecrees.Id> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) ids.add(new RecentDecrees.Id(readBallot(in), readBallot(in)));
        return new RecentDecrees(ids, readBallot(in));
    }

    private static void writeKey(ByteBuf out, PaxosKey key) {
        writeBytes(out, key.bytes());
    }

    private static PaxosKey readKey(ByteBuf in) {
        return new PaxosKey(readBytes(in));
    }

    private static void writeBytes(ByteBuf out, Bytes bytes) {
        out.writeInt(bytes.size());
        out.writeBytes(bytes.toByteArray());
    }

    private static Bytes readBytes(ByteBuf in) {
        need(in, 4, "length");
        int length = in.readInt();
        if (length < 0) throw new IllegalArgumentException("negative length " + length);
        need(in, length, "bytes");
        byte[] b = new byte[length];
        in.readBytes(b);
        return Bytes.wrap(b);
    }

    private static void writeBytesList(ByteBuf out, List<Bytes> list) {
        out.writeInt(list.size());
        for (Bytes b : list) writeBytes(out, b);
    }

    private static List<Bytes> readBytesList(ByteBuf in) {
        int n = count(in);
        List<Bytes> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(readBytes(in));
        return out;
    }

    private static boolean readFlag(ByteBuf in) {
        need(in, 1, "flag");
        int b = in.readByte();
        if (b != 0 && b != 1) throw new IllegalArgumentException("flag byte " + b + "; must be 0 or 1");
        return b == 1;
    }

    private static int count(ByteBuf in) {
        need(in, 4, "count");
        int n = in.readInt();
        if (n < 0 || n > ELEMENTS_MAX || n > in.readableBytes()) throw new IllegalArgumentException("bad element count " + n);
        return n;
    }

    private static <E> E enumOf(E[] values, int ordinal, String what) {
        if (ordinal < 0 || ordinal >= values.length) throw new IllegalArgumentException("unknown " + what + " " + ordinal);
        return values[ordinal];
    }

    private static void need(ByteBuf in, int bytes, String what) {
        if (in.readableBytes() < bytes) {
            throw new IllegalArgumentException(what + " needs " + bytes + " bytes; only " + in.readableBytes() + " remain");
        }
    }
}
