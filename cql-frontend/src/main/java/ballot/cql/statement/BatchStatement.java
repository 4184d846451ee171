package ballot.cql.statement;

import ballot.cql.WriteType;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.parse.Statement;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Result;
import ballot.cql.protocol.message.VoidResult;
import ballot.cql.schema.TableMetadata;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * BEGIN [UNLOGGED | COUNTER] BATCH: the updates of all statements, merged per partition and written together with one
 * timestamp. Updates of one partition are applied atomically; a LOGGED batch over several partitions is applied in
 * one local write on a single node (cluster-wide atomicity through a batch log comes with replication).
 */
final class BatchStatement implements CqlStatement {
    private static final Logger log = LoggerFactory.getLogger(BatchStatement.class);
    private static final int UNLOGGED_PARTITIONS_WARNED_AFTER = 10;
    private final Statement.BatchType type;
    private final List<BatchableStatement> statements;
    private final Markers markers;
    private final Value timestamp;
    private final StatementTimeout timeout;

    BatchStatement(Statement.BatchType type, List<BatchableStatement> statements, Markers markers, Value timestamp,
            StatementTimeout timeout) {
        this.type = type;
        this.statements = statements;
        this.markers = markers;
        this.timestamp = timestamp;
        this.timeout = timeout;
        if (timestamp != null && type == Statement.BatchType.COUNTER) throw new InvalidRequestException("Cannot provide custom timestamp for counter BATCH");
        for (BatchableStatement s : statements) {
            if (timestamp != null && s.hasTimestamp()) {
                throw new InvalidRequestException("Timestamp must be set either on BATCH or individual statements");
            }
        }
        List<Boolean> counters = statements.stream().map(BatchableStatement::isCounter).toList();
        if (timestamp != null && counters.contains(true)) throw new InvalidRequestException("Cannot provide custom timestamp for a BATCH containing counters");
        checkCounters(type, counters);
    }

    /**
     * Cassandra's rules for counter writes in a batch ({@code counters}: whether each statement writes a counter table):
     * never mixed with other writes, never in a LOGGED batch; a COUNTER or an UNLOGGED batch of counter writes only.
     */
    static void checkCounters(Statement.BatchType type, List<Boolean> counters) {
        boolean hasCounters = counters.contains(true), hasOthers = counters.contains(false);
        if (type == Statement.BatchType.COUNTER && hasOthers) throw new InvalidRequestException("Cannot include non-counter statement in a counter batch");
        if (hasCounters && hasOthers) throw new InvalidRequestException("Counter and non-counter mutations cannot exist in the same batch");
        if (type == Statement.BatchType.LOGGED && hasCounters) throw new InvalidRequestException("Cannot include a counter statement in a logged batch");
    }

    Statement.BatchType type() {
        return type;
    }

    @Override
    public boolean writesStorage() {
        return true;
    }

    @Override
    public List<ColumnSpec> variables() {
        return markers.specs();
    }

    @Override
    public List<TableMetadata> tables() {
        List<TableMetadata> tables = new ArrayList<>();
        for (CqlStatement s : statements) tables.addAll(s.tables());
        return tables;
    }

    @Override
    public List<String> markerNames() {
        return markers.names();
    }

    @Override
    public List<Integer> partitionKeyIndexes() {
        return PartitionKeyIndexes.ofBatch(statements, markers);
    }

    @Override
    public Duration usingTimeout(QueryOptions options) {
        return timeout.before(options, markerNames());
    }

    @Override
    public CompletableFuture<Result> execute(QueryContext statement) {
        ModificationStatement.checkWriteConsistency(statement.consistency());
        QueryContext context = timeout.applyTo(statement);
        QueryContext batch = context;
        if (timestamp != null) {
            java.nio.ByteBuffer ts = timestamp.bind(context.bindings());
            if (ts == null) throw new InvalidRequestException("Invalid null value of timestamp");
            if (ts != ballot.cql.protocol.message.QueryOptions.UNSET) batch = context.withTimestamp(ts.getLong(ts.position()));
        }
        List<QueryContext> contexts = new ArrayList<>();
        for (int i = 0; i < statements.size(); i++) contexts.add(batch);
        return execute(statements, contexts, type, batch);
    }

