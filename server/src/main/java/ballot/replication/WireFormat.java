package ballot.replication;

import ballot.cql.data.Clustering;
import ballot.cql.data.ClusteringBound;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.RangeTombstone;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Row;
import ballot.cql.data.Slice;
import ballot.cql.data.TokenRange;
import ballot.storage.FragmentCodec;
import ballot.storage.Mutation;
import ballot.storage.WriteId;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The internode form of the data model: mutations, read commands and partitions. Rows use the storage fragment
 * encoding; everything else is length-prefixed. Decoding checks lengths and fails on malformed input.
 */
final class WireFormat {
    private static final int MAX_ELEMENTS = 1 << 24;

    private WireFormat() {}

    static void writeUuid(ByteBuf out, UUID id) {
        out.writeLong(id.getMostSignificantBits()).writeLong(id.getLeastSignificantBits());
    }

    static UUID readUuid(ByteBuf in) {
        return new UUID(in.readLong(), in.readLong());
    }

    static void writeBytes(ByteBuf out, ByteBuffer value) {
        if (value == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(value.remaining());
        out.writeBytes(value.duplicate());
    }

    static ByteBuffer readBytes(ByteBuf in) {
        int length = in.readInt();
        if (length < 0) return null;
        if (length > in.readableBytes()) throw new IllegalArgumentException("truncated value: " + length + " bytes announced");
        byte[] bytes = new byte[length];
        in.readBytes(bytes);
        return ByteBuffer.wrap(bytes);
    }

    static int readCount(ByteBuf in) {
        int n = in.readInt();
        if (n < 0 || n > MAX_ELEMENTS) throw new IllegalArgumentException("bad element count " + n);
        return n;
    }

    static void writeKey(ByteBuf out, PartitionKey key) {
        writeBytes(out, key.key());
    }

    static PartitionKey readKey(ByteBuf in) {
        return PartitionKey.of(readBytes(in));
    }

    static void writeDeletion(ByteBuf out, DeletionTime d) {
        out.writeLong(d.markedAt()).writeInt(d.localDeletionTime());
    }

    static DeletionTime readDeletion(ByteBuf in) {
        long markedAt = in.readLong();
        int ldt = in.readInt();
        return markedAt == Long.MIN_VALUE ? DeletionTime.LIVE : new DeletionTime(markedAt, ldt);
    }

    static void writeValues(ByteBuf out, ByteBuffer[] values) {
        out.writeInt(values.length);
        for (ByteBuffer v : values) writeBytes(out, v);
    }

    static ByteBuffer[] readValues(ByteBuf in) {
        int n = readCount(in);
        ByteBuffer[] values = new ByteBuffer[n];
        for (int i = 0; i < n; i++) values[i] = readBytes(in);
        return values;
    }

    static void writeRow(ByteBuf out, Row row) {
        out.writeBoolean(row.isStatic());
        if (!row.isStatic()) writeValues(out, row.clustering().values());
        byte[] fragment = FragmentCodec.encode(row);
        out.writeInt(fragment.length).writeBytes(fragment);
    }

    static Row readRow(ByteBuf in) {
        boolean isStatic = in.readBoolean();
        Clustering clustering = isStatic ? Clustering.STATIC : Clustering.of(readValues(in));
        int length = readCount(in);
        byte[] fragment = new byte[length];
        in.readBytes(fragment);
        return FragmentCodec.decode(clustering, fragment);
    }

    static void writeSlice(ByteBuf out, Slice slice) {
        out.writeBoolean(slice.start().inclusive());
        writeValues(out, slice.start().prefix());
        out.writeBoolean(slice.end().inclusive());
        writeValues(out, slice.end().prefix());
    }

    static Slice readSlice(ByteBuf in) {
        boolean startInclusive = in.readBoolean();
        ByteBuffer[] start = readValues(in);
        boolean endInclusive = in.readBoolean();
        ByteBuffer[] end = readValues(in);
        return new Slice(new ClusteringBound(start, startInclusive), new ClusteringBound(end, endInclusive));
    }

    static void writeRangeTombstones(ByteBuf out, List<RangeTombstone> tombstones) {
        out.writeInt(tombstones.size());
        for (RangeTombstone rt : tombstones) {
            writeSlice(out, rt.slice());
            writeDeletion(out, rt.deletion());
        }
    }

    static List<RangeTombstone> readRangeTombstones(ByteBuf in) {
        int n = readCount(in);
        List<RangeTombstone> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(new RangeTombstone(readSlice(in), readDeletion(in)));
        return out;
    }

    static void writeUpdate(ByteBuf out, PartitionUpdate u) {
        writeUuid(out, u.tableId());
        writeKey(out, u.key());
        writeDeletion(out, u.partitionDeletion());
        writeRangeTombstones(out, u.rangeTombstones());
        out.writeBoolean(u.staticRow() != null);
        if (u.staticRow() != null) writeRow(out, u.staticRow());
        out.writeInt(u.rows().size());
        for (Row r : u.rows()) writeRow(out, r);
    }

    static PartitionUpdate readUpdate(ByteBuf in) {
        UUID table = readUuid(in);
        PartitionKey key = readKey(in);
        DeletionTime deletion = readDeletion(in);
        List<RangeTombstone> rts = readRangeTombstones(in);
        Row staticRow = in.readBoolean() ? readRow(in) : null;
        int n = readCount(in);
        List<Row> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) rows.add(readRow(in));
        return new PartitionUpdate(table, key, deletion, rts, staticRow, rows);
    }

