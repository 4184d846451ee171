package ballot.cql.statement;

import ballot.cql.data.Clustering;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.ReadSpec;
import ballot.cql.schema.TableMetadata;
import ballot.cql.spi.CasRequest;
import java.util.List;
import java.util.Map;

/**
 * The compare-and-set of a conditional statement or a BATCH with conditions: read {@code read} (every conditioned row,
 * and the rows an operation reads before writing), and if every condition holds, write what all statements write to
 * the partition, merged into one update at the decree's timestamp. {@link #apply} depends only on its arguments and
 * on values bound before the compare-and-set started, so evaluating it again on the same state gives the same update.
 */
record PartitionCas(TableMetadata table, PartitionKey key, ReadSpec read, CasConditions conditions, List<CasWrite> writes)
        implements CasRequest {

    CurrentPartition current(PartitionData data) {
        return new CurrentPartition(table, key, data, read.nowInSec());
    }

    @Override
    public PartitionUpdate apply(PartitionData data, long timestampMicros) {
        CurrentPartition current = current(data);
        if (!conditions.holdOn(current)) return null;
        UpdatesBuilder builder = new UpdatesBuilder();
        UpdatesBuilder.PartitionBuilder partition = builder.partition(table, key);
        Map<Clustering, RowView> existing = current.existing();
        for (CasWrite w : writes) w.statement().addForCas(w.context(), partition, timestampMicros, existing);
        List<PartitionUpdate> updates = builder.build();
        // Statements that change nothing (a DELETE of a missing cell) still apply, as an empty update.
        return updates.isEmpty() ? new PartitionUpdate(table.id(), key, DeletionTime.LIVE, List.of(), null, List.of()) : updates.get(0);
    }
}