    /**
     * Runs a protocol BATCH: each statement with its own bound values, all sharing the batch's timestamp.
     */
    static CompletableFuture<Result> execute(List<BatchableStatement> statements, List<QueryContext> contexts,
            Statement.BatchType type, QueryContext batch) {
        checkCounters(type, statements.stream().map(BatchableStatement::isCounter).toList());
        UpdatesBuilder builder = new UpdatesBuilder();
        CompletableFuture<UpdatesBuilder> collected = CompletableFuture.completedFuture(builder);
        for (int i = 0; i < statements.size(); i++) {
            BatchableStatement statement = statements.get(i);
            QueryContext context = contexts.get(i);
            collected = collected.thenCompose(b -> statement.collect(context, b));
        }
        WriteType writeType = switch (type) {
            case LOGGED -> WriteType.BATCH;
            case UNLOGGED -> WriteType.UNLOGGED_BATCH;
            case COUNTER -> WriteType.COUNTER;
        };
        return collected.thenCompose(b -> {
            List<PartitionUpdate> updates = b.build();
            checkSize(updates, statements, batch);
            if (type != Statement.BatchType.LOGGED) warnOfPartitions(updates, statements, batch);
            return batch.data().write(updates, batch.consistency(), writeType);
        }).thenApply(ignored -> new VoidResult());
    }

    /**
     * Cassandra's batch size guardrail (BatchStatement.verifyBatchSize): a batch over several partitions whose updates
     * exceed the warn threshold gets a warning, and one over the fail threshold is refused; a batch of one partition is
     * one mutation, and is never checked.
     */
    private static void checkSize(List<PartitionUpdate> updates, List<BatchableStatement> statements, QueryContext batch) {
        if (updates.size() <= 1) return;
        QueryEnvironment.Guardrails limits = batch.environment().guardrails();
        long size = 0;
        for (PartitionUpdate u : updates) size += u.dataSize();
        if (size <= limits.batchSizeWarnBytes()) return;
        Set<String> tables = tables(statements);
        boolean fails = size > limits.batchSizeFailBytes();
        long threshold = fails ? limits.batchSizeFailBytes() : limits.batchSizeWarnBytes();
        // in bytes, as Cassandra 5.0 writes it
        String message = "Batch for " + tables + " is of size " + size + ", exceeding specified threshold of " + threshold
                + " by " + (size - threshold) + "." + (fails ? " (see batch_size_fail_threshold_in_kb)" : "");
        if (fails) {
            log.error(message);
            throw new InvalidRequestException("Batch too large");
        }
        log.warn(message);
        batch.warn(message);
    }

    /**
     * Cassandra's warning for a batch that is not logged over more than {@value #UNLOGGED_PARTITIONS_WARNED_AFTER}
     * partitions (unlogged_batch_across_partitions_warn_threshold's default), told apart by their keys alone.
     */
    private static void warnOfPartitions(List<PartitionUpdate> updates, List<BatchableStatement> statements, QueryContext batch) {
        if (updates.size() <= UNLOGGED_PARTITIONS_WARNED_AFTER) return; // no more partitions than updates
        Set<PartitionKey> keys = new HashSet<>();
        for (PartitionUpdate u : updates) keys.add(u.key());
        if (keys.size() <= UNLOGGED_PARTITIONS_WARNED_AFTER) return;
        Set<String> tables = tables(statements);
        batch.warn("Unlogged batch covering " + keys.size() + " partitions detected against table" + (tables.size() == 1 ? " " : "s ")
                + tables + ". You should use a logged batch for atomicity, or asynchronous writes for performance.");
    }

    private static Set<String> tables(List<BatchableStatement> statements) {
        Set<String> tables = new TreeSet<>();
        for (BatchableStatement s : statements) tables.add(s.table().keyspace() + "." + s.table().name());
        return tables;
    }
}
