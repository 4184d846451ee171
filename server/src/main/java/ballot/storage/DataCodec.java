package ballot.storage;

import ballot.cql.data.Clustering;
import ballot.cql.data.ClusteringBound;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.RangeTombstone;
import ballot.cql.data.Row;
import ballot.cql.data.Slice;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The one byte form of the data model's parts, shared by internode messages and the Paxos registers (which persist
 * it, so it must stay readable). Integers are big-endian; decoding checks every length and count and fails with
 * IllegalArgumentException on malformed input.
 * <pre>
 * sized    = length(4) · bytes  (length -1: null)          values   = count(4) · sized*
 * deletion = markedAt(8) · localDeletionTime(4)            slice    = inclusive(1) · values · inclusive(1) · values
 * content  = deletion · count(4) · (slice · deletion)* · hasStatic(1) [sized fragment] · count(4) · (values · sized fragment)*
 * </pre>
 * A fragment is the storage's row encoding ({@link FragmentCodec}); content is a partition's deletion, range
 * tombstones, static row and rows.
 */
public final class DataCodec {
    private static final int ELEMENTS_MAX = 1 << 24;

    /** A partition's content as {@link #writeContent} wrote it. */
    public record Content(DeletionTime deletion, List<RangeTombstone> rangeTombstones, Row staticRow, List<Row> rows) {}

    private DataCodec() {}

    public static void writeUuid(ByteBuf out, UUID id) {
        out.writeLong(id.getMostSignificantBits()).writeLong(id.getLeastSignificantBits());
    }

    public static UUID readUuid(ByteBuf in) {
        need(in, 16, "uuid");
        return new UUID(in.readLong(), in.readLong());
    }

    public static void writeSized(ByteBuf out, ByteBuffer value) {
        if (value == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(value.remaining());
        out.writeBytes(value.duplicate());
    }

    public static ByteBuffer readSized(ByteBuf in) {
        need(in, 4, "length");
        int length = in.readInt();
        if (length < 0) return null;
        need(in, length, "value");
        byte[] bytes = new byte[length];
        in.readBytes(bytes);
        return ByteBuffer.wrap(bytes);
    }

    /** A count of elements that follow, at most 2^24. */
    public static int readCount(ByteBuf in) {
        need(in, 4, "count");
        int n = in.readInt();
        if (n < 0 || n > ELEMENTS_MAX) throw new IllegalArgumentException("bad element count " + n);
        return n;
    }

    public static void writeValues(ByteBuf out, ByteBuffer[] values) {
        out.writeInt(values.length);
        for (ByteBuffer v : values) writeSized(out, v);
    }

    public static ByteBuffer[] readValues(ByteBuf in) {
        int n = readCount(in);
        ByteBuffer[] values = new ByteBuffer[n];
        for (int i = 0; i < n; i++) values[i] = readSized(in);
        return values;
    }

    public static void writeDeletion(ByteBuf out, DeletionTime d) {
        out.writeLong(d.markedAt()).writeInt(d.localDeletionTime());
    }

    public static DeletionTime readDeletion(ByteBuf in) {
        need(in, 12, "deletion");
        long markedAt = in.readLong();
        int ldt = in.readInt();
        return markedAt == Long.MIN_VALUE ? DeletionTime.LIVE : new DeletionTime(markedAt, ldt);
    }

    public static void writeSlice(ByteBuf out, Slice slice) {
        out.writeBoolean(slice.start().inclusive());
        writeValues(out, slice.start().prefix());
        out.writeBoolean(slice.end().inclusive());
        writeValues(out, slice.end().prefix());
    }

    public static Slice readSlice(ByteBuf in) {
        need(in, 1, "slice start");
        boolean startInclusive = in.readBoolean();
        ByteBuffer[] start = readValues(in);
        need(in, 1, "slice end");
        boolean endInclusive = in.readBoolean();
        ByteBuffer[] end = readValues(in);
        return new Slice(new ClusteringBound(start, startInclusive), new ClusteringBound(end, endInclusive));
    }

    /** A partition's content; an empty static row is left out (it reads back as none). */
    public static void writeContent(ByteBuf out, DeletionTime deletion, List<RangeTombstone> rts, Row staticRow, List<Row> rows) {
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

    public static Content readContent(ByteBuf in) {
        DeletionTime deletion = readDeletion(in);
        int tombstones = readCount(in);
        List<RangeTombstone> rts = new ArrayList<>(tombstones);
        for (int i = 0; i < tombstones; i++) rts.add(new RangeTombstone(readSlice(in), readDeletion(in)));
        need(in, 1, "static flag");
        Row staticRow = in.readBoolean() ? FragmentCodec.decode(Clustering.STATIC, fragment(in)) : null;
        int n = readCount(in);
        List<Row> rows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Clustering clustering = Clustering.of(readValues(in));
            rows.add(FragmentCodec.decode(clustering, fragment(in)));
        }
        return new Content(deletion, rts, staticRow, rows);
    }

    private static byte[] fragment(ByteBuf in) {
        ByteBuffer b = readSized(in);
        if (b == null) throw new IllegalArgumentException("missing row fragment");
        return b.array();
    }

    /** Fails unless {@code bytes} more can be read: what they are for names the failure. */
    public static void need(ByteBuf in, int bytes, String what) {
        if (in.readableBytes() < bytes) {
            throw new IllegalArgumentException(what + " needs " + bytes + " bytes; only " + in.readableBytes() + " remain");
        }
    }
}
