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
import java.util.LinkedHashMap;
import java.util.Map;
import ballot.cql.data.PartitionData;
import java.util.concurrent.CompletableFuture;

/**
 * Binds a conditional statement, or the statements of a BATCH with conditions, into one compare-and-set per partition
 * they write ({@link PartitionCas}), and answers with {@link CasResultRows}. One partition: its compare-and-set runs
 * through the coordinator's Paxos. Several partitions (of one or several tables): they run as one transaction
 * (docs/txn.md §11.1), every statement written if and only if every condition holds. Each statement's write keeps its
 * own values and TTL, but every cell is written at its decree's timestamp: a plain statement's USING TIMESTAMP is
 * overridden, as in Cassandra.
 */
final class CasBatch {
    /** One partition's part: its conditions, its writes, and the rows they read before writing. */
    private static final class Partition {
        final TableMetadata table;
        final PartitionKey key;
        final CasConditions conditions;
        final List<CasWrite> writes = new ArrayList<>();
        final Set<Clustering> readBeforeWrite = new HashSet<>();

        Partition(TableMetadata table, PartitionKey key) {
            this.table = table;
            this.key = key;
            this.conditions = new CasConditions(table);
        }

        /** The compare-and-set, reading each conditioned row and each row read before writing (the static row comes with any read). */
        PartitionCas build(int nowInSec) {
            TreeSet<ByteBuffer[]> rows = new TreeSet<>(table.clusteringOrder());
            for (Clustering c : conditions.rows()) if (!c.isStatic()) rows.add(c.values());
            for (Clustering c : readBeforeWrite) if (!c.isStatic()) rows.add(c.values());
            List<Slice> slices = new ArrayList<>(rows.size());
            for (ByteBuffer[] row : rows) slices.add(row.length == 0 ? Slice.ALL : Slice.of(row));
            int rowLimit = Integer.MAX_VALUE;
            if (slices.isEmpty() && conditions.rows().contains(Clustering.STATIC)) {
                // The static row alone: read with the partition's first row, which a not-applied answer shows (CasResultRows).
                slices.add(Slice.ALL);
                rowLimit = 1;
            }
            ReadSpec read = new ReadSpec(slices, false, rowLimit, rowLimit, nowInSec);
            return new PartitionCas(table, key, read, conditions, List.copyOf(writes));
        }
    }

    private final boolean batch;
    /** The partitions written, in the order statements first write them (the first is a transaction's home). */
    private final Map<List<Object>, Partition> partitions = new LinkedHashMap<>();
    /** The partition of the statement being added: its conditions follow its write. */
    private Partition current;

    private CasBatch(boolean batch) {
        this.batch = batch;
    }

    /**
     * Runs {@code parts}, each bound to its context, as one compare-and-set, or one transaction if they write several
     * partitions. {@code request} gives the consistency levels (serial for Paxos, the request's own for the commit) and
     * the time; {@code batch} chooses the messages and the answer's shape of a BATCH.
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
        List<PartitionCas> built = participants(parts, contexts, request, batch);
        for (PartitionCas p : built) CasCommitConsistency.check(commit, p.table().keyspace(), request);
        if (built.size() == 1) {
            PartitionCas partitionCas = built.get(0);
            return request.environment().lwt().cas(partitionCas, serial, commit).thenApply(result -> CasResultRows.of(
                    List.of(partitionCas.current(result.current())), List.of(partitionCas.conditions()), result.applied(), batch));
        }
        for (CasPart part : parts) {
            if (part.isCounter()) throw new InvalidRequestException("Counter tables cannot take part in a multi-partition conditional batch");
        }
        List<ballot.cql.spi.CasRequest> participants = List.copyOf(built);
        return request.environment().transactions().run(participants, serial, commit, request.source()).thenCompose(result -> {
            // Applied: [applied] alone, as Cassandra answers a batch, so that drivers that want one row of an applied
            // batch (the Python driver's was_applied on a text batch) read it.
            if (result.applied()) return CompletableFuture.completedFuture(CasResultRows.applied(built.get(0).table()));
            // Not applied: the rows the conditions saw; a participant whose rows the answer lacks is read linearizably.
            List<CompletableFuture<PartitionData>> reads = new ArrayList<>(built.size());
            for (int i = 0; i < built.size(); i++) {
                PartitionCas p = built.get(i);
                PartitionData seen = result.reads().size() > i ? result.reads().get(i) : null;
                reads.add(seen != null ? CompletableFuture.completedFuture(seen)
                        : request.environment().lwt().readSerial(p.table(), p.key(), p.read(), serial));
            }
            return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
                    .thenApply(done -> rows(built, reads.stream().map(CompletableFuture::join).toList(), false));
        });
    }

    /** The compare-and-sets {@code parts} make, one per partition, in the order statements first write them. */
    static List<PartitionCas> participants(List<? extends CasPart> parts, List<QueryContext> contexts, QueryContext request, boolean batch) {
        CasBatch cas = new CasBatch(batch);
        for (int i = 0; i < parts.size(); i++) parts.get(i).addTo(cas, contexts.get(i));
        List<PartitionCas> built = new ArrayList<>(cas.partitions.size());
        for (Partition p : cas.partitions.values()) built.add(p.build(request.nowInSec()));
        return built;
    }

    private static Result rows(List<PartitionCas> built, List<PartitionData> reads, boolean applied) {
        // one PartitionData per participant, in order
        List<CurrentPartition> currents = new ArrayList<>(built.size());
        List<CasConditions> conditions = new ArrayList<>(built.size());
        for (int i = 0; i < built.size(); i++) {
            currents.add(built.get(i).current(reads.get(i)));
            conditions.add(built.get(i).conditions());
        }
        return CasResultRows.of(currents, conditions, applied, true);
    }

    /**
     * Adds {@code statement}'s write with {@code context}'s values; returns the row it conditions
     * ({@link ModificationStatement#casRow}). Only {@code conditional} statements decide the columns the compare-and-set
     * reads ({@link CasConditions#readColumns}), as in Cassandra.
     */
    Clustering write(ModificationStatement statement, QueryContext context, boolean conditional) {
        Bindings b = context.bindings();
        List<PartitionKey> keys = statement.where().partitionKeys(b);
        if (keys.size() != 1) {
            throw new InvalidRequestException(batch
                    ? "Batch with conditions cannot span multiple partitions (you cannot use IN on the partition key)"
                    : "IN on the partition key is not supported with conditional updates");
        }
        TableMetadata table = statement.table();
        PartitionKey key = keys.get(0);
        current = partitions.computeIfAbsent(List.of(table.id(), key), k -> new Partition(table, key));
        Clustering row = statement.casRow(b);
        if (statement.requiresRead()) current.readBeforeWrite.add(row);
        current.writes.add(new CasWrite(statement, context));
        if (conditional) current.conditions.writes(statement.writesRegularRow(), statement.writesStatic());
        return row;
    }

    /** The conditions of the partition the last statement added writes. */
    CasConditions conditions() {
        return current.conditions;
    }
}
