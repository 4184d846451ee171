package ballot.cql.schema;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * An immutable table definition. Columns are kept in the order {@code SELECT *} returns them: partition key, clustering,
 * then static and regular columns each sorted by name, as Cassandra does.
 */
public final class TableMetadata {
    private final String keyspace;
    private final String name;
    private final UUID id;
    private final List<ColumnMetadata> partitionKey;
    private final List<ColumnMetadata> clustering;
    private final List<ColumnMetadata> columns;
    private final Map<String, ColumnMetadata> byName;
    private final Map<Integer, ColumnMetadata> byId;
    private final TableParams params;
    private final Map<String, DroppedColumn> dropped;
    private final int nextColumnId;
    private final boolean counter;
    private final boolean hasStatic;
    private final List<IndexMetadata> indexes;

    public TableMetadata(String keyspace, String name, UUID id, List<ColumnMetadata> columns, TableParams params,
            Map<String, DroppedColumn> dropped, int nextColumnId) {
        this(keyspace, name, id, columns, params, dropped, nextColumnId, List.of());
    }

    /** @param indexes the table's secondary indexes, kept in name order */
    public TableMetadata(String keyspace, String name, UUID id, List<ColumnMetadata> columns, TableParams params,
            Map<String, DroppedColumn> dropped, int nextColumnId, List<IndexMetadata> indexes) {
        List<IndexMetadata> sortedIndexes = new ArrayList<>(indexes);
        sortedIndexes.sort(Comparator.comparing(IndexMetadata::name));
        this.indexes = List.copyOf(sortedIndexes);
        this.keyspace = keyspace;
        this.name = name;
        this.id = id;
        this.params = params;
        this.dropped = Collections.unmodifiableMap(new LinkedHashMap<>(dropped));
        this.nextColumnId = nextColumnId;
        List<ColumnMetadata> pk = new ArrayList<>();
        List<ColumnMetadata> ck = new ArrayList<>();
        List<ColumnMetadata> statics = new ArrayList<>();
        List<ColumnMetadata> regulars = new ArrayList<>();
        for (ColumnMetadata c : columns) {
            switch (c.kind()) {
                case PARTITION_KEY -> pk.add(c);
                case CLUSTERING -> ck.add(c);
                case STATIC -> statics.add(c);
                case REGULAR -> regulars.add(c);
            }
        }
        pk.sort(Comparator.comparingInt(ColumnMetadata::position));
        ck.sort(Comparator.comparingInt(ColumnMetadata::position));
        statics.sort(Comparator.comparing(ColumnMetadata::name));
        regulars.sort(Comparator.comparing(ColumnMetadata::name));
        this.partitionKey = List.copyOf(pk);
        this.clustering = List.copyOf(ck);
        List<ColumnMetadata> all = new ArrayList<>(pk);
        all.addAll(ck);
        all.addAll(statics);
        all.addAll(regulars);
        this.columns = List.copyOf(all);
        Map<String, ColumnMetadata> names = new HashMap<>();
        Map<Integer, ColumnMetadata> ids = new HashMap<>();
        for (ColumnMetadata c : all) {
            if (names.put(c.name(), c) != null) throw new IllegalStateException("duplicate column " + c.name() + " in " + keyspace + "." + name);
            if (ids.put(c.id(), c) != null) throw new IllegalStateException("duplicate column id " + c.id() + " in " + keyspace + "." + name);
            if (c.id() >= nextColumnId) throw new IllegalStateException("column id " + c.id() + " not below next id " + nextColumnId);
        }
        this.byName = Map.copyOf(names);
        this.byId = Map.copyOf(ids);
        boolean anyCounter = false;
        boolean anyStatic = false;
        for (ColumnMetadata c : all) {
            anyCounter |= !c.isPrimaryKey() && "counter".equals(c.type().cqlName());
            anyStatic |= c.isStatic();
        }
        this.counter = anyCounter;
        this.hasStatic = anyStatic;
    }

