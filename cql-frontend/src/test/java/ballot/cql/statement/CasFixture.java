package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import ballot.cql.ConsistencyLevel;
import ballot.cql.WriteType;
import ballot.cql.data.Cell;
import ballot.cql.data.Clustering;
import ballot.cql.data.ComplexDeletion;
import ballot.cql.data.DeletionTime;
import ballot.cql.data.LivenessInfo;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Row;
import ballot.cql.data.Slice;
import ballot.cql.data.TokenRange;
import ballot.cql.error.CqlException;
import ballot.cql.error.ErrorCode;
import ballot.cql.protocol.message.BatchType;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Result;
import ballot.cql.protocol.message.Rows;
import ballot.cql.schema.Schema;
import ballot.cql.schema.TableMetadata;
import ballot.cql.spi.CasRequest;
import ballot.cql.spi.CasResult;
import ballot.cql.spi.DataCoordinator;
import ballot.cql.spi.LwtCoordinator;
import ballot.cql.spi.TransactionResult;
import ballot.cql.spi.Transactions;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Statements run for real (parsed, prepared, executed) against a coordinator that keeps no storage: each partition is
 * what the one plain write given to it left, the fragments of a row merged (a plain read in clustering order sees the
 * rows in its slices), and a compare-and-set evaluates its request on the rows of that partition its read selects, as
 * Paxos would, and records the read and the update. Nothing a compare-and-set writes is kept.
 */
final class CasFixture implements DataCoordinator, LwtCoordinator, Transactions {
    static final long DECREE_TIMESTAMP = 1_000_000L;

    private final SchemaFixture node = new SchemaFixture(this, this, this);
    final QueryEnvironment environment = node.environment;
    final Preparer preparer = node.preparer;
    /** By table id and partition key. */
    private final Map<List<Object>, PartitionData> partitions = new HashMap<>();
    private final List<CasRequest> casRequests = new ArrayList<>();
    private final List<PartitionUpdate> casUpdates = new ArrayList<>();
    private final List<ConsistencyLevel> casLevels = new ArrayList<>();
    private final List<List<CasRequest>> transactions = new ArrayList<>();

    CasFixture(String... ddl) {
        execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        for (String statement : ddl) execute(statement);
    }

    Result execute(String cql) {
        return execute(cql, QueryOptions.DEFAULT);
    }

    Result execute(String cql, QueryOptions options) {
        CqlStatement statement = preparer.prepare(cql, "ks");
        return statement.execute(QueryContext.of(environment, "ks", options, statement)).join();
    }

    /**
     * Asserts that {@code cql}, run with {@code options}, is refused with {@code code} and exactly {@code message},
     * whether when prepared or when executed (the execution's CompletionException unwrapped).
     */
    void assertRefused(String cql, QueryOptions options, ErrorCode code, String message) {
        Throwable thrown = catchThrowable(() -> execute(cql, options));
        if (thrown instanceof CompletionException e) thrown = e.getCause();
        assertThat(thrown).as(cql).isInstanceOf(CqlException.class).hasMessage(message);
        assertThat(((CqlException) thrown).code()).as(cql).isEqualTo(code);
    }

    void assertRefused(String cql, ErrorCode code, String message) {
        assertRefused(cql, QueryOptions.DEFAULT, code, message);
    }

    /** Asserts that {@code cql} is refused as an invalid request (an InvalidRequestException) with exactly {@code message}. */
    void assertInvalid(String cql, String message) {
        assertRefused(cql, ErrorCode.INVALID, message);
    }

    /** A protocol BATCH of {@code cql} children, each with its values. */
    Result batch(List<String> cql, List<List<ByteBuffer>> values) {
        List<CqlStatement> statements = new ArrayList<>();
        for (String s : cql) statements.add(preparer.prepare(s, "ks"));
        QueryOptions options = new QueryOptions(ConsistencyLevel.QUORUM, List.of(), null, false, -1, null, ConsistencyLevel.LOCAL_SERIAL,
                null, "ks", null);
        return (Result) ProtocolBatch.run(environment, BatchType.LOGGED, statements, values, options, "ks", List.of()).join();
    }

    Schema schema() {
        return node.schema();
    }

