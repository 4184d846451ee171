package ballot.cql.statement;

import ballot.cql.ConsistencyLevel;
import ballot.cql.data.Clustering;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.PartitionUpdate;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Row;
import ballot.cql.data.Slice;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.parse.Condition;
import ballot.cql.parse.Statement;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.Result;
import ballot.cql.protocol.message.Rows;
import ballot.cql.protocol.message.RowsMetadata;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.TableMetadata;
import ballot.cql.spi.CasRequest;
import ballot.cql.spi.CasResult;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.UserTypeResolver;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A conditional INSERT, UPDATE or DELETE (IF NOT EXISTS, IF EXISTS, IF conditions): a compare-and-set on one row of
 * one partition, run by the coordinator's {@link ballot.cql.spi.DataCoordinator#cas}. The result has an
 * {@code [applied]} column and the values the condition looked at: the current ones when not applied (Cassandra), the
 * previous ones when applied (as ScyllaDB reports them; Cassandra sends only {@code [applied]}). When the row did not
 * exist, only {@code [applied]} is sent.
 */
final class ConditionalStatement implements CqlStatement {
    enum Kind { IF_NOT_EXISTS, IF_EXISTS, CONDITIONS }

    private final ModificationStatement base;
    private final Kind kind;
    private final List<ColumnCondition> conditions;
    private final Markers markers;

    private ConditionalStatement(ModificationStatement base, Kind kind, List<ColumnCondition> conditions, Markers markers) {
        this.base = base;
        this.kind = kind;
        this.conditions = conditions;
        this.markers = markers;
    }

    static ConditionalStatement prepare(ModificationStatement base, Statement.Modification ast, Markers markers, UserTypeResolver types) {
        TableMetadata table = base.table();
        if (table.isCounter()) throw new InvalidRequestException("Conditional updates are not supported on counter tables");
        if (ast.attributes().timestamp() != null) throw new InvalidRequestException("Cannot provide custom timestamp for conditional updates");
        if (base.where().hasClusteringIn()) {
            throw new InvalidRequestException("IN on the clustering key columns is not supported with conditional " + verb(ast));
        }
        if (base.where().hasClusteringSlice()) {
            throw new InvalidRequestException("DELETE statements must restrict all PRIMARY KEY columns with equality relations in order to use IF conditions");
        }
        Kind kind = ast.ifNotExists() ? Kind.IF_NOT_EXISTS : ast.ifExists() ? Kind.IF_EXISTS : Kind.CONDITIONS;
        List<ColumnCondition> conditions = new ArrayList<>();
        for (Condition c : ast.conditions()) conditions.add(ColumnCondition.of(table, c, markers, types));
        return new ConditionalStatement(base, kind, conditions, markers);
    }

    private static String verb(Statement.Modification ast) {
        return ast instanceof Statement.Delete ? "deletions" : "updates";
    }

    @Override
    public List<ColumnSpec> variables() {
        return markers.specs();
    }

    @Override
    public List<String> markerNames() {
        return markers.names();
    }

    @Override
    public List<Integer> partitionKeyIndexes() {
        return PartitionKeyIndexes.of(base.table(), markers);
    }

    @Override
    public boolean isConditional() {
        return true;
    }

    @Override
    public CompletableFuture<Result> execute(QueryContext context) {
        ConsistencyLevel serial = context.options().serialConsistency() != null ? context.options().serialConsistency() : ConsistencyLevel.SERIAL;
        if (!serial.isSerial()) {
            throw new InvalidRequestException("Invalid consistency for conditional update. Must be one of SERIAL or LOCAL_SERIAL");
        }
        ConsistencyLevel commit = context.consistency();
        if (commit.isSerial()) {
            throw new InvalidRequestException(commit + " is not supported as conditional update commit consistency. "
                    + "Use ANY if you mean \"make sure it is accepted but I don't care how many replicas commit it for non-SERIAL reads\"");
        }
        TableMetadata table = base.table();
        Bindings b = context.bindings();
        List<PartitionKey> keys = base.where().partitionKeys(b);
        if (keys.size() != 1) throw new InvalidRequestException("IN on the partition key is not supported with conditional updates");
        PartitionKey key = keys.get(0);
        Clustering clustering = rowClustering(b);
        List<ColumnCondition.Bound> bound = new ArrayList<>();
        for (ColumnCondition c : conditions) bound.add(c.bind(b));
        // The static row comes with every read; a statement on it alone reads no rows.
        List<Slice> slices = clustering.isStatic() ? List.of() : clustering.size() == 0 ? List.of(Slice.ALL) : List.of(Slice.of(clustering.values()));
        ReadSpec read = new ReadSpec(slices, false, 1, 1, context.nowInSec());
        CasRequest request = new CasRequest() {
            public TableMetadata table() { return table; }
            public PartitionKey key() { return key; }
            public ReadSpec read() { return read; }
            public PartitionUpdate apply(PartitionData current, long timestamp) {
                if (!holds(current, key, clustering, bound, context.nowInSec())) return null;
                UpdatesBuilder builder = new UpdatesBuilder();
                base.addForCas(context, builder.partition(table, key), timestamp, existing(current, key, context.nowInSec()));
                List<PartitionUpdate> updates = builder.build();
                return updates.isEmpty() ? new PartitionUpdate(table.id(), key, ballot.cql.data.DeletionTime.LIVE, List.of(), null, List.of())
                        : updates.get(0);
            }
        };
        return context.environment().data().cas(request, serial, commit)
                .thenApply(result -> casResult(result, key, clustering, context.nowInSec()));
    }

