package ballot.storage;

import ballot.cql.data.Cell;
import ballot.cql.data.Clustering;
import ballot.cql.data.ComplexDeletion;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.LivenessInfo;
import ballot.cql.data.Row;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The stored form of a row fragment (the value under a row or static key; the clustering is in the key, in the
 * order-preserving encoding that reads back canonical, so a clustering written otherwise, the decimal 2.50, is kept
 * here as written):
 * <pre>
 * flags(1) [clustering: n(vint) value(sized)*] [liveness: ts(8) ttl(vint) expiry(4)] [deletion: markedAt(8) ldt(4)]
 * [complex deletions: n(vint) (column(vint) markedAt(8) ldt(4))*] cells: n(vint) cell*
 * cell = column(vint) cellFlags(1) ts(8) [ttl(vint)] [ldt(4)] [path(sized)] [writtenPath(sized)] [value(sized)]
 * </pre>
 */
public final class FragmentCodec {
    private static final int HAS_LIVENESS = 1;
    private static final int HAS_DELETION = 2;
    private static final int HAS_COMPLEX_DELETIONS = 4;
    private static final int HAS_CLUSTERING = 8;

    private static final int CELL_TOMBSTONE = 1;
    private static final int CELL_EXPIRING = 2;
    private static final int CELL_PATH = 4;
    private static final int CELL_COUNTER = 8;
    private static final int CELL_WRITTEN_PATH = 16;

    private FragmentCodec() {}

    /** A fragment without its clustering: the key holds it, or the message beside it. */
    public static byte[] encode(Row row) {
        return encode(row, false);
    }

    /** A fragment that keeps its row's clustering as written if {@code withClustering}. */
    public static byte[] encode(Row row, boolean withClustering) {
        ByteWriter out = new ByteWriter(32 + row.cells().size() * 24);
        int flags = (row.liveness().isEmpty() ? 0 : HAS_LIVENESS) | (row.deletion().isLive() ? 0 : HAS_DELETION)
                | (row.complexDeletions().isEmpty() ? 0 : HAS_COMPLEX_DELETIONS) | (withClustering ? HAS_CLUSTERING : 0);
        out.writeByte(flags);
        if (withClustering) {
            out.writeVInt(row.clustering().size());
            for (ByteBuffer value : row.clustering().values()) out.writeSized(value);
        }
        if (!row.liveness().isEmpty()) {
            out.writeLong(row.liveness().timestamp()).writeVInt(row.liveness().ttl()).writeInt(row.liveness().localExpirationTime());
        }
        if (!row.deletion().isLive()) {
            out.writeLong(row.deletion().markedAt()).writeInt(row.deletion().localDeletionTime());
        }
        if (!row.complexDeletions().isEmpty()) {
            out.writeVInt(row.complexDeletions().size());
            for (ComplexDeletion d : row.complexDeletions()) {
                out.writeVInt(d.column()).writeLong(d.deletion().markedAt()).writeInt(d.deletion().localDeletionTime());
            }
        }
        out.writeVInt(row.cells().size());
        for (Cell cell : row.cells()) {
            int cellFlags = (cell.isTombstone() ? CELL_TOMBSTONE : 0) | (cell.isExpiring() ? CELL_EXPIRING : 0)
                    | (cell.path() != null ? CELL_PATH : 0) | (cell.counter() ? CELL_COUNTER : 0)
                    | (cell.writtenPath() != null ? CELL_WRITTEN_PATH : 0);
            out.writeVInt(cell.column()).writeByte(cellFlags).writeLong(cell.timestamp());
            if (cell.isExpiring()) out.writeVInt(cell.ttl());
            if (cell.isExpiring() || cell.isTombstone()) out.writeInt(cell.localDeletionTime());
            if (cell.path() != null) out.writeSized(cell.path());
            if (cell.writtenPath() != null) out.writeSized(cell.writtenPath());
            if (!cell.isTombstone()) out.writeSized(cell.value());
        }
        return out.toByteArray();
    }

    /** A fragment's row, at the clustering it keeps as written or else at {@code clustering}. */
    public static Row decode(Clustering clustering, byte[] bytes) {
        ByteReader in = new ByteReader(bytes);
        int flags = in.readByte();
        if ((flags & HAS_CLUSTERING) != 0) {
            ByteBuffer[] values = new ByteBuffer[(int) in.readVInt()];
            for (int i = 0; i < values.length; i++) values[i] = in.readSized();
            clustering = Clustering.of(values);
        }
        LivenessInfo liveness = LivenessInfo.EMPTY;
        if ((flags & HAS_LIVENESS) != 0) {
            long ts = in.readLong();
            int ttl = (int) in.readVInt();
            liveness = new LivenessInfo(ts, ttl, in.readInt());
        }
        DeletionTime deletion = DeletionTime.LIVE;
        if ((flags & HAS_DELETION) != 0) deletion = new DeletionTime(in.readLong(), in.readInt());
        List<ComplexDeletion> complexDeletions = List.of();
        if ((flags & HAS_COMPLEX_DELETIONS) != 0) {
            int n = (int) in.readVInt();
            complexDeletions = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int column = (int) in.readVInt();
                complexDeletions.add(new ComplexDeletion(column, new DeletionTime(in.readLong(), in.readInt())));
            }
        }
        int n = (int) in.readVInt();
        List<Cell> cells = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int column = (int) in.readVInt();
            int cellFlags = in.readByte();
            long ts = in.readLong();
            boolean expiring = (cellFlags & CELL_EXPIRING) != 0;
            boolean tombstone = (cellFlags & CELL_TOMBSTONE) != 0;
            int ttl = expiring ? (int) in.readVInt() : 0;
            int ldt = expiring || tombstone ? in.readInt() : Cell.NO_DELETION_TIME;
            var path = (cellFlags & CELL_PATH) != 0 ? in.readSized() : null;
            var writtenPath = (cellFlags & CELL_WRITTEN_PATH) != 0 ? in.readSized() : null;
            var value = tombstone ? null : in.readSized();
            cells.add(new Cell(column, path, value, ts, ttl, ldt, (cellFlags & CELL_COUNTER) != 0, writtenPath));
        }
        if (in.hasRemaining()) throw new IllegalStateException("corrupt row fragment: " + bytes.length + " bytes, decoded up to " + in.position());
        return new Row(clustering, liveness, deletion, cells, complexDeletions);
    }
}
