package ballot.lwt;

import ballot.cql.data.Cell;
import ballot.cql.data.ComplexDeletion;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.LivenessInfo;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.RangeTombstone;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Row;
import ballot.cql.data.Slice;
import ballot.paxos.Bytes;
import ballot.paxos.PaxosKey;
import ballot.storage.DataCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The CQL data model in the byte strings the Paxos core treats as opaque (docs/paxos.md §9): partition keys, queries
 * (what a request reads), read results, and decree entries (what an update writes).
 *
 * <p>Layouts, from the shared parts of {@link DataCodec} (which the registers persist, so they must stay readable):
 * <pre>
 * key     = tableId(16) · partitionKey
 * query   = 0x01 · tableId(16) · reversed(1) · count(4) · slice*
 * result  = 0x01 · sized key · content
 * entry   = 0x01 · content
 * </pre>
 * An entry's timestamps are relative to the timestamp its update was evaluated with, so that a decree's entry
 * {@code i} can be written at the decree's {@code ballot.micros + i} whatever ballot decides it (a re-proposal takes
 * the new ballot's timestamps, §5.6).
 * A query reads whole slices, without limits or a read time: its result can then be advanced exactly by an update
 * ({@link CqlReadModel#apply}), and equal statement shapes give equal queries, which keeps the fast path's cache hits
 * high (§4.8). Limits are applied to the answer afterwards.
 */
final class CqlValues {
    static final byte FORMAT = 1;

    private CqlValues() {}

    // ---------------------------------------------------------------- keys

    static PaxosKey key(UUID tableId, PartitionKey key) {
        ByteBuffer k = key.key();
        ByteBuffer out = ByteBuffer.allocate(16 + k.remaining());
        out.putLong(tableId.getMostSignificantBits()).putLong(tableId.getLeastSignificantBits()).put(k);
        return new PaxosKey(Bytes.wrap(out.array()));
    }

    static UUID tableId(PaxosKey key) {
        ByteBuffer b = ByteBuffer.wrap(bytesOf(key.bytes(), 16));
        return new UUID(b.getLong(), b.getLong());
    }

    static PartitionKey partitionKey(PaxosKey key) {
        byte[] bytes = key.bytes().toByteArray();
        return PartitionKey.of(ByteBuffer.wrap(bytes, 16, bytes.length - 16));
    }

    private static byte[] bytesOf(Bytes bytes, int atLeast) {
        byte[] b = bytes.toByteArray();
        if (b.length < atLeast) throw new IllegalArgumentException("Paxos key of " + b.length + " bytes; at least " + atLeast + " expected");
        return b;
    }

    // ---------------------------------------------------------------- queries

    /** What a request reads of its partition: clustering slices (none: the static row only), in which order. */
    record Query(UUID tableId, List<Slice> slices, boolean reversed) {
        Query {
            slices = List.copyOf(slices);
        }

        static Query of(UUID tableId, ReadSpec spec) {
            return new Query(tableId, spec.slices(), spec.reversed());
        }

        /** The storage read of this query: whole slices, no limit. */
        ReadSpec spec(int nowInSec) {
            return new ReadSpec(slices, reversed, Integer.MAX_VALUE, Integer.MAX_VALUE, nowInSec);
        }

        Bytes encode() {
            ByteBuf out = PaxosCodec.heapBuffer(64);
            try {
                out.writeByte(FORMAT);
                DataCodec.writeUuid(out, tableId);
                out.writeBoolean(reversed);
                out.writeInt(slices.size());
                for (Slice s : slices) DataCodec.writeSlice(out, s);
                return Bytes.wrap(ByteBufUtil.getBytes(out));
            } finally {
                out.release();
            }
        }

        static Query decode(Bytes bytes) {
            ByteBuf in = Unpooled.wrappedBuffer(bytes.toByteArray());
            format(in, "query");
            UUID table = DataCodec.readUuid(in);
            DataCodec.need(in, 1, "reversed");
            boolean reversed = in.readBoolean();
            int n = DataCodec.readCount(in);
            List<Slice> slices = new ArrayList<>(n);
            for (int i = 0; i < n; i++) slices.add(DataCodec.readSlice(in));
            end(in, "query");
            return new Query(table, slices, reversed);
        }
    }

    // ---------------------------------------------------------------- results

    static Bytes encodeResult(PartitionData data) {
        ByteBuf out = PaxosCodec.heapBuffer(128);
        try {
            out.writeByte(FORMAT);
            DataCodec.writeSized(out, data.key().key());
            DataCodec.writeContent(out, data.partitionDeletion(), data.rangeTombstones(), data.staticRow(), data.rows());
            return Bytes.wrap(ByteBufUtil.getBytes(out));
        } finally {
            out.release();
        }
    }

    static PartitionData decodeResult(Bytes bytes) {
        ByteBuf in = Unpooled.wrappedBuffer(bytes.toByteArray());
        format(in, "result");
        ByteBuffer key = DataCodec.readSized(in);
        if (key == null) throw new IllegalArgumentException("result without a partition key");
        DataCodec.Content c = DataCodec.readContent(in);
        end(in, "result");
        return new PartitionData(PartitionKey.of(key), c.deletion(), c.rangeTombstones(), c.staticRow(), c.rows());
    }

    // ---------------------------------------------------------------- entries

    /** An update written at {@code timestampMicros}, with its timestamps made relative to that timestamp. */
    static Bytes encodeEntry(PartitionUpdate update, long timestampMicros) {
        long delta = -timestampMicros;
        List<RangeTombstone> rts = new ArrayList<>(update.rangeTombstones().size());
        for (RangeTombstone rt : update.rangeTombstones()) rts.add(new RangeTombstone(rt.slice(), shift(rt.deletion(), delta)));
        List<Row> rows = new ArrayList<>(update.rows().size());
        for (Row r : update.rows()) rows.add(shift(r, delta));
        ByteBuf out = PaxosCodec.heapBuffer(128);
        try {
            out.writeByte(FORMAT);
            DataCodec.writeContent(out, shift(update.partitionDeletion(), delta), rts,
                    update.staticRow() == null ? null : shift(update.staticRow(), delta), rows);
            return Bytes.wrap(ByteBufUtil.getBytes(out));
        } finally {
            out.release();
        }
    }

    /** The update an entry describes, for the partition {@code key} of {@code tableId}, written at {@code timestampMicros}. */
    static PartitionUpdate decodeEntry(Bytes entry, UUID tableId, PartitionKey key, long timestampMicros) {
        ByteBuf in = Unpooled.wrappedBuffer(entry.toByteArray());
        format(in, "entry");
        DataCodec.Content c = DataCodec.readContent(in);
        end(in, "entry");
        List<RangeTombstone> rts = new ArrayList<>(c.rangeTombstones().size());
        for (RangeTombstone rt : c.rangeTombstones()) rts.add(new RangeTombstone(rt.slice(), shift(rt.deletion(), timestampMicros)));
        List<Row> rows = new ArrayList<>(c.rows().size());
        for (Row r : c.rows()) rows.add(shift(r, timestampMicros));
        Row staticRow = c.staticRow() == null ? null : shift(c.staticRow(), timestampMicros);
        return new PartitionUpdate(tableId, key, shift(c.deletion(), timestampMicros), rts, staticRow, rows);
    }

    // ---------------------------------------------------------------- timestamps

    private static long shift(long timestamp, long delta) {
        return timestamp == Long.MIN_VALUE ? timestamp : timestamp + delta; // MIN_VALUE: "none" (LIVE, EMPTY)
    }

    static DeletionTime shift(DeletionTime d, long delta) {
        return d.isLive() ? d : new DeletionTime(shift(d.markedAt(), delta), d.localDeletionTime());
    }

    static Row shift(Row row, long delta) {
        LivenessInfo l = row.liveness();
        LivenessInfo liveness = l.isEmpty() ? l : new LivenessInfo(shift(l.timestamp(), delta), l.ttl(), l.localExpirationTime());
        List<Cell> cells = new ArrayList<>(row.cells().size());
        for (Cell c : row.cells()) {
            cells.add(new Cell(c.column(), c.path(), c.value(), shift(c.timestamp(), delta), c.ttl(), c.localDeletionTime(), c.counter()));
        }
        List<ComplexDeletion> complex = new ArrayList<>(row.complexDeletions().size());
        for (ComplexDeletion d : row.complexDeletions()) complex.add(new ComplexDeletion(d.column(), shift(d.deletion(), delta)));
        return new Row(row.clustering(), liveness, shift(row.deletion(), delta), cells, complex);
    }

    // ---------------------------------------------------------------- framing

    private static void format(ByteBuf in, String what) {
        DataCodec.need(in, 1, what + " format");
        int format = in.readByte();
        if (format != FORMAT) throw new IllegalArgumentException(what + " in format " + format + "; this node reads format " + FORMAT);
    }

    private static void end(ByteBuf in, String what) {
        if (in.isReadable()) throw new IllegalArgumentException(in.readableBytes() + " bytes after the end of a " + what);
    }
}
