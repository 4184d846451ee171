package ballot.cql.index;

import ballot.cql.data.Cell;
import ballot.cql.data.Row;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.IndexMetadata;
import ballot.cql.schema.IndexTarget;
import ballot.cql.schema.TableMetadata;
import ballot.cql.type.ComparableBytesWriter;
import ballot.cql.type.CqlType;
import ballot.cql.type.ListType;
import ballot.cql.type.MapType;
import ballot.cql.type.SetType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The terms an index holds for a row: the order-preserving encodings ({@link CqlType#encodeComparable}) of the
 * values its target sees, text analyzed first. A write's fragments and a read's merged rows go through the same
 * extraction, so a replica can check a candidate against the entry that produced it (docs/indexes.md).
 */
public final class IndexTerms {
    private final IndexMetadata index;
    private final ColumnMetadata column;
    private final IndexTarget.Type part;
    private final CqlType termType;
    private final MapType entryType;
    private final TextAnalyzer analyzer;

    private IndexTerms(IndexMetadata index, ColumnMetadata column, IndexTarget.Type part, CqlType termType, MapType entryType,
            TextAnalyzer analyzer) {
        this.index = index;
        this.column = column;
        this.part = part;
        this.termType = termType;
        this.entryType = entryType;
        this.analyzer = analyzer;
    }

    /** The terms of {@code index} on {@code table}, whose definition was validated when the index was created. */
    public static IndexTerms of(TableMetadata table, IndexMetadata index) {
        IndexTarget target = index.target();
        ColumnMetadata column = table.column(target.column());
        if (column == null) throw new IllegalStateException("index " + index.name() + " targets missing column " + target.column());
        return new IndexTerms(index, column, target.type(), termType(column.type(), target.type()),
                target.type() == IndexTarget.Type.ENTRIES ? (MapType) column.type() : null, TextAnalyzer.of(index.analyzerOptions()));
    }

    /** The type of one term's value: the column's, or its elements', keys' or values' (null for entries). */
    static CqlType termType(CqlType type, IndexTarget.Type part) {
        return switch (part) {
            case SIMPLE, FULL -> type;
            case KEYS -> ((MapType) type).keys();
            case ENTRIES -> null;
            case VALUES -> type instanceof ListType list ? list.elements()
                    : type instanceof SetType set ? set.elements() : ((MapType) type).values();
        };
    }

    public IndexMetadata index() {
        return index;
    }

    public ColumnMetadata column() {
        return column;
    }

    public TextAnalyzer analyzer() {
        return analyzer;
    }

    /** Whether an entry selects a whole partition (static and partition key targets) rather than one row. */
    public boolean selectsPartitions() {
        return column.isStatic() || column.kind() == ColumnMetadata.Kind.PARTITION_KEY;
    }

    /** The type of a term's value; null for map entries. */
    public CqlType termType() {
        return termType;
    }

    /**
     * The terms a write's fragment carries: every value it writes, expiring or not (liveness is judged when the entry
     * is read). A fragment that only deletes carries none.
     */
    public List<byte[]> ofWrite(ByteBuffer[] partitionKey, Row fragment) {
        List<byte[]> out = new ArrayList<>();
        if (StorageAttachedIndex.isAnn(column)) return out; // ANN queries score every row instead
        switch (column.kind()) {
            case PARTITION_KEY -> {
                if (carriesData(fragment)) out.add(term(partitionKey[column.position()]));
            }
            case CLUSTERING -> {
                if (!fragment.isStatic() && carriesData(fragment)) out.add(term(fragment.clustering().get(column.position())));
            }
            default -> {
                if (fragment.isStatic() == column.isStatic()) addCells(fragment, Integer.MIN_VALUE, out);
            }
        }
        return out;
    }

    /** The terms of the live data a reader sees: of {@code row} (null for a partition without rows) or its static row. */
    public List<byte[]> ofLive(ByteBuffer[] partitionKey, Row row, Row staticRow, int nowInSec) {
        List<byte[]> out = new ArrayList<>();
        if (StorageAttachedIndex.isAnn(column)) return out;
        switch (column.kind()) {
            case PARTITION_KEY -> out.add(term(partitionKey[column.position()]));
            case CLUSTERING -> {
                if (row != null && row.hasLiveData(nowInSec)) out.add(term(row.clustering().get(column.position())));
            }
            default -> {
                Row source = column.isStatic() ? staticRow : row;
                if (source != null) addCells(source, nowInSec, out);
            }
        }
        return out;
    }

    /** Cells of the column, live at {@code nowInSec} ({@code Integer.MIN_VALUE}: every cell with a value). */
    private void addCells(Row row, int nowInSec, List<byte[]> out) {
        for (Cell cell : row.cells()) {
            if (cell.column() != column.id() || cell.value() == null) continue;
            if (nowInSec != Integer.MIN_VALUE && !cell.isLive(nowInSec)) continue;
            switch (part) {
                case SIMPLE, FULL -> {
                    if (cell.path() == null) out.add(term(cell.value()));
                }
                case KEYS -> out.add(term(cell.path()));
                case ENTRIES -> out.add(entryTerm(cell.path(), cell.value()));
                case VALUES -> out.add(term(column.type() instanceof SetType ? cell.path() : cell.value()));
            }
        }
    }

    private static boolean carriesData(Row fragment) {
        if (!fragment.liveness().isEmpty()) return true;
        for (Cell cell : fragment.cells()) if (cell.value() != null) return true;
        return false;
    }

    /** The term of one value of the term type (a query's bound value, or a value read). */
    public byte[] term(ByteBuffer value) {
        ComparableBytesWriter out = new ComparableBytesWriter(value.remaining() + 8);
        termType.encodeComparable(analyze(termType, value), out);
        return out.toByteArray();
    }

    /** The term of a map entry: the key's encoding followed by the value's (both prefix-free). */
    public byte[] entryTerm(ByteBuffer key, ByteBuffer value) {
        ComparableBytesWriter out = new ComparableBytesWriter(key.remaining() + value.remaining() + 8);
        entryType.keys().encodeComparable(analyze(entryType.keys(), key), out);
        entryType.values().encodeComparable(analyze(entryType.values(), value), out);
        return out.toByteArray();
    }

    private ByteBuffer analyze(CqlType type, ByteBuffer value) {
        if (!analyzer.transforms() || !(type.kind() == CqlType.Kind.TEXT || type.kind() == CqlType.Kind.ASCII)) return value;
        return type.decompose(analyzer.analyze((String) type.compose(value)));
    }
}
