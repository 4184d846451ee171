package ballot.cql.statement;

import ballot.cql.ConsistencyLevel;
import ballot.cql.WriteType;
import ballot.cql.data.Clustering;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.RangeTombstone;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Slice;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.parse.Operator;
import ballot.cql.parse.Relation;
import ballot.cql.parse.Statement;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Result;
import ballot.cql.protocol.message.VoidResult;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.TableMetadata;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.ListType;
import ballot.cql.type.UserTypeResolver;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** A prepared INSERT, UPDATE or DELETE (without IF conditions). */
final class ModificationStatement implements BatchableStatement {
    /** TTLs above 20 years are refused, as in Cassandra. */
    static final int MAX_TTL_SECONDS = 20 * 365 * 24 * 60 * 60;
    /** 2038-01-19T03:14:06Z, the latest expiration (in seconds since the epoch) a TTL may reach. */
    private static final long MAX_EXPIRATION_SECONDS = Integer.MAX_VALUE - 1;

    enum Kind { INSERT, UPDATE, DELETE }

    private final Kind kind;
    private final TableMetadata table;
    private final Restrictions where;
    private final List<Operation> regularOperations;
    private final List<Operation> staticOperations;
    private final Value ttl;
    private final Value timestamp;
    /** USING TIMEOUT: applies when the statement runs alone; in a batch the batch's own applies, as in ScyllaDB. */
    private final StatementTimeout timeout;
    private final Markers markers;
    private final boolean requiresRead;
    /** True if an operation writes elements of a non-frozen list, whose cell paths take the node's clock. */
    private final boolean writesListElements;
    private final Conditions conditions;

    /** What the statement's IF clause reads, which decides the key columns its WHERE clause must name. */
    enum Conditions {
        NONE, STATIC_ROW, REGULAR_COLUMNS;

        /** IF EXISTS and conditions on static columns read the static row; a condition on a regular column, a row. */
        static Conditions of(TableMetadata table, Statement.Modification m) {
            if (m.conditions().isEmpty()) return m.ifExists() || m.ifNotExists() ? STATIC_ROW : NONE;
            for (ballot.cql.parse.Condition c : m.conditions()) {
                ColumnMetadata column = table.column(c.column());
                if (column != null && !column.isStatic()) return REGULAR_COLUMNS;
            }
            return STATIC_ROW;
        }
    }

    private ModificationStatement(Kind kind, TableMetadata table, Restrictions where, List<Operation> operations,
            Value ttl, Value timestamp, StatementTimeout timeout, Markers markers, Conditions conditions) {
        this.kind = kind;
        this.conditions = conditions;
        this.table = table;
        this.where = where;
        this.regularOperations = new ArrayList<>();
        this.staticOperations = new ArrayList<>();
        boolean read = false;
        boolean listElements = false;
        for (Operation op : operations) {
            (op.column.isStatic() ? staticOperations : regularOperations).add(op);
            read |= op.requiresRead();
            listElements |= op.column.type() instanceof ListType && op.column.type().isMultiCell();
        }
        this.writesListElements = listElements;
        this.ttl = ttl;
        this.timestamp = timestamp;
        this.timeout = timeout;
        this.markers = markers;
        this.requiresRead = read;
        validate();
    }

    // ---------------------------------------------------------------- preparation