    static void writeMutation(ByteBuf out, Mutation m) {
        out.writeBytes(m.writeId());
        writeUpdate(out, m.update());
    }

    static Mutation readMutation(ByteBuf in) {
        byte[] id = new byte[WriteId.BYTES];
        in.readBytes(id);
        return new Mutation(readUpdate(in), id);
    }

    static void writePartition(ByteBuf out, PartitionData p) {
        writeKey(out, p.key());
        writeDeletion(out, p.partitionDeletion());
        writeRangeTombstones(out, p.rangeTombstones());
        out.writeBoolean(p.staticRow() != null);
        if (p.staticRow() != null) writeRow(out, p.staticRow());
        out.writeInt(p.rows().size());
        for (Row r : p.rows()) writeRow(out, r);
    }

    static PartitionData readPartition(ByteBuf in) {
        PartitionKey key = readKey(in);
        DeletionTime deletion = readDeletion(in);
        List<RangeTombstone> rts = readRangeTombstones(in);
        Row staticRow = in.readBoolean() ? readRow(in) : null;
        int n = readCount(in);
        List<Row> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) rows.add(readRow(in));
        return new PartitionData(key, deletion, rts, staticRow, rows);
    }

    static void writeReadSpec(ByteBuf out, ReadSpec spec) {
        out.writeInt(spec.slices().size());
        for (Slice s : spec.slices()) writeSlice(out, s);
        out.writeBoolean(spec.reversed());
        out.writeInt(spec.rowLimit()).writeInt(spec.partitionRowLimit()).writeInt(spec.nowInSec());
    }

    static ReadSpec readReadSpec(ByteBuf in) {
        int n = readCount(in);
        List<Slice> slices = new ArrayList<>(n);
        for (int i = 0; i < n; i++) slices.add(readSlice(in));
        boolean reversed = in.readBoolean();
        return new ReadSpec(slices, reversed, in.readInt(), in.readInt(), in.readInt());
    }

    static void writeRange(ByteBuf out, TokenRange range) {
        out.writeLong(range.start());
        out.writeBoolean(range.startAfter() != null);
        if (range.startAfter() != null) writeKey(out, range.startAfter());
        out.writeLong(range.end());
    }

    static TokenRange readRange(ByteBuf in) {
        long start = in.readLong();
        PartitionKey after = in.readBoolean() ? readKey(in) : null;
        return new TokenRange(start, after, in.readLong());
    }
}
