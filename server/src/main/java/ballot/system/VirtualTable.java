package ballot.system;

import ballot.cql.data.Cell;
import ballot.cql.data.Clustering;
import ballot.cql.data.ClusteringBound;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.LivenessInfo;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Row;
import ballot.cql.data.Slice;
import ballot.cql.data.TokenRange;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.TableMetadata;
import ballot.cql.type.CqlType;
import ballot.cql.type.MapType;
import ballot.cql.type.SetType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * A table whose rows the node generates on each read (system.local, system_schema.*, system.paxos): rows as column-name
 * to Java value maps from a {@link Source}, turned into partitions in token order and rows in clustering order, then
 * sliced like stored data.
 */
public final class VirtualTable {
    /**
     * Where a virtual table's rows come from, in any order. A source may return rows beyond those asked for; the table
     * drops them, so a source that cannot look rows up may simply return all of them ({@link #of}).
     */
    public interface Source {
        /** The rows of the partition with this key. */
        List<Map<String, Object>> partition(PartitionKey key);

        /** The rows of at least the first {@code partitionsMax} partitions in {@code range}, in token order. */
        List<Map<String, Object>> partitions(TokenRange range, int partitionsMax);

        /** A source whose every read generates all the table's rows: for tables of a few rows. */
        static Source of(Supplier<List<Map<String, Object>>> rows) {
            return new Source() {
                @Override
                public List<Map<String, Object>> partition(PartitionKey key) {
                    return rows.get();
                }

                @Override
                public List<Map<String, Object>> partitions(TokenRange range, int partitionsMax) {
                    return rows.get();
                }
            };
        }
    }

    private final TableMetadata metadata;
    private final Source source;

    public VirtualTable(TableMetadata metadata, Source source) {
        this.metadata = metadata;
        this.source = source;
    }

    public TableMetadata metadata() {
        return metadata;
    }

    public PartitionData read(PartitionKey key, ReadSpec spec) {
        for (PartitionData p : partitions(source.partition(key))) {
            if (p.key().equals(key)) return slice(p, spec, Math.min(spec.rowLimit(), spec.partitionRowLimit()));
        }
        return new PartitionData(key, DeletionTime.LIVE, List.of(), null, List.of());
    }

    /**
     * The range's partitions with rows in {@code spec}'s slices, up to the limits. Asks the source for as many
     * partitions as could still fit, and again after the last one it returned when slicing left too few: a short
     * answer would tell the pager the range is exhausted.
     */
    public List<PartitionData> scan(TokenRange range, ReadSpec spec, int partitionLimit) {
        List<PartitionData> out = new ArrayList<>();
        int rowsLeft = spec.rowLimit();
        TokenRange rest = range;
        while (out.size() < partitionLimit && rowsLeft > 0) {
            int wanted = Math.min(partitionLimit - out.size(), rowsLeft);
            List<PartitionData> batch = new ArrayList<>();
            for (PartitionData p : partitions(source.partitions(rest, wanted))) if (rest.contains(p.key())) batch.add(p);
            for (PartitionData p : batch) {
                if (out.size() >= partitionLimit || rowsLeft <= 0) break;
                PartitionData sliced = slice(p, spec, Math.min(rowsLeft, spec.partitionRowLimit()));
                if (sliced.rows().isEmpty() && sliced.staticRow() == null) continue;
                out.add(sliced);
                rowsLeft -= sliced.rows().size();
            }
            if (batch.size() < wanted) break;
            rest = rest.resumeAfter(batch.get(batch.size() - 1).key());
        }
        return out;
    }

