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
 * query   = format · tableId(16) · reversed(1) · count(4) · slice*
 * result  = format · sized key · content [· txn]
 * entry   = format · content [· sized state]
 * txn     = 0x00 | 0x01 · timestamp(8) · sized state
 * </pre>
 * Format 1 carries no transaction state; format 2 (docs/txn.md §11.1) does: a query of format 2 also reads the
 * partition's {@link TxnCell}, its results carry it (0x00: the partition has none), and an entry of format 2 replaces it
 * with {@code state} at the entry's timestamp.
 * An entry's timestamps are relative to the timestamp its update was evaluated with, so that a decree's entry
 * {@code i} can be written at the decree's {@code ballot.micros + i} whatever ballot decides it (a re-proposal takes
 * the new ballot's timestamps, §5.6).
 * A query reads whole slices, without limits or a read time: its result can then be advanced exactly by an update
 * ({@link CqlReadModel#apply}), and equal statement shapes give equal queries, which keeps the fast path's cache hits
 * high (§4.8). Limits are applied to the answer afterwards.
 */
public final class CqlValues {
    static final byte FORMAT = 1;
    /** The format of queries, results and entries that carry a partition's transaction state. */
    static final byte TXN_FORMAT = 2;

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

    /**
     * What a request reads of its partition: clustering slices (none: the static row only), in which order, and
     * whether it reads the partition's transaction state too.
     */
    public record Query(UUID tableId, List<Slice> slices, boolean reversed, boolean txnState) {
        public Query {
            slices = List.copyOf(slices);
        }

        public static Query of(UUID tableId, ReadSpec spec, boolean txnState) {
            return new Query(tableId, spec.slices(), spec.reversed(), txnState);
        }

        /** The storage read of this query: whole slices, no limit. */
        ReadSpec spec(int nowInSec) {
            return new ReadSpec(slices, reversed, Integer.MAX_VALUE, Integer.MAX_VALUE, nowInSec);
        }

        public Bytes encode() {
            ByteBuf out = PaxosCodec.heapBuffer(64);
            try {
                out.writeByte(txnState ? TXN_FORMAT : FORMAT);
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
            boolean txnState = format(in, "query");
            UUID table = DataCodec.readUuid(in);
            DataCodec.need(in, 1, "reversed");
            boolean reversed = in.readBoolean();
            int n = DataCodec.readCount(in);
            List<Slice> slices = new ArrayList<>(n);
            for (int i = 0; i < n; i++) slices.add(DataCodec.readSlice(in));
            end(in, "query");
            return new Query(table, slices, reversed, txnState);
        }
    }

    // ---------------------------------------------------------------- results

    /** A query's result: the partition's rows and, if the query read it, its transaction state (null: none). */
    public record Result(PartitionData data, TxnCell txn) {}

    /** A result without transaction state (a query of format 1). */
    public static Bytes encodeResult(PartitionData data) {
        return encodeResult(data, false, null);
    }

    /** A result of a query that {@code readsTxn}: carrying {@code txn} (null: the partition has none). */
    static Bytes encodeResult(PartitionData data, boolean readsTxn, TxnCell txn) {
        ByteBuf out = PaxosCodec.heapBuffer(128);
        try {
            out.writeByte(readsTxn ? TXN_FORMAT : FORMAT);
            DataCodec.writeSized(out, data.key().key());
            DataCodec.writeContent(out, data.partitionDeletion(), data.rangeTombstones(), data.staticRow(), data.rows());
            if (readsTxn) {
                out.writeBoolean(txn != null);
                if (txn != null) {
                    out.writeLong(txn.timestampMicros());
                    DataCodec.writeSized(out, ByteBuffer.wrap(txn.state()));
                }
            }
            return Bytes.wrap(ByteBufUtil.getBytes(out));
        } finally {
            out.release();
        }
    }

    static PartitionData decodeResult(Bytes bytes) {
        return decodeResultWithTxn(bytes).data();
    }

    public static Result decodeResultWithTxn(Bytes bytes) {
        ByteBuf in = Unpooled.wrappedBuffer(bytes.toByteArray());
        boolean readsTxn = format(in, "result");
        ByteBuffer key = DataCodec.readSized(in);
        if (key == null) throw new IllegalArgumentException("result without a partition key");
        DataCodec.Content c = DataCodec.readContent(in);
        TxnCell txn = null;
        if (readsTxn) {
            DataCodec.need(in, 1, "transaction state flag");
            if (in.readBoolean()) {
                DataCodec.need(in, 8, "transaction state timestamp");
                long timestamp = in.readLong();
                txn = new TxnCell(timestamp, sizedBytes(in, "transaction state"));
            }
        }
        end(in, "result");
        return new Result(new PartitionData(PartitionKey.of(key), c.deletion(), c.rangeTombstones(), c.staticRow(), c.rows()), txn);
    }

    private static byte[] sizedBytes(ByteBuf in, String what) {
        ByteBuffer b = DataCodec.readSized(in);
        if (b == null) throw new IllegalArgumentException(what + " missing");
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    // ---------------------------------------------------------------- entries

    /** An update written at {@code timestampMicros}, with its timestamps made relative to that timestamp. */
    public static Bytes encodeEntry(PartitionUpdate update, long timestampMicros) {
        return encodeEntry(update, timestampMicros, null);
    }

    /**
     * As {@link #encodeEntry(PartitionUpdate, long)}, and if {@code txnState} is not null, replacing the partition's
     * transaction state with it (empty: the partition holds none any more) at the entry's timestamp.
     */
    public static Bytes encodeEntry(PartitionUpdate update, long timestampMicros, byte[] txnState) {
        long delta = -timestampMicros;
        List<RangeTombstone> rts = new ArrayList<>(update.rangeTombstones().size());
        for (RangeTombstone rt : update.rangeTombstones()) rts.add(new RangeTombstone(rt.slice(), shift(rt.deletion(), delta)));
        List<Row> rows = new ArrayList<>(update.rows().size());
        for (Row r : update.rows()) rows.add(shift(r, delta));
        ByteBuf out = PaxosCodec.heapBuffer(128);
        try {
            out.writeByte(txnState == null ? FORMAT : TXN_FORMAT);
            DataCodec.writeContent(out, shift(update.partitionDeletion(), delta), rts,
                    update.staticRow() == null ? null : shift(update.staticRow(), delta), rows);
            if (txnState != null) DataCodec.writeSized(out, ByteBuffer.wrap(txnState));
            return Bytes.wrap(ByteBufUtil.getBytes(out));
        } finally {
            out.release();
        }
    }

    /** The update an entry describes, for the partition {@code key} of {@code tableId}, written at {@code timestampMicros}. */
    public static PartitionUpdate decodeEntry(Bytes entry, UUID tableId, PartitionKey key, long timestampMicros) {
        return decodeEntryWithTxn(entry, tableId, key, timestampMicros).update();
    }

    /** A decree entry: its update, and the transaction state it writes (null: it leaves the state as it is). */
    record Entry(PartitionUpdate update, TxnCell txn) {}

    static Entry decodeEntryWithTxn(Bytes entry, UUID tableId, PartitionKey key, long timestampMicros) {
        ByteBuf in = Unpooled.wrappedBuffer(entry.toByteArray());
        boolean writesTxn = format(in, "entry");
        DataCodec.Content c = DataCodec.readContent(in);
        TxnCell txn = writesTxn ? new TxnCell(timestampMicros, sizedBytes(in, "transaction state")) : null;
        end(in, "entry");
        List<RangeTombstone> rts = new ArrayList<>(c.rangeTombstones().size());
        for (RangeTombstone rt : c.rangeTombstones()) rts.add(new RangeTombstone(rt.slice(), shift(rt.deletion(), timestampMicros)));
        List<Row> rows = new ArrayList<>(c.rows().size());
        for (Row r : c.rows()) rows.add(shift(r, timestampMicros));
        Row staticRow = c.staticRow() == null ? null : shift(c.staticRow(), timestampMicros);
        return new Entry(new PartitionUpdate(tableId, key, shift(c.deletion(), timestampMicros), rts, staticRow, rows), txn);
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
            cells.add(c.withTimestamp(shift(c.timestamp(), delta)));
        }
        List<ComplexDeletion> complex = new ArrayList<>(row.complexDeletions().size());
        for (ComplexDeletion d : row.complexDeletions()) complex.add(new ComplexDeletion(d.column(), shift(d.deletion(), delta)));
        return new Row(row.clustering(), liveness, shift(row.deletion(), delta), cells, complex);
    }

    // ---------------------------------------------------------------- framing

    /** Reads the format byte; returns whether the value carries transaction state (format 2). */
    private static boolean format(ByteBuf in, String what) {
        DataCodec.need(in, 1, what + " format");
        int format = in.readByte();
        if (format != FORMAT && format != TXN_FORMAT)
            throw new IllegalArgumentException(what + " in format " + format + "; this node reads formats " + FORMAT + " and " + TXN_FORMAT);
        return format == TXN_FORMAT;
    }

    private static void end(ByteBuf in, String what) {
        if (in.isReadable()) throw new IllegalArgumentException(in.readableBytes() + " bytes after the end of a " + what);
    }
}
