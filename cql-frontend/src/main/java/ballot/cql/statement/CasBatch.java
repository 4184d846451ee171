package ballot.cql.statement;

import ballot.cql.ConsistencyLevel;
import ballot.cql.data.Clustering;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Slice;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.protocol.message.Result;
import ballot.cql.schema.TableMetadata;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * Binds a conditional statement, or the statements of a BATCH with conditions, into the one compare-and-set they run
 * on their partition ({@link PartitionCas}), runs it through the coordinator's Paxos, and answers with
 * {@link CasResultRows}. Every statement must write the same partition (the caller has checked they write one table).
 * Each statement's write keeps its own values and TTL, but every cell is written at the decree's timestamp: a plain
 * statement's USING TIMESTAMP is overridden, as in Cassandra.
 */
final class CasBatch {
    private final boolean batch;
    private final CasConditions conditions = new CasConditions();
    private final List<CasWrite> writes = new ArrayList<>();
    private final Set<Clustering> readBeforeWrite = new HashSet<>();
    private TableMetadata table;
    private PartitionKey key;

    private CasBatch(boolean batch) {
        this.batch = batch;
    }

    /**
     * Runs {@code parts}, each bound to its context, as one compare-and-set. {@code request} gives the consistency
     * levels (serial for Paxos, the request's own for the commit) and the time; {@code batch} chooses the messages and
     * the answer's shape of a BATCH.
     */
    static CompletableFuture<Result> run(List<? extends CasPart> parts, List<QueryContext> contexts, QueryContext request, boolean batch) {
        ConsistencyLevel requested = request.options().serialConsistency();
        ConsistencyLevel serial = requested != null ? requested : ConsistencyLevel.SERIAL;
        if (!serial.isSerial()) {
            throw new InvalidRequestException("Invalid consistency for conditional update. Must be one of SERIAL or LOCAL_SERIAL");
        }
        ConsistencyLevel commit = request.consistency();
        if (commit.isSerial()) {
            throw new InvalidRequestException(commit + " is not supported as conditional update commit consistency. "
                    + "Use ANY if you mean \"make sure it is accepted but I don't care how many replicas commit it for non-SERIAL reads\"");
        }
        CasBatch cas = new CasBatch(batch);
        for (int i = 0; i < parts.size(); i++) parts.get(i).addTo(cas, contexts.get(i));
        PartitionCas partitionCas = cas.build(request.nowInSec());
        if (commit == ConsistencyLevel.EACH_QUORUM) { // a quorum in each data center needs data centers (Cassandra's rule)
            String strategy = request.environment().schemas().schema().keyspace(partitionCas.table().keyspace()).replication().get("class");
            if (!strategy.endsWith(".NetworkTopologyStrategy"))
                throw new InvalidRequestException("consistency level EACH_QUORUM not compatible with replication strategy (" + strategy + ")");
        }
        return request.environment().lwt().cas(partitionCas, serial, commit).thenApply(result -> CasResultRows.of(
                partitionCas.table(), partitionCas.conditions(), result.applied(), partitionCas.current(result.current()), batch));
    }

    /** Adds {@code statement}'s write with {@code context}'s values; returns the row it conditions ({@link ModificationStatement#casRow}). */
    Clustering write(ModificationStatement statement, QueryContext context) {
        Bindings b = context.bindings();
        List<PartitionKey> keys = statement.where().partitionKeys(b);
        if (keys.size() != 1) {
            throw new InvalidRequestException(batch
                    ? "Batch with conditions cannot span multiple partitions (you cannot use IN on the partition key)"
                    : "IN on the partition key is not supported with conditional updates");
        }
        if (key == null) {
            table = statement.table();
            key = keys.get(0);
        } else if (!key.equals(keys.get(0))) {
            throw new InvalidRequestException("Batch with conditions cannot span multiple partitions");
        }
        Clustering row = statement.casRow(b);
        if (statement.requiresRead()) readBeforeWrite.add(row);
        writes.add(new CasWrite(statement, context));
        return row;
    }

    CasConditions conditions() {
        return conditions;
    }

    /** The compare-and-set, reading each conditioned row and each row read before writing (the static row comes with any read). */
    private PartitionCas build(int nowInSec) {
        TreeSet<ByteBuffer[]> rows = new TreeSet<>(table.clusteringOrder());
        for (Clustering c : conditions.rows()) if (!c.isStatic()) rows.add(c.values());
        for (Clustering c : readBeforeWrite) if (!c.isStatic()) rows.add(c.values());
        List<Slice> slices = new ArrayList<>(rows.size());
        for (ByteBuffer[] row : rows) slices.add(row.length == 0 ? Slice.ALL : Slice.of(row));
        ReadSpec read = new ReadSpec(slices, false, Integer.MAX_VALUE, Integer.MAX_VALUE, nowInSec);
        return new PartitionCas(table, key, read, conditions, List.copyOf(writes));
    }
}