    CasRequest lastCas() {
        return casRequests.get(casRequests.size() - 1);
    }

    /** What the last compare-and-set wrote; null if its conditions did not hold. */
    PartitionUpdate lastUpdate() {
        return casUpdates.get(casUpdates.size() - 1);
    }

    /** The serial and commit levels of the last compare-and-set. */
    List<ConsistencyLevel> lastLevels() {
        return casLevels.subList(casLevels.size() - 2, casLevels.size());
    }

    int casCount() {
        return casRequests.size();
    }

    /** The participants of the last transaction, in order. */
    List<CasRequest> lastTransaction() {
        return transactions.get(transactions.size() - 1);
    }

    int transactionCount() {
        return transactions.size();
    }

    /** Each row as column name → value, in column order. */
    static List<Map<String, Object>> rows(Result result) {
        Rows rows = (Rows) result;
        List<Map<String, Object>> out = new ArrayList<>();
        for (ByteBuffer[] row : rows.rows()) {
            Map<String, Object> values = new LinkedHashMap<>();
            for (int i = 0; i < row.length; i++) {
                ColumnSpec spec = rows.metadata().columns().get(i);
                values.put(spec.name(), row[i] == null ? null : spec.type().compose(row[i]));
            }
            out.add(values);
        }
        return out;
    }

    static List<String> columns(Result result) {
        return ((Rows) result).metadata().columns().stream().map(ColumnSpec::name).toList();
    }

    /** The clustering values (ints) of each row an update writes, in its order. */
    static List<List<Integer>> clusterings(PartitionUpdate update) {
        List<List<Integer>> out = new ArrayList<>();
        for (Row r : update.rows()) {
            List<Integer> values = new ArrayList<>();
            for (ByteBuffer v : r.clustering().values()) values.add(v.getInt(v.position()));
            out.add(values);
        }
        return out;
    }

    // ---------------------------------------------------------------- DataCoordinator

    @Override
    public CompletableFuture<Void> write(List<PartitionUpdate> updates, ConsistencyLevel consistency, WriteType writeType) {
        for (PartitionUpdate u : updates) {
            PartitionData previous = partitions.put(List.of(u.tableId(), u.key()), new PartitionData(u.key(), u.partitionDeletion(), u.rangeTombstones(), u.staticRow(), merged(u.rows())));
            if (previous != null) throw new UnsupportedOperationException("the fixture takes one write per partition");
        }
        return CompletableFuture.completedFuture(null);
    }

    /**
     * An update's rows with the fragments of each (a batch's statements writing one row) merged as storage merges
     * them, counters aside: the newest liveness, the later version of each cell, cells a deletion in the row shadows
     * dropped, in column and then path order.
     */
    private static List<Row> merged(List<Row> fragments) {
        Map<Clustering, List<Row>> byClustering = new LinkedHashMap<>();
        for (Row r : fragments) byClustering.computeIfAbsent(r.clustering(), c -> new ArrayList<>()).add(r);
        List<Row> rows = new ArrayList<>(byClustering.size());
        for (List<Row> row : byClustering.values()) rows.add(row.size() == 1 ? row.get(0) : merge(row));
        return rows;
    }

    private static Row merge(List<Row> fragments) {
        LivenessInfo liveness = LivenessInfo.EMPTY;
        DeletionTime deletion = DeletionTime.LIVE;
        Map<Integer, DeletionTime> complexDeletions = new TreeMap<>();
        Map<List<Object>, Cell> newest = new HashMap<>();
        for (Row fragment : fragments) {
            if (fragment.liveness().supersedes(liveness)) liveness = fragment.liveness();
            deletion = deletion.max(fragment.deletion());
            for (ComplexDeletion d : fragment.complexDeletions()) complexDeletions.merge(d.column(), d.deletion(), DeletionTime::max);
            for (Cell cell : fragment.cells()) {
                newest.merge(Arrays.asList(cell.column(), cell.path()), cell, (a, b) -> b.supersedes(a) ? b : a);
            }
        }
        List<Cell> cells = new ArrayList<>();
        for (Cell cell : newest.values()) {
            DeletionTime complex = complexDeletions.getOrDefault(cell.column(), DeletionTime.LIVE);
            if (!deletion.deletes(cell.timestamp()) && !(cell.path() != null && complex.deletes(cell.timestamp()))) cells.add(cell);
        }
        cells.sort(Comparator.comparingInt(Cell::column).thenComparing(Cell::path, Comparator.nullsFirst(Cell::unsignedCompare)));
        List<ComplexDeletion> complex = new ArrayList<>();
        complexDeletions.forEach((column, d) -> complex.add(new ComplexDeletion(column, d)));
        return new Row(fragments.get(0).clustering(), deletion.deletes(liveness.timestamp()) ? LivenessInfo.EMPTY : liveness,
                deletion, cells, complex);
    }

