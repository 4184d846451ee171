package ballot.cql.statement;

import ballot.cql.data.Cell;
import ballot.cql.data.LivenessInfo;
import ballot.cql.data.Row;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.type.CqlType;
import ballot.cql.type.ListType;
import ballot.cql.type.MapType;
import ballot.cql.type.SetType;
import ballot.cql.type.UserType;
import java.nio.ByteBuffer;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One result row as columns see it at a point in time: key columns from the partition key and clustering, other
 * columns from the live cells of the row (or the partition's static row), multi-cell columns assembled from their
 * element cells. A column without live data is null; an empty collection is null, as in Cassandra.
 */
final class RowView {
    private final ByteBuffer[] partitionKey;
    private final Row row;
    private final Row staticRow;
    private final int nowInSec;

    RowView(ByteBuffer[] partitionKey, Row row, Row staticRow, int nowInSec) {
        this.partitionKey = partitionKey;
        this.row = row;
        this.staticRow = staticRow;
        this.nowInSec = nowInSec;
    }

    ByteBuffer[] partitionKey() {
        return partitionKey;
    }

    /**
     * This row as a read of {@code columns} sees it: the other regular and static columns' values left out, as a read
     * with a column selection leaves them.
     */
    RowView reading(Set<ColumnMetadata> columns) {
        Set<Integer> ids = new HashSet<>();
        for (ColumnMetadata c : columns) ids.add(c.id());
        return new RowView(partitionKey, only(row, ids), only(staticRow, ids), nowInSec);
    }

    private static Row only(Row source, Set<Integer> columns) {
        if (source == null) return null;
        List<Cell> kept = new ArrayList<>();
        for (Cell cell : source.cells()) if (columns.contains(cell.column())) kept.add(cell);
        return new Row(source.clustering(), source.liveness(), source.deletion(), kept, source.complexDeletions());
    }

    /** Whether a read returns this row: its primary key or one of its cells is live (the static row's, for the static row alone). */
    boolean isLive() {
        Row source = row != null ? row : staticRow;
        return source != null && source.hasLiveData(nowInSec);
    }

    Row row() {
        return row;
    }

    /** The partition's static row, or null. */
    Row staticRow() {
        return staticRow;
    }

    ByteBuffer value(ColumnMetadata c) {
        switch (c.kind()) {
            case PARTITION_KEY:
                return partitionKey[c.position()].duplicate();
            case CLUSTERING:
                return row == null ? null : row.clustering().get(c.position());
            default:
                Row source = c.isStatic() ? staticRow : row;
                if (source == null) return null;
                return c.type().isMultiCell() ? assemble(c, source) : simple(c, source);
        }
    }

    /** The live cell of a simple column, or null. */
    Cell cell(ColumnMetadata c) {
        Row source = c.isStatic() ? staticRow : row;
        if (source == null) return null;
        for (Cell cell : source.cells()) {
            if (cell.column() == c.id() && cell.path() == null) return cell.isLive(nowInSec) ? cell : null;
            if (cell.column() > c.id()) break;
        }
        return null;
    }

    /** The live element cells of a multi-cell column, in path order. */
    List<Cell> cells(ColumnMetadata c) {
        Row source = c.isStatic() ? staticRow : row;
        List<Cell> cells = new ArrayList<>();
        if (source == null) return cells;
        for (Cell cell : source.cells()) {
            if (cell.column() == c.id() && cell.isLive(nowInSec)) cells.add(cell);
            else if (cell.column() > c.id()) break;
        }
        return cells;
    }

    int nowInSec() {
        return nowInSec;
    }

    private ByteBuffer simple(ColumnMetadata c, Row source) {
        List<Cell> cells = source.cells();
        for (int i = 0; i < cells.size(); i++) {
            Cell cell = cells.get(i);
            if (cell.column() == c.id() && cell.path() == null) {
                if (!cell.isLive(nowInSec)) return null;
                return cell.counter() ? ByteBuffer.allocate(8).putLong(0, cell.counterValue()) : cell.value().duplicate();
            }
            if (cell.column() > c.id()) break;
        }
        return null;
    }

    private ByteBuffer assemble(ColumnMetadata c, Row source) {
        List<Cell> cells = cells(c);
        if (cells.isEmpty()) return null;
        CqlType type = c.type();
        if (type instanceof ListType list) {
            List<ByteBuffer> values = new ArrayList<>(cells.size());
            for (Cell cell : cells) values.add(cell.value());
            return list.pack(values);
        }
        if (type instanceof SetType set) {
            List<ByteBuffer> elements = new ArrayList<>(cells.size());
            for (Cell cell : cells) elements.add(cell.pathAsWritten());
            return set.pack(elements);
        }
        if (type instanceof MapType map) {
            List<Map.Entry<ByteBuffer, ByteBuffer>> entries = new ArrayList<>(cells.size());
            for (Cell cell : cells) entries.add(new AbstractMap.SimpleImmutableEntry<>(cell.pathAsWritten(), cell.value()));
            return map.pack(entries);
        }
        if (type instanceof UserType udt) {
            ByteBuffer[] fields = new ByteBuffer[udt.size()];
            for (Cell cell : cells) {
                int index = cell.path().getShort(cell.path().position()) & 0xFFFF;
                if (index < fields.length) fields[index] = cell.value();
            }
            return udt.pack(Arrays.asList(fields));
        }
        throw new IllegalStateException("multi-cell column " + c.name() + " of type " + type);
    }
}
