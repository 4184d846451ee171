package ballot.cql.statement;

import ballot.cql.data.Cell;
import ballot.cql.data.Clustering;
import ballot.cql.data.ComplexDeletion;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.LivenessInfo;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.RangeTombstone;
import ballot.cql.data.Row;
import ballot.cql.schema.TableMetadata;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Accumulates what one statement or batch writes, one {@link PartitionUpdate} per (table, partition key). Rows given
 * twice are kept as separate fragments of the same update; storage merges them.
 */
final class UpdatesBuilder {
    private record Target(UUID table, PartitionKey key) {}

    private final Map<Target, PartitionBuilder> partitions = new LinkedHashMap<>();

    PartitionBuilder partition(TableMetadata table, PartitionKey key) {
        return partitions.computeIfAbsent(new Target(table.id(), key), t -> new PartitionBuilder(table.id(), key));
    }

    List<PartitionUpdate> build() {
        List<PartitionUpdate> updates = new ArrayList<>(partitions.size());
        for (PartitionBuilder p : partitions.values()) {
            PartitionUpdate u = p.build();
            if (!u.isEmpty()) updates.add(u);
        }
        return updates;
    }

    boolean isEmpty() {
        return partitions.isEmpty();
    }

    /** What is written to one partition. */
    static final class PartitionBuilder {
        private final UUID table;
        private final PartitionKey key;
        private DeletionTime partitionDeletion = DeletionTime.LIVE;
        private final List<RangeTombstone> rangeTombstones = new ArrayList<>();
        private RowBuilder staticRow;
        private final List<RowBuilder> rows = new ArrayList<>();

        private PartitionBuilder(UUID table, PartitionKey key) {
            this.table = table;
            this.key = key;
        }

        PartitionKey key() {
            return key;
        }

        void deletePartition(DeletionTime deletion) {
            partitionDeletion = partitionDeletion.max(deletion);
        }

        void addRangeTombstone(RangeTombstone rangeTombstone) {
            rangeTombstones.add(rangeTombstone);
        }

        RowBuilder row(Clustering clustering) {
            if (clustering.isStatic()) {
                if (staticRow == null) staticRow = new RowBuilder(Clustering.STATIC);
                return staticRow;
            }
            RowBuilder row = new RowBuilder(clustering);
            rows.add(row);
            return row;
        }

        PartitionUpdate build() {
            List<Row> built = new ArrayList<>(rows.size());
            for (RowBuilder r : rows) {
                Row row = r.build();
                if (!row.isEmpty()) built.add(row);
            }
            Row stat = staticRow == null ? null : staticRow.build();
            return new PartitionUpdate(table, key, partitionDeletion, List.copyOf(rangeTombstones),
                    stat == null || stat.isEmpty() ? null : stat, built);
        }
    }

    /** What is written to one row. */
    static final class RowBuilder {
        private final Clustering clustering;
        private LivenessInfo liveness = LivenessInfo.EMPTY;
        private DeletionTime deletion = DeletionTime.LIVE;
        private final List<Cell> cells = new ArrayList<>();
        private final List<ComplexDeletion> complexDeletions = new ArrayList<>();

        RowBuilder(Clustering clustering) {
            this.clustering = clustering;
        }

        void liveness(LivenessInfo info) {
            if (info.supersedes(liveness)) liveness = info;
        }

        void delete(DeletionTime d) {
            deletion = deletion.max(d);
        }

        void add(Cell cell) {
            cells.add(cell);
        }

        void deleteComplex(int column, DeletionTime d) {
            complexDeletions.add(new ComplexDeletion(column, d));
        }

        Row build() {
            cells.sort((a, b) -> {
                int c = Integer.compare(a.column(), b.column());
                if (c != 0) return c;
                if (a.path() == null || b.path() == null) return a.path() == null ? (b.path() == null ? 0 : -1) : 1;
                return Cell.unsignedCompare(a.path(), b.path());
            });
            return new Row(clustering, liveness, deletion, List.copyOf(cells), List.copyOf(complexDeletions));
        }
    }
}