    public String keyspace() { return keyspace; }
    public String name() { return name; }
    public UUID id() { return id; }
    public List<ColumnMetadata> partitionKey() { return partitionKey; }
    public List<ColumnMetadata> clustering() { return clustering; }

    /**
     * Compares two clustering prefixes over their common length in this table's clustering order (each column's type,
     * reversed for DESC); 0 when one is a prefix of the other.
     */
    public int compareClusteringPrefix(java.nio.ByteBuffer[] x, java.nio.ByteBuffer[] y) {
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            ColumnMetadata column = clustering.get(i);
            int c = column.type().compare(x[i], y[i]);
            if (c != 0) return column.descending() ? -c : c;
        }
        return 0;
    }

    /**
     * The order of this table's rows: the static row first, then the clustering order, by which equal values written
     * differently (the decimals 2.5 and 2.50) are one row.
     */
    public Comparator<ballot.cql.data.Clustering> rowOrder() {
        Comparator<java.nio.ByteBuffer[]> clusterings = clusteringOrder();
        return (x, y) -> x.isStatic() || y.isStatic() ? Boolean.compare(y.isStatic(), x.isStatic()) : clusterings.compare(x.values(), y.values());
    }

    /** This table's clustering order over clustering values; of a prefix and its extension, the prefix first. */
    public Comparator<java.nio.ByteBuffer[]> clusteringOrder() {
        return (x, y) -> {
            int c = compareClusteringPrefix(x, y);
            return c != 0 ? c : Integer.compare(x.length, y.length);
        };
    }
    /** All columns in SELECT * order. */
    public List<ColumnMetadata> columns() { return columns; }
    public TableParams params() { return params; }
    public Map<String, DroppedColumn> dropped() { return dropped; }
    public int nextColumnId() { return nextColumnId; }

    /** The column with this name, or null. */
    public ColumnMetadata column(String columnName) {
        return byName.get(columnName);
    }

    /** The column with this id, or null if it was dropped. */
    public ColumnMetadata columnById(int columnId) {
        return byId.get(columnId);
    }

    public boolean hasStatic() {
        return hasStatic;
    }

    /** A counter table has only counter columns besides its primary key. */
    public boolean isCounter() {
        return counter;
    }

    /**
     * True if statements prepared against this table must be prepared again against {@code updated}, as Cassandra's
     * changeAffectsPreparedStatements decides: another table under the name, other columns (a changed user type they
     * use included), or another default_time_to_live or gc_grace_seconds, the options statements apply when they run.
     */
    public boolean changeAffectsStatements(TableMetadata updated) {
        return !id.equals(updated.id) || !columns.equals(updated.columns)
                || params.defaultTimeToLive() != updated.params.defaultTimeToLive()
                || params.gcGraceSeconds() != updated.params.gcGraceSeconds();
    }

    /** The secondary indexes, in name order. */
    public List<IndexMetadata> indexes() {
        return indexes;
    }

    /** The index with this name, or null. */
    public IndexMetadata index(String indexName) {
        for (IndexMetadata index : indexes) if (index.name().equals(indexName)) return index;
        return null;
    }

    public TableMetadata withColumns(List<ColumnMetadata> newColumns, Map<String, DroppedColumn> newDropped, int newNextColumnId) {
        return new TableMetadata(keyspace, name, id, newColumns, params, newDropped, newNextColumnId, indexes);
    }

    public TableMetadata withParams(TableParams newParams) {
        return new TableMetadata(keyspace, name, id, columns, newParams, dropped, nextColumnId, indexes);
    }

    public TableMetadata withIndexes(List<IndexMetadata> newIndexes) {
        return new TableMetadata(keyspace, name, id, columns, params, dropped, nextColumnId, newIndexes);
    }

    @Override
    public String toString() {
        return keyspace + "." + name;
    }
}
