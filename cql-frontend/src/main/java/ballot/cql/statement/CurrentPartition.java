package ballot.cql.statement;

import ballot.cql.data.Clustering;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.Row;
import ballot.cql.schema.TableMetadata;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A partition as a compare-and-set read it, seen at one time: what IF conditions are evaluated on, what operations
 * that read before writing see, and what the answer shows. A row is there only if it has live data.
 */
final class CurrentPartition {
    private final TableMetadata table;
    private final ByteBuffer[] keyComponents;
    private final PartitionData data;
    private final Row staticRow;
    private final int nowInSec;

    CurrentPartition(TableMetadata table, PartitionKey key, PartitionData data, int nowInSec) {
        this.table = table;
        this.keyComponents = PartitionKey.split(key.key(), table.partitionKey().size());
        this.data = data;
        this.staticRow = data.staticRow() != null && data.staticRow().hasLiveData(nowInSec) ? data.staticRow() : null;
        this.nowInSec = nowInSec;
    }

    TableMetadata table() {
        return table;
    }

    /**
     * The live row at {@code clustering} (the live static row for STATIC), or null if there is none. Clusterings match
     * by the table's order, not by their bytes: the row of the decimal 2.50 is the row of 2.5.
     */
    RowView row(Clustering clustering) {
        if (clustering.isStatic()) return staticRow == null ? null : new RowView(keyComponents, null, staticRow, nowInSec);
        Comparator<Clustering> order = table.rowOrder();
        for (Row r : data.rows()) {
            if (order.compare(r.clustering(), clustering) == 0 && r.hasLiveData(nowInSec)) return new RowView(keyComponents, r, staticRow, nowInSec);
        }
        return null;
    }

    /** The partition's first live row in clustering order (a LET with LIMIT 1), or null if it has none. */
    RowView firstLiveRow() {
        for (Row r : data.rows()) if (r.hasLiveData(nowInSec)) return new RowView(keyComponents, r, staticRow, nowInSec);
        return null;
    }

    /** The live rows among {@code clusterings} (STATIC left out), in clustering order. */
    List<RowView> liveRows(Collection<Clustering> clusterings) {
        Set<Clustering> wanted = new TreeSet<>(table.rowOrder()); // 2.50 wants the row stored as 2.5
        wanted.addAll(clusterings);
        List<RowView> rows = new ArrayList<>();
        for (Row r : data.rows()) {
            if (wanted.contains(r.clustering()) && r.hasLiveData(nowInSec)) rows.add(new RowView(keyComponents, r, staticRow, nowInSec));
        }
        return rows;
    }

    /**
     * Every row read, live or not, and the static row under STATIC: what read-before-write operations see, looked up
     * by the table's clustering order (a statement's 2.50 finds the row stored as 2.5).
     */
    Map<Clustering, RowView> existing() {
        Map<Clustering, RowView> existing = new TreeMap<>(table.rowOrder());
        for (Row r : data.rows()) existing.put(r.clustering(), new RowView(keyComponents, r, data.staticRow(), nowInSec));
        existing.put(Clustering.STATIC, new RowView(keyComponents, null, data.staticRow(), nowInSec));
        return existing;
    }
}