    static ModificationStatement insert(TableMetadata table, Statement.Insert insert, Markers markers, UserTypeResolver types) {
        if (insert.columns().size() != insert.values().size()) throw new InvalidRequestException("Unmatched column names/values");
        if (table.isCounter()) throw new InvalidRequestException("INSERT statements are not allowed on counter tables, use UPDATE instead");
        List<Relation> keyRelations = new ArrayList<>();
        List<Operation> operations = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < insert.columns().size(); i++) {
            String name = insert.columns().get(i);
            ColumnMetadata c = Restrictions.column(table, name);
            if (!seen.add(name)) throw new InvalidRequestException("Multiple definitions found for column " + name);
            if (c.isPrimaryKey()) keyRelations.add(new Relation.Single(name, null, Operator.EQ, insert.values().get(i)));
            else operations.add(Operation.setValue(table, c, insert.values().get(i), markers, types));
        }
        // Clustering columns may be left out only all together, by an INSERT of static columns only.
        boolean clusteringGiven = table.clustering().stream().anyMatch(c -> seen.contains(c.name()));
        boolean onlyStatic = !operations.isEmpty() && operations.stream().allMatch(o -> o.column.isStatic());
        checkKeyColumnsPresent(table, seen, clusteringGiven || !onlyStatic);
        Restrictions where = Restrictions.of(table, keyRelations, markers, types);
        return new ModificationStatement(Kind.INSERT, table, where, operations,
                attribute(insert.attributes().ttl(), table, "[ttl]", markers, types, true),
                attribute(insert.attributes().timestamp(), table, "[timestamp]", markers, types, false),
                StatementTimeout.prepare(insert.attributes().timeout(), table.keyspace(), table.name(), markers), markers, Conditions.NONE);
    }

    private static void checkKeyColumnsPresent(TableMetadata table, java.util.Set<String> given, boolean needsClustering) {
        List<String> missing = new ArrayList<>();
        for (ColumnMetadata c : table.partitionKey()) if (!given.contains(c.name())) missing.add(c.name());
        if (!missing.isEmpty()) throw new InvalidRequestException("Some partition key parts are missing: " + String.join(", ", missing));
        if (!needsClustering) return;
        for (ColumnMetadata c : table.clustering()) if (!given.contains(c.name())) missing.add(c.name());
        if (!missing.isEmpty()) throw new InvalidRequestException("Some clustering keys are missing: " + String.join(", ", missing));
    }

    static ModificationStatement update(TableMetadata table, Statement.Update update, Markers markers, UserTypeResolver types) {
        return update(table, update, markers, types, false);
    }

    /** {@code inTransaction}: numeric {@code +=} and {@code -=} read the row and are allowed (Operation#of). */
    static ModificationStatement update(TableMetadata table, Statement.Update update, Markers markers, UserTypeResolver types,
            boolean inTransaction) {
        Value ttlValue = attribute(update.attributes().ttl(), table, "[ttl]", markers, types, true);
        Value timestampValue = attribute(update.attributes().timestamp(), table, "[timestamp]", markers, types, false);
        List<Operation> operations = new ArrayList<>();
        java.util.Set<String> assigned = new java.util.HashSet<>();
        for (var assignment : update.assignments()) {
            Operation op = Operation.of(table, assignment, markers, types, inTransaction);
            boolean wholeColumn = assignment instanceof ballot.cql.parse.Assignment.SetValue;
            if (wholeColumn && !assigned.add(assignment.column())) {
                throw new InvalidRequestException("Multiple definitions found for column " + assignment.column());
            }
            operations.add(op);
        }
        Restrictions where = Restrictions.of(table, update.where(), markers, types);
        StatementTimeout timeout = StatementTimeout.prepare(update.attributes().timeout(), table.keyspace(), table.name(), markers);
        return new ModificationStatement(Kind.UPDATE, table, where, operations, ttlValue, timestampValue, timeout, markers,
                Conditions.of(table, update));
    }

    static ModificationStatement delete(TableMetadata table, Statement.Delete delete, Markers markers, UserTypeResolver types) {
        List<Operation> operations = new ArrayList<>();
        for (Statement.DeleteTarget target : delete.targets()) operations.add(Operation.delete(table, target, markers, types));
        Value timestampValue = attribute(delete.attributes().timestamp(), table, "[timestamp]", markers, types, false);
        Restrictions where = Restrictions.of(table, delete.where(), markers, types);
        StatementTimeout timeout = StatementTimeout.prepare(delete.attributes().timeout(), table.keyspace(), table.name(), markers);
        return new ModificationStatement(Kind.DELETE, table, where, operations, null, timestampValue, timeout, markers,
                Conditions.of(table, delete));
    }

    private static Value attribute(ballot.cql.parse.Term term, TableMetadata table, String name, Markers markers,
            UserTypeResolver types, boolean isTtl) {
        if (term == null) return null;
        ColumnSpec receiver = new ColumnSpec(table.keyspace(), table.name(), name, isTtl ? CqlTypes.INT : CqlTypes.BIGINT);
        return Terms.prepare(term, receiver, markers, types);
    }

    private void validate() {
        String verb = kind.name();
        if (where.hasTokenRestriction()) {
            throw new InvalidRequestException("The token function cannot be used in WHERE clauses for " + verb + " statements");
        }
        if (!where.filters().isEmpty()) {
            List<String> names = new ArrayList<>();
            for (RowFilter f : where.filters()) names.add(f.column().name());
            boolean onlyKeys = where.restrictsOnlyKeys();
            if (onlyKeys && where.clusteringNotPrefixReason() != null) throw new InvalidRequestException(where.clusteringNotPrefixReason());
            if (onlyKeys) {
                throw new InvalidRequestException("Some partition key parts are missing: " + missingPartitionKeyParts());
            }
            throw new InvalidRequestException("Non PRIMARY KEY columns found in where clause: " + String.join(", ", names) + " ");  // Cassandra ends it with a space
        }
        if (!where.hasPartitionKey()) {
            throw new InvalidRequestException("Some partition key parts are missing: " + missingPartitionKeyParts());
        }
        if (table.isCounter() && timestamp != null) throw new InvalidRequestException("Cannot provide custom timestamp for counter updates");
        if (table.isCounter() && ttl != null) throw new InvalidRequestException("Cannot provide custom TTL for counter updates");
        // A condition on a regular column reads a row, which the WHERE clause must name as for a write of one (Cassandra).
        boolean onlyStatic = regularOperations.isEmpty() && !staticOperations.isEmpty() && conditions != Conditions.REGULAR_COLUMNS;
        if (kind != Kind.DELETE) {
            if (onlyStatic && where.hasClusteringRestrictions() && kind == Kind.UPDATE) {
                throw new InvalidRequestException("Invalid restrictions on clustering columns since the UPDATE statement modifies only static columns");
            }
            if (!onlyStatic && !table.clustering().isEmpty()) {
                if (where.hasClusteringSlice()) {
                    throw new InvalidRequestException("Slice restrictions are not supported on the clustering columns in " + verb + " statements");
                }
                if (where.clusteringPrefixSize() < table.clustering().size()) {
                    List<String> missing = new ArrayList<>();
                    for (int i = where.clusteringPrefixSize(); i < table.clustering().size(); i++) missing.add(table.clustering().get(i).name());
                    throw new InvalidRequestException("Some clustering keys are missing: " + String.join(", ", missing));
                }
            }
        } else {
            if (conditions != Conditions.NONE) checkConditionalDelete();
            if (!regularOperations.isEmpty() && !table.clustering().isEmpty() && !namesFullRows()) {
                throw new InvalidRequestException("Range deletions are not supported for specific columns");
            }
            if (onlyStatic && where.hasClusteringRestrictions()) {
                throw new InvalidRequestException("Invalid restrictions on clustering columns since the DELETE statement modifies only static columns");
            }
        }
    }

    /** True if the WHERE clause names whole rows: every clustering column by equality (or IN). */
    private boolean namesFullRows() {
        return where.clusteringPrefixSize() == table.clustering().size() && !where.hasClusteringSlice();
    }

    /**
     * A conditional DELETE that does not name whole rows may delete, and condition on, static columns only, as in
     * Cassandra: else it would delete rows its conditions never read (a whole partition for an IF on a static column).
     */
    private void checkConditionalDelete() {
        if (namesFullRows()) return;
        if (!regularOperations.isEmpty() || staticOperations.isEmpty()) {
            throw new InvalidRequestException("DELETE statements must restrict all PRIMARY KEY columns with equality relations in order to delete non static columns");
        }
        if (conditions == Conditions.REGULAR_COLUMNS) {
            throw new InvalidRequestException("DELETE statements must restrict all PRIMARY KEY columns with equality relations in order to use IF condition on non static columns");
        }
    }

    private String missingPartitionKeyParts() {
        List<String> missing = new ArrayList<>();
        java.util.Set<String> filtered = new java.util.HashSet<>();
        for (RowFilter f : where.filters()) filtered.add(f.column().name());
        for (ColumnMetadata c : table.partitionKey()) {
            if (!where.hasPartitionKey() && !filtered.contains(c.name())) missing.add(c.name());
        }
        if (missing.isEmpty()) for (ColumnMetadata c : table.partitionKey()) missing.add(c.name());
        return String.join(", ", missing);
    }

    // ---------------------------------------------------------------- execution

    @Override
    public TableMetadata table() {
        return table;
    }

    Restrictions where() {
        return where;
    }

    /** True if an operation reads the row before writing it (list element by index, list removal by value). */
    boolean requiresRead() {
        return requiresRead;
    }

    /** Whether the statement writes static columns. */
    boolean writesStatic() {
        return !staticOperations.isEmpty();
    }

    /**
     * Whether the statement writes a regular row: it names clustering values, or the table has none (Cassandra's rule;
     * an INSERT of static columns only still writes its row's primary key, an UPDATE of them with a clustering its row).
     */
    boolean writesRegularRow() {
        return table.clustering().isEmpty() || where.clusteringPrefixSize() > 0 || where.hasClusteringSlice();
    }

    /**
     * The row this statement conditions and reads in a compare-and-set: its clustering, EMPTY without clustering
     * columns, or STATIC when it does not name one row (static columns only, the whole partition, a range). Refuses IN
     * on the clustering columns, as Cassandra does.
     */
    Clustering casRow(Bindings b) {
        List<Clustering> prefixes = where.clusterings(b);
        if (where.hasClusteringIn() || prefixes.size() != 1) {
            throw new InvalidRequestException("IN on the clustering key columns is not supported with conditional "
                    + (kind == Kind.DELETE ? "deletions" : "updates"));
        }
        if (table.clustering().isEmpty()) return Clustering.EMPTY;
        if (where.clusteringPrefixSize() < table.clustering().size()) return Clustering.STATIC;
        return prefixes.get(0);
    }

    /** Adds this statement's updates of one partition at {@code timestamp}, given its current rows (compare-and-set). */
    void addForCas(QueryContext context, UpdatesBuilder.PartitionBuilder partition, long timestamp, Map<Clustering, RowView> existing) {
        // a decree's timestamps follow the Paxos chain (docs/paxos.md §5.6): so do the list elements it appends
        addTo(partition, context.bindings(), new UpdateParams(timestamp, ttl(context), context.nowInSec(), timestamp), existing);
    }

    @Override
    public void addTo(CasBatch cas, QueryContext context) {
        cas.write(this, context, false);
    }

    @Override
    public boolean isCounter() {
        return table.isCounter();
    }

    @Override
    public boolean hasTimestamp() {
        return timestamp != null;
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
        return PartitionKeyIndexes.of(table, markers);
    }

    @Override
    public boolean executesWithoutWaiting() {
        return !requiresRead;
    }

    @Override
    public Duration usingTimeout(QueryOptions options) {
        return timeout.before(options, markerNames());
    }

    @Override
    public CompletableFuture<Result> execute(QueryContext statement) {
        checkWriteConsistency(statement.consistency());
        QueryContext context = timeout.applyTo(statement);
        return collect(context, new UpdatesBuilder()).thenCompose(builder ->
                context.data().write(builder.build(), context.consistency(),
                        table.isCounter() ? WriteType.COUNTER : WriteType.SIMPLE))
                .thenApply(ignored -> new VoidResult());
    }

    static void checkWriteConsistency(ConsistencyLevel consistency) {
        if (consistency.isSerial()) {
            throw new InvalidRequestException("You must use conditional updates for serializable writes");
        }
    }

    /** Adds this statement's updates for {@code context} to {@code builder}, reading first if an operation needs it. */
    @Override
    public CompletableFuture<UpdatesBuilder> collect(QueryContext context, UpdatesBuilder builder) {
        Bindings b = context.bindings();
        List<PartitionKey> keys = where.partitionKeys(b);
        long timestamp = timestamp(context);
        UpdateParams params = new UpdateParams(timestamp, ttl(context), context.nowInSec(), listTime(context, timestamp));
        if (!requiresRead) {
            for (PartitionKey key : keys) addTo(builder.partition(table, key), b, params, Map.of());
            return CompletableFuture.completedFuture(builder);
        }
        List<CompletableFuture<PartitionData>> reads = new ArrayList<>();
        for (PartitionKey key : keys) {
            ReadSpec spec = ReadSpec.all(context.nowInSec()).withSlices(where.slices(b));
            reads.add(context.data().read(table, key, spec, readConsistency(context.consistency())));
        }
        return CompletableFuture.allOf(reads.toArray(new CompletableFuture[0])).thenApply(ignored -> {
            for (int i = 0; i < keys.size(); i++) {
                Map<Clustering, RowView> existing = new CurrentPartition(table, keys.get(i), reads.get(i).join(), context.nowInSec()).existing();
                addTo(builder.partition(table, keys.get(i)), b, params, existing);
            }
            return builder;
        });
    }

    private static ConsistencyLevel readConsistency(ConsistencyLevel write) {
        return write == ConsistencyLevel.ANY ? ConsistencyLevel.ONE : write;
    }

    private void addTo(UpdatesBuilder.PartitionBuilder partition, Bindings b, UpdateParams params, Map<Clustering, RowView> existing) {
        if (kind == Kind.DELETE && regularOperations.isEmpty() && staticOperations.isEmpty()) {
            deleteRows(partition, b, params);
            return;
        }
        if (!staticOperations.isEmpty()) {
            UpdatesBuilder.RowBuilder row = partition.row(Clustering.STATIC);
            RowView current = existing.get(Clustering.STATIC);
            for (Operation op : staticOperations) op.apply(row, b, params, current);
        }
        boolean touchesRows = kind == Kind.INSERT
                ? table.clustering().isEmpty() || where.clusteringPrefixSize() == table.clustering().size()
                : !regularOperations.isEmpty();
        if (!touchesRows) return;
        List<Clustering> clusterings = table.clustering().isEmpty() ? List.of(Clustering.EMPTY) : where.clusterings(b);
        for (Clustering clustering : clusterings) {
            checkClustering(clustering);
            UpdatesBuilder.RowBuilder row = partition.row(clustering);
            if (kind == Kind.INSERT) row.liveness(params.liveness());
            RowView current = existing.get(clustering);
            for (Operation op : regularOperations) op.apply(row, b, params, current);
        }
    }

    private void checkClustering(Clustering clustering) {
        for (int i = 0; i < clustering.size(); i++) {
            if (clustering.get(i).remaining() > 0xFFFF) {
                throw new InvalidRequestException("Key length of " + clustering.get(i).remaining() + " is longer than maximum of 65535");
            }
        }
    }

    private void deleteRows(UpdatesBuilder.PartitionBuilder partition, Bindings b, UpdateParams params) {
        if (!where.hasClusteringRestrictions() || table.clustering().isEmpty()) {
            partition.deletePartition(params.deletion());
            return;
        }
        if (namesFullRows()) {
            for (Clustering clustering : where.clusterings(b)) partition.row(clustering).delete(params.deletion());
            return;
        }
        for (Slice slice : where.slices(b)) {
            partition.addRangeTombstone(new RangeTombstone(slice, params.deletion()));
        }
    }

    /** The clock the node's list element paths take, read only for a statement that writes list elements. */
    private long listTime(QueryContext context, long timestamp) {
        return writesListElements ? context.environment().timestampMicros().getAsLong() : timestamp;
    }

    private long timestamp(QueryContext context) {
        if (timestamp == null) return context.timestamp();
        ByteBuffer v = timestamp.bind(context.bindings());
        if (v == null) throw new InvalidRequestException("Invalid null value of timestamp");
        if (v == QueryOptions.UNSET) return context.timestamp();
        long ts = v.getLong(v.position());
        if (ts == Long.MIN_VALUE) throw new InvalidRequestException("Out of bound timestamp, must be in [" + (Long.MIN_VALUE + 1) + ", " + Long.MAX_VALUE + "]");
        return ts;
    }

    private int ttl(QueryContext context) {
        if (table.isCounter()) return 0;
        if (ttl == null) {
            // A DELETE writes no TTL, but Cassandra checks its table's default TTL as well.
            int seconds = checkExpiration(table.params().defaultTimeToLive(), true, context);
            return kind == Kind.DELETE ? 0 : seconds;
        }
        ByteBuffer v = ttl.bind(context.bindings());
        if (v == null) return 0;
        if (v == QueryOptions.UNSET) return table.params().defaultTimeToLive();
        int seconds = v.getInt(v.position());
        if (seconds < 0) throw new InvalidRequestException("A TTL must be greater or equal to 0, but was " + seconds);
        if (seconds > MAX_TTL_SECONDS) {
            throw new InvalidRequestException("ttl is too large. requested (" + seconds + ") maximum (" + MAX_TTL_SECONDS + ")");
        }
        return checkExpiration(seconds, false, context);
    }

    /**
     * A TTL may not expire after 2038-01-19T03:14:06Z, as in Cassandra 5.0 with its default storage compatibility mode
     * (4.x's format, expirations held in a signed int) and its default expiration date overflow policy, REJECT.
     */
    private int checkExpiration(int seconds, boolean isDefault, QueryContext context) {
        if (seconds != 0 && (long) context.nowInSec() + seconds > MAX_EXPIRATION_SECONDS) {
            throw new InvalidRequestException("Request on table " + table.keyspace() + "." + table.name() + " with "
                    + (isDefault ? "default " : "") + "ttl of " + seconds + " seconds exceeds maximum supported expiration date"
                    + " of 2038-01-19T03:14:06+00:00. In order to avoid this use a lower TTL, change the expiration date"
                    + " overflow policy or upgrade to a version where this limitation is fixed. See CASSANDRA-14092 and"
                    + " CASSANDRA-14227 for more details.");
        }
        return seconds;
    }
}
