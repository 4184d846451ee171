package ballot.replication;

import ballot.cql.data.DeletionTime;
import ballot.cql.data.PartitionData;
import ballot.cql.data.RangeTombstone;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Row;
import ballot.cql.schema.TableMetadata;
import ballot.storage.RowMerger;
import ballot.cql.data.PartitionKey;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
        TreeMap<ByteBuffer[], List<Row>> rows = new TreeMap<>(readOrder(table, spec));
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

    /**
     * Short-read protection (Cassandra's): the position, in the order read, up to which the merge of {@code responses}
     * is certain, or null if it is certain throughout. An answer that stopped at the read's limit says nothing of the
     * rows after its last one, where its replica may hold deletions the other answers lack: merged rows past it could
     * be rows that replica deleted.
     */
    static ByteBuffer[] certainUpTo(TableMetadata table, List<PartitionData> responses, ReadSpec spec) {
        int limit = Math.min(spec.rowLimit(), spec.partitionRowLimit());
        Comparator<ByteBuffer[]> order = readOrder(table, spec);
        ByteBuffer[] cut = null;
        for (PartitionData p : responses) {
            if (p.rows().isEmpty() || p.liveRowCount(spec.nowInSec()) < limit) continue;
            ByteBuffer[] last = p.rows().get(p.rows().size() - 1).clustering().values();
            if (cut == null || order.compare(last, cut) < 0) cut = last;
        }
        return cut;
    }

    /** {@code data} without its rows after {@code cut} in the order read. */
    static PartitionData upTo(TableMetadata table, PartitionData data, ByteBuffer[] cut, ReadSpec spec) {
        Comparator<ByteBuffer[]> order = readOrder(table, spec);
        List<Row> rows = data.rows().stream().filter(r -> order.compare(r.clustering().values(), cut) <= 0).toList();
        if (rows.size() == data.rows().size()) return data;
        return new PartitionData(data.key(), data.partitionDeletion(), data.rangeTombstones(), data.staticRow(), rows);
    }

    private static Comparator<ByteBuffer[]> readOrder(TableMetadata table, ReadSpec spec) {
        return spec.reversed() ? table.clusteringOrder().reversed() : table.clusteringOrder();
    }

    /**
     * Short-read protection of a scan, read from its answers in one pass. {@code upTo}: the last partition up to which
     * their merge is certain, or null if it is certain throughout; an answer that stopped at one of its limits (live
     * partitions, live rows, or {@code deadMax} partitions without live data) says nothing of the partitions after its
     * last one, where its replica may hold deletions the other answers lack. {@code reread}: the partitions up to there
     * whose merge may miss rows, because some answer stopped inside them (at the per-partition row limit, or at its
     * row limit in its last partition) and the answers do not all agree on them.
     */
    record ScanCertainty(PartitionKey upTo, Set<PartitionKey> reread) {}

    static ScanCertainty scanCertainty(List<List<PartitionData>> answers, ReadSpec spec, int partitionLimit, int deadMax) {
        int now = spec.nowInSec();
        PartitionKey upTo = null;
        Set<PartitionKey> cutInside = new HashSet<>();
        for (List<PartitionData> answer : answers) {
            if (answer.isEmpty()) continue;
            int live = 0;
            int dead = 0;
            int rowsLeft = spec.rowLimit();
            for (PartitionData p : answer) {
                if (p.hasLiveData(now)) live++;
                else dead++;
                int rows = p.liveRowCount(now);
                if (rows > 0 && rows >= Math.min(rowsLeft, spec.partitionRowLimit())) cutInside.add(p.key());
                rowsLeft -= rows;
            }
            boolean stopped = live >= partitionLimit || rowsLeft <= 0 || (deadMax > 0 && dead >= deadMax);
            PartitionKey last = answer.get(answer.size() - 1).key();
            if (stopped && (upTo == null || last.compareTo(upTo) < 0)) upTo = last;
        }
        PartitionKey certain = upTo;
        if (certain != null) cutInside.removeIf(key -> key.compareTo(certain) > 0);
        return new ScanCertainty(upTo, answers.size() == 1 ? Set.of() : disagreeing(answers, cutInside));
    }

    /** Those of {@code keys} that some answer lacks or on which two answers differ (by digest). */
    private static Set<PartitionKey> disagreeing(List<List<PartitionData>> answers, Set<PartitionKey> keys) {
        if (keys.isEmpty()) return Set.of();
        Map<PartitionKey, List<byte[]>> digests = new HashMap<>();
        for (List<PartitionData> answer : answers) {
            for (PartitionData p : answer) {
                if (keys.contains(p.key())) digests.computeIfAbsent(p.key(), k -> new ArrayList<>()).add(LocalReplica.digest(p));
            }
        }
        Set<PartitionKey> out = new HashSet<>();
        for (Map.Entry<PartitionKey, List<byte[]>> e : digests.entrySet()) {
            List<byte[]> versions = e.getValue();
            boolean agree = versions.size() == answers.size();
            for (byte[] d : versions) agree &= Arrays.equals(d, versions.get(0));
            if (!agree) out.add(e.getKey());
        }
        return out;
    }

    /** Partitions answered by several replicas for a scan, merged per key, in token order. */
    static List<PartitionData> mergeScans(TableMetadata table, List<List<PartitionData>> responses, ReadSpec spec) {
        if (responses.size() == 1) return responses.get(0); // one replica's answer is already in token order
        TreeMap<PartitionKey, List<PartitionData>> byKey = new TreeMap<>();
        for (List<PartitionData> response : responses) {
            for (PartitionData p : response) byKey.computeIfAbsent(p.key(), k -> new ArrayList<>()).add(p);
        }
        List<PartitionData> out = new ArrayList<>(byKey.size());
        for (List<PartitionData> versions : byKey.values()) out.add(merge(table, versions, spec));
        return out;
    }
}