    private List<PartitionData> partitions(List<Map<String, Object>> rows) {
        Map<PartitionKey, List<Row>> byKey = new TreeMap<>();
        for (Map<String, Object> values : rows) {
            List<ColumnMetadata> key = metadata.partitionKey();
            ByteBuffer[] components = new ByteBuffer[key.size()];
            for (int i = 0; i < components.length; i++) components[i] = key.get(i).type().decompose(values.get(key.get(i).name()));
            ByteBuffer[] clustering = new ByteBuffer[metadata.clustering().size()];
            for (int i = 0; i < clustering.length; i++) {
                ColumnMetadata c = metadata.clustering().get(i);
                clustering[i] = c.type().decompose(values.get(c.name()));
            }
            List<Cell> cells = new ArrayList<>();
            for (ColumnMetadata c : metadata.columns()) {
                if (c.isPrimaryKey() || values.get(c.name()) == null) continue;
                addCells(cells, c, c.type().decompose(values.get(c.name())));
            }
            // Rows hold their cells in column-id order (then path order), which readers rely on.
            cells.sort((a, b) -> a.column() != b.column() ? Integer.compare(a.column(), b.column())
                    : a.path() == null || b.path() == null ? 0 : Cell.unsignedCompare(a.path(), b.path()));
            Row row = Row.of(Clustering.of(clustering), new LivenessInfo(0, 0, Integer.MAX_VALUE), cells);
            byKey.computeIfAbsent(PartitionKey.of(PartitionKey.compose(components)), k -> new ArrayList<>()).add(row);
        }
        List<PartitionData> out = new ArrayList<>(byKey.size());
        for (Map.Entry<PartitionKey, List<Row>> e : byKey.entrySet()) {
            List<Row> sorted = new ArrayList<>(e.getValue());
            sorted.sort(Comparator.comparing(r -> r.clustering().values(), this::compareClustering));
            out.add(new PartitionData(e.getKey(), DeletionTime.LIVE, List.of(), null, sorted));
        }
        return out;
    }

    private static void addCells(List<Cell> cells, ColumnMetadata c, ByteBuffer value) {
        CqlType type = c.type();
        if (!type.isMultiCell()) {
            cells.add(Cell.live(c.id(), null, value, 0));
        } else if (type instanceof SetType set) {
            for (ByteBuffer element : set.unpack(value)) cells.add(Cell.live(c.id(), element, ByteBuffer.allocate(0), 0));
        } else if (type instanceof MapType map) {
            for (Map.Entry<ByteBuffer, ByteBuffer> e : map.unpack(value)) cells.add(Cell.live(c.id(), e.getKey(), e.getValue(), 0));
        } else {
            throw new IllegalStateException("virtual column " + c.name() + " of unsupported multi-cell type " + type);
        }
    }

    private PartitionData slice(PartitionData p, ReadSpec spec, int limit) {
        List<Row> selected = new ArrayList<>();
        for (Slice s : spec.slices()) {
            for (Row r : p.rows()) if (contains(s, r.clustering().values())) selected.add(r);
        }
        if (spec.reversed()) java.util.Collections.reverse(selected);
        if (selected.size() > limit) selected = selected.subList(0, limit);
        return new PartitionData(p.key(), DeletionTime.LIVE, List.of(), null, selected);
    }

    private boolean contains(Slice s, ByteBuffer[] clustering) {
        if (!s.start().isUnbounded()) {
            int c = comparePrefix(clustering, s.start());
            if (c < 0 || c == 0 && !s.start().inclusive()) return false;
        }
        if (!s.end().isUnbounded()) {
            int c = comparePrefix(clustering, s.end());
            if (c > 0 || c == 0 && !s.end().inclusive()) return false;
        }
        return true;
    }

    private int comparePrefix(ByteBuffer[] clustering, ClusteringBound bound) {
        ByteBuffer[] prefix = bound.prefix();
        for (int i = 0; i < prefix.length; i++) {
            ColumnMetadata c = metadata.clustering().get(i);
            int cmp = c.type().compare(clustering[i], prefix[i]);
            if (cmp != 0) return c.descending() ? -cmp : cmp;
        }
        return 0;
    }

    private int compareClustering(ByteBuffer[] a, ByteBuffer[] b) {
        for (int i = 0; i < a.length; i++) {
            ColumnMetadata c = metadata.clustering().get(i);
            int cmp = c.type().compare(a[i], b[i]);
            if (cmp != 0) return c.descending() ? -cmp : cmp;
        }
        return 0;
    }
}