    @Override
    public CompletableFuture<CasResult> cas(CasRequest request, ConsistencyLevel serial, ConsistencyLevel commit) {
        casRequests.add(request);
        casLevels.add(serial);
        casLevels.add(commit);
        PartitionData stored = partitions.get(List.of(request.table().id(), request.key()));
        PartitionData current = read(stored, request.key(), request.read(), request.table());
        PartitionUpdate update = request.apply(current, DECREE_TIMESTAMP);
        casUpdates.add(update);
        return CompletableFuture.completedFuture(new CasResult(update != null, current));
    }

    /**
     * Every participant is evaluated on its stored partition, as Paxos would at one moment: applied if every one's
     * condition holds, with the rows each read. Nothing is kept.
     */
    @Override
    public CompletableFuture<TransactionResult> run(List<CasRequest> participants, ConsistencyLevel serial, ConsistencyLevel commit,
            ballot.cql.spi.StatementSource source) {
        transactions.add(List.copyOf(participants));
        List<PartitionData> reads = new ArrayList<>();
        boolean applied = true;
        for (CasRequest p : participants) {
            PartitionData current = read(partitions.get(List.of(p.table().id(), p.key())), p.key(), p.read(), p.table());
            reads.add(current);
            applied &= p.apply(current, DECREE_TIMESTAMP) != null;
        }
        return CompletableFuture.completedFuture(new TransactionResult(applied, applied ? reads : List.of()));
    }

    @Override
    public CompletableFuture<PartitionData> readSerial(TableMetadata table, PartitionKey key, ReadSpec spec, ConsistencyLevel serial) {
        return CompletableFuture.completedFuture(read(partitions.get(List.of(table.id(), key)), key, spec, table));
    }

    /** The rows of {@code data} in {@code spec}'s slices, and the static row, as a Paxos read returns them. */
    private static PartitionData read(PartitionData data, PartitionKey key, ReadSpec spec, TableMetadata table) {
        if (data == null) return new PartitionData(key, DeletionTime.LIVE, List.of(), null, List.of());
        List<Row> rows = new ArrayList<>();
        for (Row r : data.rows()) {
            for (Slice s : spec.slices()) {
                if (s.contains(r.clustering().values(), table::compareClusteringPrefix)) {
                    rows.add(r);
                    break;
                }
            }
        }
        return new PartitionData(key, data.partitionDeletion(), data.rangeTombstones(), data.staticRow(), rows);
    }

    /** A plain read of one partition sees what a serial one does. */
    @Override
    public CompletableFuture<PartitionData> read(TableMetadata table, PartitionKey key, ReadSpec spec, ConsistencyLevel consistency) {
        if (spec.reversed()) throw new UnsupportedOperationException("the fixture reads in clustering order only");
        return CompletableFuture.completedFuture(read(partitions.get(List.of(table.id(), key)), key, spec, table));
    }

    @Override
    public CompletableFuture<List<PartitionData>> scan(TableMetadata table, TokenRange range, ReadSpec spec, int partitionLimit,
            ConsistencyLevel consistency) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<ballot.cql.spi.IndexScanResult> indexScan(TableMetadata table, ballot.cql.index.IndexExpression expression,
            List<String> used, TokenRange range, ReadSpec spec, int partitionLimit, ConsistencyLevel consistency) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<Void> truncate(TableMetadata table) {
        throw new UnsupportedOperationException();
    }

    @Override
    public DataCoordinator within(java.time.Duration timeout) {
        throw new UnsupportedOperationException();
    }

    @Override
    public DataCoordinator withReadDeadline(boolean range) {
        return this;
    }
}
