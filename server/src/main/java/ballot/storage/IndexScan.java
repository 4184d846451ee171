package ballot.storage;

import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Row;
import ballot.cql.data.Slice;
import ballot.cql.data.TokenRange;
import ballot.cql.index.IndexExpression;
import ballot.cql.index.IndexTerms;
import ballot.cql.schema.TableMetadata;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.rocksdb.RocksIterator;

/**
 * One replica's answer to an index query over a token range (docs/indexes.md, "Queries"): the candidates the index
 * entries point to, in token order, each read merged from the table and kept only if its current terms still match,
 * so stale entries never show. Partitions are returned as a scan returns them: in token order, rows in clustering
 * order, at most {@code partitionLimit} partitions and {@code spec.rowLimit()} live rows.
 */
final class IndexScan {
    private final TableStore table;
    private final IndexStore index;
    private final IndexExpression expression;
    private final ReadSpec spec;

    IndexScan(TableStore table, IndexStore index, IndexExpression expression, ReadSpec spec) {
        this.table = table;
        this.index = index;
        this.expression = expression;
        this.spec = spec;
    }

    /** Reads with {@code entries} (over the index) and {@code data} (over the table), both of one snapshot. */
    List<PartitionData> run(RocksIterator entries, RocksIterator data, TokenRange range, int partitionLimit) {
        List<PartitionData> out = new ArrayList<>();
        if (range.isEmpty()) return out;
        int rowsLeft = spec.rowLimit();
        byte[] partition = null;
        List<byte[]> clusterings = new ArrayList<>();
        for (byte[] candidate : candidates(entries, range)) {
            byte[] prefix = Arrays.copyOf(candidate, StorageKeys.partitionPrefixLength(candidate));
            if (partition != null && !Arrays.equals(partition, prefix)) {
                rowsLeft -= read(data, partition, clusterings, rowsLeft, out);
                clusterings.clear();
                if (out.size() >= partitionLimit || rowsLeft <= 0) return out;
            }
            partition = prefix;
            clusterings.add(Arrays.copyOfRange(candidate, prefix.length, candidate.length));
        }
        if (partition != null) read(data, partition, clusterings, rowsLeft, out);
        return out;
    }

    /**
     * The rows (partition prefix · clustering) the entries in range point to, in token then clustering order, without
     * duplicates. An equality's entries are in that order already (one term), so they are read lazily as the caller
     * consumes them; a range collects its terms' entries in the token range and sorts them.
     */
    private Iterable<byte[]> candidates(RocksIterator entries, TokenRange range) {
        byte[] lower = expression.lower() == null ? new byte[0] : expression.lower();
        if (expression.isEquality()) {
            byte[] start = range.startAfter() != null
                    ? StorageKeys.prefixEnd(concat(lower, StorageKeys.partitionPrefix(range.startAfter())))
                    : concat(lower, StorageKeys.tokenStart(range.start()));
            entries.seek(start);
            return () -> new java.util.Iterator<>() {
                private byte[] previous;
                private byte[] next = advance();

                private byte[] advance() {
                    for (; entries.isValid() && StorageKeys.hasPrefix(entries.key(), lower); entries.next()) {
                        IndexStore.Entry e = IndexStore.Entry.of(entries.key(), entries.value());
                        if (e.term().length != lower.length) continue;
                        if (StorageKeys.token(e.row()) > range.end()) return null;
                        if (previous != null && Arrays.equals(previous, e.row())) continue;
                        previous = e.row();
                        entries.next();
                        return previous;
                    }
                    return null;
                }

                public boolean hasNext() {
                    return next != null;
                }

                public byte[] next() {
                    byte[] out = next;
                    next = advance();
                    return out;
                }
            };
        }
        TreeSet<byte[]> rows = new TreeSet<>(Arrays::compareUnsigned);
        for (entries.seek(lower); entries.isValid(); entries.next()) {
            IndexStore.Entry e = IndexStore.Entry.of(entries.key(), entries.value());
            if (expression.upper() != null && Arrays.compareUnsigned(e.term(), expression.upper()) > 0) break;
            if (expression.matches(e.term()) && range.contains(e.partitionKey())) rows.add(e.row());
        }
        return rows;
    }

    /** Reads one candidate partition and adds it if something in it still matches; returns its live rows. */
    private int read(RocksIterator data, byte[] prefix, List<byte[]> clusterings, int rowsLeft, List<PartitionData> out) {
        TableMetadata metadata = table.metadata();
        PartitionKey key = StorageKeys.partitionKey(prefix);
        ByteBuffer[] keyComponents = PartitionKey.split(key.key(), metadata.partitionKey().size());
        IndexTerms terms = index.terms();
        int now = spec.nowInSec();
        int limit = Math.min(rowsLeft, spec.partitionRowLimit());
        PartitionData partition;
        if (terms.selectsPartitions()) {
            partition = table.readPartition(data, prefix, key, spec, limit);
            Row staticRow = partition.staticRow() != null && partition.staticRow().hasLiveData(now) ? partition.staticRow() : null;
            if (!expression.matchesAny(terms.ofLive(keyComponents, null, staticRow, now))) return 0;
        } else {
            List<Slice> rows = new ArrayList<>();
            for (byte[] clustering : clusterings) {
                ByteBuffer[] values = table.clustering().decode(clustering, 0, clustering.length);
                if (selected(values)) rows.add(Slice.of(values));
            }
            if (rows.isEmpty()) return 0;
            PartitionData read = table.readPartition(data, prefix, key, spec.withSlices(rows), limit);
            List<Row> matching = new ArrayList<>();
            for (Row row : read.rows()) {
                if (row.hasLiveData(now) && expression.matchesAny(terms.ofLive(keyComponents, row, read.staticRow(), now))) matching.add(row);
            }
            // A live static row alone does not make a partition match a row-level target: only its matching rows do.
            if (matching.isEmpty()) return 0;
            partition = new PartitionData(key, read.partitionDeletion(), read.rangeTombstones(), read.staticRow(), matching);
        }
        if (!partition.hasLiveData(now)) return 0;
        out.add(partition);
        return partition.liveRowCount(now);
    }

    private boolean selected(ByteBuffer[] clustering) {
        for (Slice s : spec.slices()) if (s.contains(clustering, table.metadata()::compareClusteringPrefix)) return true;
        return false;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
