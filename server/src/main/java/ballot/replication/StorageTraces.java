package ballot.replication;

import ballot.cql.data.Cell;
import ballot.cql.data.PartitionData;
import ballot.cql.data.Row;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import ballot.cql.trace.Trace;
import ballot.storage.Mutation;
import java.util.List;

/** The storage steps of a traced request, in the words of Cassandra's traces where there are such words. */
final class StorageTraces {
    private StorageTraces() {}

    static void applying(Trace trace, List<Mutation> mutations, Schema schema) {
        for (Mutation m : mutations) {
            TableMetadata table = schema.table(m.update().tableId());
            String name = table == null ? m.update().tableId().toString() : table.keyspace() + "." + table.name();
            trace.event("Adding to " + name + " memtable and write-ahead log (" + m.update().rows().size() + " rows)");
        }
    }

    /** Counts what a read returned as Cassandra's "Read N live rows and M tombstone cells" does. */
    static void read(Trace trace, List<PartitionData> partitions, int nowInSec) {
        int live = 0;
        int tombstones = 0;
        for (PartitionData p : partitions) {
            if (!p.partitionDeletion().isLive()) tombstones++;
            tombstones += p.rangeTombstones().size();
            if (p.staticRow() != null) {
                if (p.staticRow().hasLiveData(nowInSec)) live++;
                tombstones += deadCells(p.staticRow(), nowInSec);
            }
            for (Row r : p.rows()) {
                if (r.hasLiveData(nowInSec)) live++;
                if (!r.deletion().isLive()) tombstones++;
                tombstones += deadCells(r, nowInSec);
            }
        }
        trace.event("Read " + live + " live rows and " + tombstones + " tombstone cells");
    }

    private static int deadCells(Row row, int nowInSec) {
        int dead = 0;
        for (Cell c : row.cells()) if (!c.isLive(nowInSec)) dead++;
        return dead;
    }
}
