package ballot.replication;

import ballot.cql.data.DeletionTime;
import ballot.cql.data.PartitionData;
import ballot.cql.data.RangeTombstone;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Row;
import ballot.cql.schema.TableMetadata;
import ballot.storage.RowMerger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Merges what several replicas answered for one partition into what the partition is: deletions and rows reconciled
 * with the same rules as fragments on one node (last write wins, deletions shadow older data, counter shards merge by
 * clock), rows in the order asked for, at most the row limit of live rows.
 */
final class Reconciler {
    private Reconciler() {}

    static PartitionData merge(TableMetadata table, List<PartitionData> responses, ReadSpec spec) {
        if (responses.size() == 1) return responses.get(0);
        DeletionTime partitionDeletion = DeletionTime.LIVE;
        LinkedHashSet<RangeTombstone> rangeTombstones = new LinkedHashSet<>();
        List<Row> statics = new ArrayList<>();
        Comparator<ByteBuffer[]> order = table.clusteringOrder();
        TreeMap<ByteBuffer[], List<Row>> rows = new TreeMap<>(spec.reversed() ? order.reversed() : order);
        for (PartitionData p : responses) {
            partitionDeletion = partitionDeletion.max(p.partitionDeletion());
            rangeTombstones.addAll(p.rangeTombstones());
            if (p.staticRow() != null) statics.add(p.staticRow());
            for (Row r : p.rows()) rows.computeIfAbsent(r.clustering().values(), c -> new ArrayList<>()).add(r);
        }
        Row staticRow = statics.isEmpty() ? null : RowMerger.merge(statics, partitionDeletion);
        List<Row> merged = new ArrayList<>();
        int live = 0;
        for (Map.Entry<ByteBuffer[], List<Row>> e : rows.entrySet()) {
            if (live >= spec.rowLimit()) break;
            DeletionTime covering = partitionDeletion;
            for (RangeTombstone rt : rangeTombstones) {
                if (rt.slice().contains(e.getKey(), table::compareClusteringPrefix)) covering = covering.max(rt.deletion());
            }
            Row row = RowMerger.merge(e.getValue(), covering);
            if (row.isEmpty()) continue;
            merged.add(row);
            if (row.hasLiveData(spec.nowInSec())) live++;
        }
        return new PartitionData(responses.get(0).key(), partitionDeletion, List.copyOf(rangeTombstones), staticRow, merged);
    }

    /** Partitions answered by several replicas for a scan, merged per key, in token order. */
    static List<PartitionData> mergeScans(TableMetadata table, List<List<PartitionData>> responses, ReadSpec spec) {
        if (responses.size() == 1) return responses.get(0); // one replica's answer is already in token order
        TreeMap<ballot.cql.data.PartitionKey, List<PartitionData>> byKey = new TreeMap<>();
        for (List<PartitionData> response : responses) {
            for (PartitionData p : response) byKey.computeIfAbsent(p.key(), k -> new ArrayList<>()).add(p);
        }
        List<PartitionData> out = new ArrayList<>(byKey.size());
        for (List<PartitionData> versions : byKey.values()) out.add(merge(table, versions, spec));
        return out;
    }
}