    /** The row the statement targets; STATIC when it only touches static columns or the table has no clustering. */
    private Clustering rowClustering(Bindings b) {
        TableMetadata table = base.table();
        if (table.clustering().isEmpty()) return Clustering.EMPTY;
        if (base.where().clusteringPrefixSize() < table.clustering().size()) return Clustering.STATIC;
        List<Clustering> clusterings = base.where().clusterings(b);
        if (clusterings.size() != 1) throw new InvalidRequestException("IN on the clustering key columns is not supported with conditional updates");
        return clusterings.get(0);
    }

    private boolean holds(PartitionData current, PartitionKey key, Clustering clustering, List<ColumnCondition.Bound> bound, int now) {
        RowView row = target(current, key, clustering, now);
        switch (kind) {
            case IF_NOT_EXISTS:
                return row == null;
            case IF_EXISTS:
                return row != null;
            default:
                for (int i = 0; i < conditions.size(); i++) {
                    ColumnCondition c = conditions.get(i);
                    RowView view = c.column().isStatic() ? staticView(current, key, now) : row;
                    if (!bound.get(i).holds(view)) return false;
                }
                return true;
        }
    }

    /** The live row at {@code clustering} (or the live static row), or null if there is none. */
    private RowView target(PartitionData current, PartitionKey key, Clustering clustering, int now) {
        ByteBuffer[] keyComponents = PartitionKey.split(key.key(), base.table().partitionKey().size());
        Row staticRow = current.staticRow() != null && current.staticRow().hasLiveData(now) ? current.staticRow() : null;
        if (clustering.isStatic()) return staticRow == null ? null : new RowView(keyComponents, null, staticRow, now);
        for (Row r : current.rows()) {
            if (r.clustering().equals(clustering) && r.hasLiveData(now)) return new RowView(keyComponents, r, staticRow, now);
        }
        return null;
    }

    private RowView staticView(PartitionData current, PartitionKey key, int now) {
        Row staticRow = current.staticRow() != null && current.staticRow().hasLiveData(now) ? current.staticRow() : null;
        if (staticRow == null) return null;
        return new RowView(PartitionKey.split(key.key(), base.table().partitionKey().size()), null, staticRow, now);
    }

    private Map<Clustering, RowView> existing(PartitionData current, PartitionKey key, int now) {
        Map<Clustering, RowView> existing = new HashMap<>();
        ByteBuffer[] keyComponents = PartitionKey.split(key.key(), base.table().partitionKey().size());
        for (Row r : current.rows()) existing.put(r.clustering(), new RowView(keyComponents, r, current.staticRow(), now));
        existing.put(Clustering.STATIC, new RowView(keyComponents, null, current.staticRow(), now));
        return existing;
    }

    /**
     * [applied], and the values the condition looked at (all columns for IF NOT EXISTS / IF EXISTS): the current ones
     * when not applied, the previous ones when applied.
     */
    private Result casResult(CasResult result, PartitionKey key, Clustering clustering, int now) {
        TableMetadata table = base.table();
        ColumnSpec applied = new ColumnSpec(table.keyspace(), table.name(), "[applied]", CqlTypes.BOOLEAN);
        ByteBuffer appliedValue = CqlTypes.BOOLEAN.decompose(result.applied());
        RowView row = result.current() == null ? null : target(result.current(), key, clustering, now);
        RowView staticRow = result.current() == null ? null : staticView(result.current(), key, now);
        if (row == null && (kind != Kind.CONDITIONS || staticRow == null)) {
            return new Rows(RowsMetadata.of(List.of(applied)), List.<ByteBuffer[]>of(new ByteBuffer[] {appliedValue}));
        }
        Set<ColumnMetadata> columns = new LinkedHashSet<>();
        if (kind == Kind.CONDITIONS) {
            for (ColumnMetadata c : table.columns()) {
                for (ColumnCondition condition : conditions) if (condition.column() == c) columns.add(c);
            }
        } else {
            columns.addAll(table.columns());
        }
        List<ColumnSpec> specs = new ArrayList<>();
        specs.add(applied);
        ByteBuffer[] values = new ByteBuffer[columns.size() + 1];
        values[0] = appliedValue;
        int i = 1;
        for (ColumnMetadata c : columns) {
            specs.add(new ColumnSpec(table.keyspace(), table.name(), c.name(), c.type()));
            RowView view = c.isStatic() ? staticRow : row;
            values[i++] = view == null ? null : view.value(c);
        }
        return new Rows(RowsMetadata.of(specs), List.<ByteBuffer[]>of(values));
    }
}
