package ballot.lwt;

import ballot.cql.data.Cell;
import ballot.cql.data.Clustering;
import ballot.cql.data.ClusteringBound;
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
import ballot.storage.FragmentCodec;
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
 * <p>Layouts (integers big-endian; {@code sized} = length(4) then bytes, length -1 for null):
 * <pre>
 * key     = tableId(16) · partitionKey
 * query   = 0x01 · tableId(16) · reversed(1) · count(4) · slice*
 * result  = 0x01 · sized key · deletion · count(4) · rangeTombstone* · hasStatic(1) [sized fragment] · count(4) · row*
 * entry   = 0x01 · deletion · count(4) · rangeTombstone* · hasStatic(1) [sized fragment] · count(4) · row*
 * slice   = inclusive(1) · values (start) · inclusive(1) · values (end);  values = count(4) · sized*
 * deletion = markedAt(8) · localDeletionTime(4);  rangeTombstone = slice · deletion;  row = values · sized fragment
 * </pre>
 * Fragments are the storage's row encoding ({@link FragmentCodec}). An entry's timestamps are relative to the
 * timestamp its update was evaluated with, so that a decree's entry {@code i} can be written at the decree's
 * {@code ballot.micros + i} whatever ballot decides it (a re-proposal takes the new ballot's timestamps, §5.6).
 * A query reads whole slices, without limits or a read time: its result can then be advanced exactly by an update
 * ({@link CqlReadModel#apply}), and equal statement shapes give equal queries, which keeps the fast path's cache hits
 * high (§4.8). Limits are applied to the answer afterwards.
 */
final class CqlValues {
    static final byte FORMAT = 1;
    private static final int ELEMENTS_MAX = 1 << 24;

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
                writeUuid(out, tableId);
                out.writeBoolean(reversed);
                out.writeInt(slices.size());
                for (Slice s : slices) writeSlice(out, s);
                return Bytes.wrap(ByteBufUtil.getBytes(out));
            } finally {
                out.release();
            }
        }

        static Query decode(Bytes bytes) {
            ByteBuf in = Unpooled.wrappedBuffer(bytes.toByteArray());
            format(in, "query");
            UUID table = readUuid(in);
            need(in, 1, "reversed");
            boolean reversed = in.readBoolean();
            int n = count(in);
            List<Slice> slices = new ArrayList<>(n);
            for (int i = 0; i < n; i++) slices.add(readSlice(in));
            end(in, "query");
            return new Query(table, slices, reversed);
        }
    }

    // ---------------------------------------------------------------- results

    static Bytes encodeResult(PartitionData data) {
        ByteBuf out = PaxosCodec.heapBuffer(128);
        try {
            out.writeByte(FORMAT);
            writeSized(out, data.key().key());
            writeContent(out, data.partitionDeletion(), data.rangeTombstones(), data.staticRow(), data.rows());
            return Bytes.wrap(ByteBufUtil.getBytes(out));
        } finally {
            out.release();
        }
    }

    static PartitionData decodeResult(Bytes bytes) {
        ByteBuf in = Unpooled.wrappedBuffer(bytes.toByteArray());
        format(in, "result");
        ByteBuffer key = readSized(in);
        if (key == null) throw new IllegalArgumentException("result without a partition key");
        DeletionTime deletion = readDeletion(in);
        List<RangeTombstone> rts = readRangeTombstones(in);
        Row staticRow = readStatic(in);
        List<Row> rows = readRows(in);
        end(in, "result");
        return new PartitionData(PartitionKey.of(key), deletion, rts, staticRow, rows);
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
            writeContent(out, shift(update.partitionDeletion(), delta), rts,
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
        DeletionTime deletion = shift(readDeletion(in), timestampMicros);
        List<RangeTombstone> rts = new ArrayList<>();
        for (RangeTombstone rt : readRangeTombstones(in)) rts.add(new RangeTombstone(rt.slice(), shift(rt.deletion(), timestampMicros)));
        Row staticRow = readStatic(in);
        List<Row> rows = new ArrayList<>();
        for (Row r : readRows(in)) rows.add(shift(r, timestampMicros));
        end(in, "entry");
        return new PartitionUpdate(tableId, key, deletion, rts, staticRow == null ? null : shift(staticRow, timestampMicros), rows);
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

    // ---------------------------------------------------------------- building blocks

    private static void writeContent(ByteBuf out, DeletionTime deletion, List<RangeTombstone> rts, Row staticRow, List<Row> rows) {
        writeDeletion(out, deletion);
        out.writeInt(rts.size());
        for (RangeTombstone rt : rts) {
            writeSlice(out, rt.slice());
            writeDeletion(out, rt.deletion());
        }
        boolean hasStatic = staticRow != null && !staticRow.isEmpty();
        out.writeBoolean(hasStatic);
        if (hasStatic) writeSized(out, ByteBuffer.wrap(FragmentCodec.encode(staticRow)));
        out.writeInt(rows.size());
        for (Row r : rows) {
            writeValues(out, r.clustering().values());
            writeSized(out, ByteBuffer.wrap(FragmentCodec.encode(r)));
        }
    }

    private static List<RangeTombstone> readRangeTombstones(ByteBuf in) {
        int n = count(in);
        List<RangeTombstone> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(new RangeTombstone(readSlice(in), readDeletion(in)));
        return out;
    }

    private static Row readStatic(ByteBuf in) {
        need(in, 1, "static flag");
        return in.readBoolean() ? FragmentCodec.decode(Clustering.STATIC, fragment(in)) : null;
    }

    private static List<Row> readRows(ByteBuf in) {
        int n = count(in);
        List<Row> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Clustering clustering = Clustering.of(readValues(in));
            rows.add(FragmentCodec.decode(clustering, fragment(in)));
        }
        return rows;
    }

    private static byte[] fragment(ByteBuf in) {
        ByteBuffer b = readSized(in);
        if (b == null) throw new IllegalArgumentException("missing row fragment");
        return b.array();
    }

    static void writeUuid(ByteBuf out, UUID id) {
        out.writeLong(id.getMostSignificantBits()).writeLong(id.getLeastSignificantBits());
    }

    static UUID readUuid(ByteBuf in) {
        need(in, 16, "table id");
        return new UUID(in.readLong(), in.readLong());
    }

    private static void writeDeletion(ByteBuf out, DeletionTime d) {
        out.writeLong(d.markedAt()).writeInt(d.localDeletionTime());
    }

    private static DeletionTime readDeletion(ByteBuf in) {
        need(in, 12, "deletion");
        long markedAt = in.readLong();
        int ldt = in.readInt();
        return markedAt == Long.MIN_VALUE ? DeletionTime.LIVE : new DeletionTime(markedAt, ldt);
    }

    private static void writeSlice(ByteBuf out, Slice slice) {
        out.writeBoolean(slice.start().inclusive());
        writeValues(out, slice.start().prefix());
        out.writeBoolean(slice.end().inclusive());
        writeValues(out, slice.end().prefix());
    }

    private static Slice readSlice(ByteBuf in) {
        need(in, 1, "slice start");
        boolean startInclusive = in.readBoolean();
        ByteBuffer[] start = readValues(in);
        need(in, 1, "slice end");
        boolean endInclusive = in.readBoolean();
        ByteBuffer[] end = readValues(in);
        return new Slice(new ClusteringBound(start, startInclusive), new ClusteringBound(end, endInclusive));
    }

    private static void writeValues(ByteBuf out, ByteBuffer[] values) {
        out.writeInt(values.length);
        for (ByteBuffer v : values) writeSized(out, v);
    }

    private static ByteBuffer[] readValues(ByteBuf in) {
        int n = count(in);
        ByteBuffer[] values = new ByteBuffer[n];
        for (int i = 0; i < n; i++) values[i] = readSized(in);
        return values;
    }

    private static void writeSized(ByteBuf out, ByteBuffer value) {
        if (value == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(value.remaining());
        out.writeBytes(value.duplicate());
    }

    private static ByteBuffer readSized(ByteBuf in) {
        need(in, 4, "length");
        int length = in.readInt();
        if (length < 0) return null;
        need(in, length, "value");
        byte[] bytes = new byte[length];
        in.readBytes(bytes);
        return ByteBuffer.wrap(bytes);
    }

    private static int count(ByteBuf in) {
        need(in, 4, "count");
        int n = in.readInt();
        if (n < 0 || n > ELEMENTS_MAX) throw new IllegalArgumentException("bad element count " + n);
        return n;
    }

    private static void format(ByteBuf in, String what) {
        need(in, 1, what + " format");
        int format = in.readByte();
        if (format != FORMAT) throw new IllegalArgumentException(what + " in format " + format + "; this node reads format " + FORMAT);
    }

    private static void end(ByteBuf in, String what) {
        if (in.isReadable()) throw new IllegalArgumentException(in.readableBytes() + " bytes after the end of a " + what);
    }

    private static void need(ByteBuf in, int bytes, String what) {
        if (in.readableBytes() < bytes) {
            throw new IllegalArgumentException(what + " needs " + bytes + " bytes; only " + in.readableBytes() + " remain");
        }
    }
}
