package ballot.cql.statement;

import ballot.cql.ConsistencyLevel;
import ballot.cql.ResultMemory;
import ballot.cql.data.ClusteringBound;
import ballot.cql.data.PartitionData;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.ReadSpec;
import ballot.cql.data.Row;
import ballot.cql.data.Slice;
import ballot.cql.data.TokenRange;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.parse.Selector;
import ballot.cql.parse.Statement;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Result;
import ballot.cql.protocol.message.Rows;
import ballot.cql.protocol.message.RowsMetadata;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.TableMetadata;
import ballot.cql.spi.IndexScanResult;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.UserTypeResolver;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiPredicate;

/**
 * A prepared SELECT. Execution walks a cursor over the partitions and rows the restrictions select (a list of
 * partitions, or a token-range scan), reading chunks from the coordinator, filtering, and feeding the selection, until
 * the page is full; the cursor's position becomes the paging state.
 */
final class SelectStatement implements CqlStatement {
    /** Rows read per chunk when rows may be filtered out after the read. */
    private static final int FILTERING_CHUNK_ROWS = 512;
    /**
     * The most rows read per chunk otherwise: an unpaged query (or a page larger than this) is read in chunks, each
     * counted against the connection's {@link ballot.cql.ResultMemory} before the next is read.
     */
    static final int CHUNK_ROWS_MAX = 5000;
    static final String REQUIRES_ALLOW_FILTERING = "Cannot execute this query as it might involve data filtering and thus may have "
            + "unpredictable performance. If you want to execute this query despite the performance unpredictability, "
            + "use ALLOW FILTERING";

    private final TableMetadata table;
    private final Selection selection;
    private final Restrictions where;
    /** How the table's indexes serve the WHERE clause; null for a table without indexes. */
    private final IndexQueryPlan indexes;
    private final List<RowFilter> filters;
    private final boolean distinct;
    private final boolean json;
    private final boolean reversed;
    /** The ORDER BY columns, in their order; empty without ORDER BY or with ANN ordering. */
    private final List<ColumnMetadata> orderBy;
    /** {@code ORDER BY v ANN OF vector}, or null. */
    private final AnnOrdering ann;
    private final List<ColumnMetadata> groupBy;
    private final Value limit;
    private final Value perPartitionLimit;
    private final StatementTimeout timeout;
    private final Markers markers;
    private final List<ColumnSpec> resultColumns;

    private SelectStatement(TableMetadata table, Selection selection, Restrictions where, IndexQueryPlan indexes, boolean distinct,
            boolean json, boolean reversed, List<ColumnMetadata> orderBy, AnnOrdering ann, List<ColumnMetadata> groupBy, Value limit,
            Value perPartitionLimit, StatementTimeout timeout, Markers markers) {
        this.table = table;
        this.selection = selection;
        this.where = where;
        this.indexes = indexes;
        this.filters = indexes == null ? where.filters() : indexes.filters();
        this.distinct = distinct;
        this.json = json;
        this.reversed = reversed;
        this.orderBy = orderBy;
        this.ann = ann;
        this.groupBy = groupBy;
        this.limit = limit;
        this.perPartitionLimit = perPartitionLimit;
        this.timeout = timeout;
        this.markers = markers;
        this.resultColumns = json
                ? List.of(new ColumnSpec(table.keyspace(), table.name(), "[json]", CqlTypes.TEXT))
                : selection.columns();
    }

    static SelectStatement prepare(TableMetadata table, Statement.Select select, Markers markers, UserTypeResolver types) {
        Selection selection = select.selectsAll() ? Selection.wildcard(table) : Selection.of(table, select.selectors(), markers, types);
        Restrictions where = Restrictions.of(table, select.where(), markers, types);
        IndexQueryPlan indexes = table.indexes().isEmpty() ? null : IndexQueryPlan.of(table, select, where, markers, types);
        // Cassandra's order of refusals: the restrictions themselves, then DISTINCT, then ORDER BY, then filtering.
        if (!select.allowFiltering() && (indexes == null || !indexes.queriable()) && where.clusteringNotPrefixReason() != null) {
            throw new InvalidRequestException(where.clusteringNotPrefixReason());
        }
        if (select.distinct()) validateDistinct(table, selection, where, select);
        AnnOrdering ann = AnnOrdering.of(table, select, where, selection, markers, types);
        if (ann == null && !select.orderBy().isEmpty() && indexes != null && indexes.usesIndex()) {
            throw new InvalidRequestException("ORDER BY with 2ndary indexes is not supported, except for ANN queries.");
        }
        List<ColumnMetadata> orderBy = ann != null ? List.of() : orderingColumns(table, select.orderBy());
        boolean reversed = ann == null && orderBy(table, select.orderBy(), where);
        boolean needsFiltering = indexes != null ? indexes.needsFiltering()
                : where.needsFiltering() || where.hasClusteringRestrictions() && !where.hasPartitionKey();
        if (needsFiltering && !select.allowFiltering()) {
            throw new InvalidRequestException(REQUIRES_ALLOW_FILTERING);
        }
        List<ColumnMetadata> groupBy = groupBy(table, select.groupBy(), where);
        Value limit = limitValue(select.limit(), table, "[limit]", markers, types);
        Value perPartitionLimit = limitValue(select.perPartitionLimit(), table, "[per_partition_limit]", markers, types);
        if (perPartitionLimit != null && selection.isAggregate() && groupBy.isEmpty()) {
            throw new InvalidRequestException("PER PARTITION LIMIT is not allowed with aggregate queries.");
        }
        if (perPartitionLimit != null && select.distinct()) {
            throw new InvalidRequestException("PER PARTITION LIMIT is not allowed with SELECT DISTINCT queries");
        }
        StatementTimeout timeout = StatementTimeout.prepare(select.timeout(), table.keyspace(), table.name(), markers);
        return new SelectStatement(table, selection, where, indexes, select.distinct(), select.json(), reversed,
                orderBy, ann, groupBy, limit, perPartitionLimit, timeout, markers);
    }

    /** Cassandra's rules for SELECT DISTINCT, on every column the selectors read (functions' arguments included). */
    private static void validateDistinct(TableMetadata table, Selection selection, Restrictions where, Statement.Select select) {
        boolean filtersOthers = where.filters().stream().anyMatch(f -> !(f.column().kind() == ColumnMetadata.Kind.PARTITION_KEY || f.column().isStatic()));
        if (where.hasClusteringRestrictions() || filtersOthers) {
            throw new InvalidRequestException("SELECT DISTINCT with WHERE clause only supports restriction by partition key and/or static columns.");
        }
        if (selection.isWildcard()) {
            throw new InvalidRequestException("SELECT DISTINCT queries must only request partition key columns and/or static columns (not "
                    + firstNonKey(table) + ")");
        }
        Set<ColumnMetadata> requested = new LinkedHashSet<>();
        for (Selector.Aliased a : select.selectors()) columnsOf(a.selector(), table, requested);
        for (ColumnMetadata c : requested) {
            if (!(c.kind() == ColumnMetadata.Kind.PARTITION_KEY || c.isStatic())) {
                throw new InvalidRequestException("SELECT DISTINCT queries must only request partition key columns and/or static columns (not "
                        + c.name() + ")");
            }
        }
        // Only a scan of partitions has to return each partition's key; with the key fixed by = or IN it is known.
        if (where.hasPartitionKey()) return;
        for (ColumnMetadata c : table.partitionKey()) {
            if (!requested.contains(c)) {
                throw new InvalidRequestException("SELECT DISTINCT queries must request all the partition key columns (missing " + c.name() + ")");
            }
        }
    }

    private static void columnsOf(Selector s, TableMetadata table, Set<ColumnMetadata> into) {
        if (s instanceof Selector.Column c) into.add(Restrictions.column(table, c.name()));
        else if (s instanceof Selector.Function f) for (Selector arg : f.args()) columnsOf(arg, table, into);
        else if (s instanceof Selector.Cast c) columnsOf(c.selector(), table, into);
        else if (s instanceof Selector.Field f) columnsOf(f.selector(), table, into);
        else if (s instanceof Selector.Element e) columnsOf(e.selector(), table, into);
        else if (s instanceof Selector.Negation n) columnsOf(n.selector(), table, into);
        else if (s instanceof Selector.TypeHint h) columnsOf(h.selector(), table, into);
        else if (s instanceof Selector.Parenthesised p) for (Selector e : p.elements()) columnsOf(e, table, into);
        else if (s instanceof Selector.ListLiteral l) for (Selector e : l.elements()) columnsOf(e, table, into);
        else if (s instanceof Selector.SetLiteral l) for (Selector e : l.elements()) columnsOf(e, table, into);
        else if (s instanceof Selector.MapLiteral m) {
            for (Selector e : m.keys()) columnsOf(e, table, into);
            for (Selector e : m.values()) columnsOf(e, table, into);
        } else if (s instanceof Selector.Arithmetic a) {
            columnsOf(a.left(), table, into);
            columnsOf(a.right(), table, into);
        }
    }

    private static String firstNonKey(TableMetadata table) {
        for (ColumnMetadata c : table.columns()) if (!(c.kind() == ColumnMetadata.Kind.PARTITION_KEY || c.isStatic())) return c.name();
        return "*";
    }

    /** The columns ORDER BY names, each once at its first place. */
    private static List<ColumnMetadata> orderingColumns(TableMetadata table, List<Statement.Ordering> orderings) {
        Set<ColumnMetadata> columns = new LinkedHashSet<>();
        for (Statement.Ordering o : orderings) columns.add(Restrictions.column(table, o.column()));
        return List.copyOf(columns);
    }

    /** Checks ORDER BY and tells whether it reverses the clustering order. */
    private static boolean orderBy(TableMetadata table, List<Statement.Ordering> orderings, Restrictions where) {
        if (orderings.isEmpty()) return false;
        if (!where.hasPartitionKey()) {
            throw new InvalidRequestException("ORDER BY is only supported when the partition key is restricted by an EQ or an IN.");
        }
        // A column ordered twice takes its last direction, at its first place, as in Cassandra (ORM query builders
        // chain orderings so).
        Map<ColumnMetadata, Boolean> descending = new LinkedHashMap<>();
        for (Statement.Ordering o : orderings) descending.put(Restrictions.column(table, o.column()), o.descending());
        Boolean reversed = null;
        int position = 0;
        for (Map.Entry<ColumnMetadata, Boolean> o : descending.entrySet()) {
            ColumnMetadata c = o.getKey();
            if (c.kind() != ColumnMetadata.Kind.CLUSTERING) {
                throw new InvalidRequestException("Order by is currently only supported on the clustered columns of the PRIMARY KEY, got " + c.name());
            }
            while (position < c.position()) {
                // Columns fixed by EQ may be skipped in ORDER BY.
                if (position >= where.clusteringPrefixSize() || where.hasClusteringIn()) {
                    throw new InvalidRequestException("Order by currently only supports the ordering of columns following their declared order in the PRIMARY KEY");
                }
                position++;
            }
            if (position != c.position()) {
                throw new InvalidRequestException("Order by currently only supports the ordering of columns following their declared order in the PRIMARY KEY");
            }
            boolean thisReversed = o.getValue() != c.descending();
            if (reversed != null && reversed != thisReversed) throw new InvalidRequestException("Unsupported order by relation");
            reversed = thisReversed;
            position++;
        }
        return reversed;
    }

    /**
     * GROUP BY names primary key columns in their declared order, where it may skip columns restricted by equality, and
     * the whole partition key; groups are the rows sharing the primary key prefix up to the last column named.
     */
    private static List<ColumnMetadata> groupBy(TableMetadata table, List<String> names, Restrictions where) {
        if (names.isEmpty()) return List.of();
        List<ColumnMetadata> primaryKey = new ArrayList<>(table.partitionKey());
        primaryKey.addAll(table.clustering());
        int prefix = 0;
        for (String name : names) {
            ColumnMetadata c = Restrictions.column(table, name);
            if (!c.isPrimaryKey()) {
                throw new InvalidRequestException("Group by is currently only supported on the columns of the PRIMARY KEY, got " + c.name());
            }
            while (true) {
                ColumnMetadata next = prefix < primaryKey.size() ? primaryKey.get(prefix++) : null;
                if (next == c) break;
                if (next == null || !where.restrictedByEq(next)) {
                    throw new InvalidRequestException("Group by currently only support groups of columns following their declared order in the PRIMARY KEY");
                }
            }
        }
        if (prefix < table.partitionKey().size()) {
            throw new InvalidRequestException("Group by is not supported on only a part of the partition key");
        }
        return List.copyOf(primaryKey.subList(0, prefix));
    }

    private static Value limitValue(ballot.cql.parse.Term term, TableMetadata table, String name, Markers markers, UserTypeResolver types) {
        if (term == null) return null;
        return Terms.prepare(term, new ColumnSpec(table.keyspace(), table.name(), name, CqlTypes.INT), markers, types);
    }

    /** LIMIT's and PER PARTITION LIMIT's value; Cassandra words both refusals as LIMIT's. */
    private static int bindLimit(Value value, Bindings b) {
        if (value == null) return Integer.MAX_VALUE;
        ByteBuffer v = value.bind(b);
        if (v == null) throw new InvalidRequestException("Invalid null value of limit");
        if (v == QueryOptions.UNSET) return Integer.MAX_VALUE;
        int n = v.getInt(v.position());
        if (n <= 0) throw new InvalidRequestException("LIMIT must be strictly positive");
        return n;
    }

    // ---------------------------------------------------------------- metadata

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
    public RowsMetadata resultMetadata() {
        return RowsMetadata.of(resultColumns);
    }

    @Override
    public List<TableMetadata> tables() {
        return List.of(table);
    }

    Restrictions where() {
        return where;
    }

    TableMetadata table() {
        return table;
    }

    // ---------------------------------------------------------------- execution

    @Override
    public Duration usingTimeout(QueryOptions options) {
        return timeout.before(options, markerNames());
    }

    @Override
    public CompletableFuture<Result> execute(QueryContext context) {
        // The rows are counted while they are gathered; once the statement has its result, the connection counts
        // the encoded response instead, until it is written.
        ResultMemory.Lease lease = context.memory().lease();
        try {
            return CompletableFuture.completedFuture(run(timeout.applyTo(context), lease));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        } finally {
            lease.release();
        }
    }

    private Result run(QueryContext statementContext, ResultMemory.Lease lease) {
        Bindings b = statementContext.bindings();
        QueryOptions options = statementContext.options();
        int userLimit = bindLimit(limit, b);
        int partitionLimit = distinct ? 1 : bindLimit(perPartitionLimit, b);
        boolean grouped = !groupBy.isEmpty();
        boolean aggregateAll = selection.isAggregate() || grouped;
        // With GROUP BY a page holds at most pageSize groups, as in Cassandra; an aggregate of all rows is one row. An
        // ANN ordering's rows are one page.
        int pageSize = options.pageSize() > 0 && (!aggregateAll || grouped) && ann == null ? options.pageSize() : Integer.MAX_VALUE;
        if (ann != null) ann.checkRun(userLimit, statementContext);
        float[] annQuery = ann != null ? ann.query(b) : null;

        List<PartitionKey> keys = where.hasPartitionKey() ? where.partitionKeys(b) : null;
        // One deadline for the whole statement, however many chunks it reads (Cassandra's read and range timeouts).
        QueryContext context = statementContext.withReadDeadline(keys == null);
        if (context.consistency().isSerial() && keys != null && keys.size() > 1) {
            // As Cassandra: Paxos serialises one partition; scans keep their QUORUM read (Cassandra's behaviour too).
            throw new InvalidRequestException("SERIAL/LOCAL_SERIAL consistency may only be requested for one partition at a time");
        }
        if (selection.isAggregate() && keys == null) context.warn("Aggregation query used without partition key");
        else if (selection.isAggregate() && keys.size() > 1) context.warn("Aggregation query used on multiple partition keys (IN restriction)");
        // As Cassandra: ORDER BY with IN on the partition key sorts after reading, so it cannot be paged; a request with a
        // page size is refused unless it needs no paging (a page size of Integer.MAX_VALUE with no aggregation).
        boolean postOrdering = !orderBy.isEmpty() && where.hasPartitionKeyIn();
        if (postOrdering && options.pageSize() > 0 && (aggregateAll || options.pageSize() != Integer.MAX_VALUE)) {
            throw new InvalidRequestException("Cannot page queries with both ORDER BY and a IN restriction on the partition key; "
                    + "you must either remove the ORDER BY or the IN and sort client side, or disable paging for this query");
        }
        boolean sortAcrossPartitions = postOrdering && keys.size() > 1;
        PagingState state = options.pagingState() == null || (aggregateAll && !grouped) || ann != null ? null
                : PagingState.decode(options.pagingState());
        // With GROUP BY, LIMIT and PER PARTITION LIMIT count groups (below), not rows, and so do a paging state's
        // remaining counts; a page of groups ends where a group begins, so the next starts with a new group.
        Cursor cursor = new Cursor(context, keys, where.slices(b), grouped ? rowsOf(state) : state,
                grouped ? Integer.MAX_VALUE : partitionLimit, this.filters.isEmpty());
        // Rows sorted across partitions, or by ANN, are all read: LIMIT applies after the sort.
        int remaining = sortAcrossPartitions || ann != null ? Integer.MAX_VALUE : state != null ? state.remaining() : userLimit;
        int groupLimit = grouped && state != null ? state.remaining() : userLimit;
        ByteBuffer[] lastGroup = null;
        PartitionKey groupPartition = null;
        int groups = 0;
        int groupsInPartition = 0;
        if (grouped && state != null && !state.partitionDone()) {
            groupPartition = state.partition();
            groupsInPartition = partitionLimit - state.remainingInPartition();
        }
        int groupsOnPage = 0;

        List<RowFilter.Bound> filters = new ArrayList<>();
        for (RowFilter f : this.filters) filters.add(f.bind(b));
        List<Selection.Evaluator> evaluators = selection.evaluators(b);
        Output output = new Output(evaluators, aggregateAll, grouped, sortAcrossPartitions ? orderBy : ann != null ? List.of(ann.column()) : null,
                this::sameGroup);
        int emitted = 0;
        boolean more = false;
        while (remaining > 0 && emitted < pageSize) {
            int chunk = filters.isEmpty() && !aggregateAll ? Math.min(Math.min(remaining, pageSize - emitted), CHUNK_ROWS_MAX)
                    : FILTERING_CHUNK_ROWS;
            List<Candidate> candidates = cursor.next(chunk);
            if (candidates == null) break;
            output.expect(Math.min(candidates.size(), pageSize - emitted));
            for (int i = 0; i < candidates.size(); i++) {
                Candidate candidate = candidates.get(i);
                boolean selected = candidate.view() != null && matches(filters, candidate.view());
                ByteBuffer[] group = selected ? groupKey(candidate.view()) : null;
                if (grouped && selected && groupsOnPage >= pageSize && !sameGroup(group, lastGroup)) {
                    // The page is full of groups: this row, not consumed, begins the next page.
                    more = true;
                    remaining = 0;
                    break;
                }
                cursor.consumed(candidate);
                if (!selected || !cursor.takeFromPartition()) continue;
                if (grouped && !sameGroup(group, lastGroup)) {
                    lastGroup = group;
                    if (!candidate.key().equals(groupPartition)) {
                        groupPartition = candidate.key();
                        groupsInPartition = 0;
                    }
                    if (++groupsInPartition <= partitionLimit && !sortAcrossPartitions) {
                        if (++groups > groupLimit) {
                            remaining = 0;
                            break;
                        }
                        groupsOnPage++;
                    }
                }
                if (grouped && groupsInPartition > partitionLimit) continue;
                output.add(candidate.view(), group);
                if (!aggregateAll) {
                    emitted++;
                    remaining--;
                }
                if (remaining == 0 || emitted >= pageSize) {
                    more = i < candidates.size() - 1 || !cursor.exhausted();
                    break;
                }
            }
            // ANN keeps only the best rows so far, reserved once they are known
            if (ann != null) output.keep(ann.nearest(output.orderingValues(), annQuery, userLimit));
            else lease.reserve(output.unreservedBytes());
        }
        List<ByteBuffer[]> rows = output.finish();
        lease.reserve(output.unreservedBytes());
        if (sortAcrossPartitions) rows = sortByOrdering(rows, output.orderingValues());
        if (rows.size() > userLimit) rows = rows.subList(0, userLimit);
        if (json) rows = toJson(rows);
        RowsMetadata metadata = RowsMetadata.of(resultColumns);
        if (grouped && more) {
            // Groups left under LIMIT, and under PER PARTITION LIMIT in the partition the page stopped in.
            PagingState rowsState = cursor.state(0);
            int leftInPartition = rowsState.partition().equals(groupPartition) ? partitionLimit - groupsInPartition : partitionLimit;
            metadata = metadata.withPagingState(new PagingState(rowsState.partition(), rowsState.clustering(), rowsState.partitionDone(),
                    groupLimit - groups, Math.max(leftInPartition, 0)).encode());
        } else if (more && remaining > 0) {
            metadata = metadata.withPagingState(cursor.state(remaining).encode());
        }
        return new Rows(metadata, rows);
    }

    /** A paging state of groups as the cursor reads it: rows are not limited per partition (groups are counted above). */
    private static PagingState rowsOf(PagingState groups) {
        if (groups == null) return null;
        return new PagingState(groups.partition(), groups.clustering(), groups.partitionDone(), groups.remaining(), Integer.MAX_VALUE);
    }

    private static boolean matches(List<RowFilter.Bound> filters, RowView view) {
        for (RowFilter.Bound f : filters) if (!f.matches(view)) return false;
        return true;
    }

    private ByteBuffer[] groupKey(RowView view) {
        if (groupBy.isEmpty()) return null;
        ByteBuffer[] key = new ByteBuffer[groupBy.size()];
        for (int i = 0; i < key.length; i++) key[i] = view.value(groupBy.get(i));
        return key;
    }

    /**
     * Whether two rows' GROUP BY values make one group: partition key columns by their bytes (each is its own
     * partition), clustering columns by their type's order, as Cassandra groups them (the decimals 2.5 and 2.50 are one).
     */
    private boolean sameGroup(ByteBuffer[] a, ByteBuffer[] b) {
        if (a == null || b == null) return a == b;
        for (int i = 0; i < a.length; i++) {
            ColumnMetadata c = groupBy.get(i);
            boolean same = c.kind() == ColumnMetadata.Kind.CLUSTERING ? c.type().compare(a[i], b[i]) == 0 : a[i].equals(b[i]);
            if (!same) return false;
        }
        return true;
    }

    /**
     * Rows of several partitions in ORDER BY's order (with IN). As Cassandra, only the ORDER BY columns are compared, each
     * in its requested direction, and the sort is stable: rows that tie keep their partitions' order.
     */
    private List<ByteBuffer[]> sortByOrdering(List<ByteBuffer[]> rows, List<ByteBuffer[]> orderingValues) {
        Comparator<ByteBuffer[]> order = (x, y) -> {
            for (int i = 0; i < orderBy.size(); i++) {
                int c = compareNullsFirst(orderBy.get(i), x[i], y[i]);
                if (c != 0) return orderBy.get(i).descending() ? -c : c;
            }
            return 0;
        };
        Comparator<ByteBuffer[]> requested = reversed ? order.reversed() : order;
        Integer[] indexes = new Integer[rows.size()];
        for (int i = 0; i < indexes.length; i++) indexes[i] = i;
        Arrays.sort(indexes, (x, y) -> requested.compare(orderingValues.get(x), orderingValues.get(y)));
        List<ByteBuffer[]> sorted = new ArrayList<>(rows.size());
        for (int i : indexes) sorted.add(rows.get(i));
        return sorted;
    }

    /** A row without clustering (static only) has null clustering values: those sort first. */
    private static int compareNullsFirst(ColumnMetadata column, ByteBuffer x, ByteBuffer y) {
        if (x == null || y == null) return x == null ? (y == null ? 0 : -1) : 1;
        return column.type().compare(x, y);
    }

    private List<ByteBuffer[]> toJson(List<ByteBuffer[]> rows) {
        List<ColumnSpec> columns = selection.columns();
        List<ByteBuffer[]> out = new ArrayList<>(rows.size());
        for (ByteBuffer[] row : rows) {
            StringBuilder sb = new StringBuilder("{");
            for (int i = 0; i < columns.size(); i++) {
                if (i > 0) sb.append(", ");
                sb.append(jsonKey(columns.get(i).name())).append(": ");
                sb.append(row[i] == null ? "null" : columns.get(i).type().toJson(row[i]));
            }
            out.add(new ByteBuffer[] {CqlTypes.TEXT.decompose(sb.append('}').toString())});
        }
        return out;
    }

    /**
     * A result column's JSON key, Cassandra's rule: its name, in double quotes if it differs from its lower-case form
     * ({@code "\"Cap\""}, but {@code "v + 1"}), as a JSON string.
     */
    private static String jsonKey(String name) {
        String key = name.equals(name.toLowerCase(Locale.US)) ? name : '"' + name + '"';
        return CqlTypes.TEXT.toJson(CqlTypes.TEXT.decompose(key));
    }

    // ---------------------------------------------------------------- output

    /**
     * Turns selected rows into result rows: one per row, or one per group for aggregates; keeps each result row's
     * ORDER BY values too when rows must be sorted across partitions (a group's are those of its first row, the values
     * a group shows of columns it does not aggregate).
     */
    private static final class Output {
        private final List<Selection.Evaluator> evaluators;
        private final boolean aggregate;
        private final boolean grouped;
        private final ArrayList<ByteBuffer[]> rows;
        /** The ORDER BY columns when rows are sorted after reading, else null. */
        private final List<ColumnMetadata> ordering;
        private final List<ByteBuffer[]> orderingValues;
        private final BiPredicate<ByteBuffer[], ByteBuffer[]> sameGroup;
        private ByteBuffer[] currentGroup;
        private boolean groupOpen;
        /** Estimated bytes of rows added since {@link #unreservedBytes} was last asked. */
        private long unreserved;

        Output(List<Selection.Evaluator> evaluators, boolean aggregate, boolean grouped, List<ColumnMetadata> ordering,
                BiPredicate<ByteBuffer[], ByteBuffer[]> sameGroup) {
            this.evaluators = evaluators;
            this.aggregate = aggregate;
            this.grouped = grouped;
            this.rows = new ArrayList<>();
            this.ordering = ordering;
            this.orderingValues = ordering != null ? new ArrayList<>() : null;
            this.sameGroup = sameGroup;
        }

        /** Up to {@code candidates} more rows may come: make room for them at once rather than growing row by row. */
        void expect(int candidates) {
            if (aggregate) return;
            rows.ensureCapacity(rows.size() + candidates);
        }

        void add(RowView view, ByteBuffer[] group) {
            if (!aggregate) {
                ByteBuffer[] row = new ByteBuffer[evaluators.size()];
                for (int i = 0; i < row.length; i++) {
                    Selection.Evaluator e = evaluators.get(i);
                    e.reset();
                    e.add(view);
                    row[i] = e.get();
                }
                rows.add(row);
                unreserved += estimatedBytes(row);
                keepOrderingValues(view);
                return;
            }
            if (group != null && groupOpen && !sameGroup.test(group, currentGroup)) closeGroup();
            if (!groupOpen) keepOrderingValues(view);
            currentGroup = group;
            groupOpen = true;
            for (Selection.Evaluator e : evaluators) e.add(view);
        }

        private void keepOrderingValues(RowView view) {
            if (ordering == null) return;
            ByteBuffer[] values = new ByteBuffer[ordering.size()];
            for (int i = 0; i < values.length; i++) values[i] = view.value(ordering.get(i));
            orderingValues.add(values);
        }

        private void closeGroup() {
            ByteBuffer[] row = new ByteBuffer[evaluators.size()];
            for (int i = 0; i < row.length; i++) {
                row[i] = evaluators.get(i).get();
                evaluators.get(i).reset();
            }
            rows.add(row);
            unreserved += estimatedBytes(row);
            groupOpen = false;
        }

        /** Keeps only the rows at {@code indexes}, in that order, as rows not reserved yet (an ANN ordering's best). */
        void keep(List<Integer> indexes) {
            List<ByteBuffer[]> keptRows = new ArrayList<>(indexes.size());
            List<ByteBuffer[]> keptValues = new ArrayList<>(indexes.size());
            unreserved = 0;
            for (int i : indexes) {
                keptRows.add(rows.get(i));
                keptValues.add(orderingValues.get(i));
                unreserved += estimatedBytes(rows.get(i));
            }
            rows.clear();
            rows.addAll(keptRows);
            orderingValues.clear();
            orderingValues.addAll(keptValues);
        }

        /** Bytes of rows added since the last call, to reserve in the statement's lease. */
        long unreservedBytes() {
            long bytes = unreserved;
            unreserved = 0;
            return bytes;
        }

        /** A row's heap footprint, roughly: the array, and per value its buffer object and bytes. */
        private static long estimatedBytes(ByteBuffer[] row) {
            long bytes = 16 + 4L * row.length;
            for (ByteBuffer value : row) if (value != null) bytes += 48 + value.remaining();
            return bytes;
        }

        List<ByteBuffer[]> finish() {
            // Without GROUP BY an aggregate query returns one row even when no row matched (count = 0); with GROUP
            // BY, no row matched is no group, so no row.
            if (aggregate && (groupOpen || !grouped && rows.isEmpty())) closeGroup();
            return rows;
        }

        List<ByteBuffer[]> orderingValues() {
            return orderingValues;
        }
    }

    // ---------------------------------------------------------------- cursor

    /** A row (or a static-only partition, with a null row) the cursor yields. */
    private record Candidate(PartitionKey key, RowView view, boolean lastOfPartition) {}

    /**
     * Walks the selected partitions in order and their rows in query order, remembering the last row consumed and
     * how many rows PER PARTITION LIMIT still allows in the current partition.
     */
    private final class Cursor {
        private final QueryContext context;
        private final List<PartitionKey> keys;
        private final List<Slice> slices;
        private final int partitionLimit;
        private final boolean storageLimitsPartitions;
        private PartitionKey position;
        private ByteBuffer[] positionClustering;
        private boolean positionDone;
        private int leftInPartition;
        private int keyIndex;
        private boolean exhausted;
        private PartitionKey lastConsumedKey;

        Cursor(QueryContext context, List<PartitionKey> keys, List<Slice> slices, PagingState state, int partitionLimit,
                boolean storageLimitsPartitions) {
            this.context = context;
            this.keys = keys;
            this.slices = slices;
            this.partitionLimit = partitionLimit;
            this.storageLimitsPartitions = storageLimitsPartitions;
            this.leftInPartition = partitionLimit;
            if (state != null) {
                position = state.partition();
                positionClustering = state.clustering();
                positionDone = state.partitionDone();
                leftInPartition = state.remainingInPartition();
                lastConsumedKey = position;
                if (keys != null) {
                    // The keys come in value order, not token order; a position not among them (a paging state of
                    // other bindings) ends the query, as in Cassandra.
                    int i = keys.indexOf(position);
                    keyIndex = i < 0 ? keys.size() : positionDone ? i + 1 : i;
                }
            }
        }

        boolean exhausted() {
            return exhausted;
        }

        /** The next candidates, reading at most {@code chunk} live rows; null when there are no more. */
        List<Candidate> next(int chunk) {
            if (exhausted) return null;
            return keys != null ? nextOfKeys(chunk) : nextOfScan(chunk);
        }

        private List<Candidate> nextOfKeys(int chunk) {
            if (keyIndex >= keys.size()) {
                exhausted = true;
                return null;
            }
            PartitionKey key = keys.get(keyIndex);
            boolean resuming = position != null && !positionDone && key.equals(position);
            List<Candidate> out = resuming ? readRest(chunk) : readFresh(key, chunk);
            if (out == null) {
                keyIndex++;
                return List.of();
            }
            if (!out.isEmpty() && out.get(out.size() - 1).lastOfPartition()) keyIndex++;
            return out;
        }

        /** Reads a partition from its start; null if the partition has nothing to read. */
        private List<Candidate> readFresh(PartitionKey key, int chunk) {
            int allowance = storageLimitsPartitions ? partitionLimit : Integer.MAX_VALUE;
            int rows = Math.min(chunk, allowance);
            if (slices.isEmpty() || rows <= 0) return null;
            PartitionData data = read(key, slices, rows);
            int live = data.liveRowCount(context.nowInSec());
            return candidates(List.of(data), live < rows || live >= allowance);
        }

        /** Reads the rest of the partition the cursor stopped in; null if nothing is left there. */
        private List<Candidate> readRest(int chunk) {
            List<Slice> toRead = resume(slices, positionClustering);
            int allowance = storageLimitsPartitions ? leftInPartition : Integer.MAX_VALUE;
            int rows = Math.min(chunk, allowance);
            if (toRead.isEmpty() || rows <= 0) {
                positionDone = true;
                return null;
            }
            PartitionData data = read(position, toRead, rows);
            int live = data.liveRowCount(context.nowInSec());
            boolean finished = live < rows || live >= allowance;
            List<Candidate> out = new ArrayList<>();
            ByteBuffer[] keyComponents = PartitionKey.split(data.key().key(), table.partitionKey().size());
            List<Row> liveRows = liveRows(data);
            Row staticRow = liveStatic(data);
            for (int i = 0; i < liveRows.size(); i++) {
                out.add(new Candidate(data.key(), new RowView(keyComponents, liveRows.get(i), staticRow, context.nowInSec()),
                        finished && i == liveRows.size() - 1));
            }
            if (out.isEmpty()) {
                positionDone = true;
                return null;
            }
            return out;
        }

        private PartitionData read(PartitionKey key, List<Slice> toRead, int rows) {
            ReadSpec spec = new ReadSpec(toRead, reversed, rows, Integer.MAX_VALUE, context.nowInSec());
            ConsistencyLevel cl = context.consistency();
            if (cl.isSerial()) return context.environment().lwt().readSerial(table, key, spec, cl).join();
            return context.data().read(table, key, spec, readConsistency(context)).join();
        }

        private List<Candidate> nextOfScan(int chunk) {
            if (position != null && !positionDone) {
                List<Candidate> rest = readRest(chunk);
                if (rest != null) return rest;
            }
            TokenRange range = where.tokenRange(context.bindings());
            if (position != null) range = new TokenRange(range.start(), position, range.end());
            int perPartition = storageLimitsPartitions ? partitionLimit : Integer.MAX_VALUE;
            ReadSpec spec = new ReadSpec(slices, false, chunk, perPartition, context.nowInSec());
            if (indexes != null && indexes.drivesScan() && !slices.isEmpty()) return nextOfIndex(range, spec, chunk);
            List<PartitionData> partitions = slices.isEmpty() ? List.of()
                    : context.data().scan(table, range, spec, chunk, readConsistency(context)).join();
            if (partitions.isEmpty()) {
                exhausted = true;
                return null;
            }
            int live = 0;
            for (PartitionData p : partitions) live += p.liveRowCount(context.nowInSec());
            boolean rowsCut = live >= chunk;
            exhausted = !rowsCut && partitions.size() < chunk;
            return candidates(partitions, !rowsCut);
        }

        /** The next chunk of an index-driven scan: the coordinator tells whether the last partition and the range are done. */
        private List<Candidate> nextOfIndex(TokenRange range, ReadSpec spec, int chunk) {
            IndexScanResult result = context.data().indexScan(table, indexes.driving(context.bindings()), indexes.used(),
                    range, spec, chunk, readConsistency(context)).join();
            exhausted = result.exhausted();
            if (result.partitions().isEmpty()) {
                exhausted = true;
                return null;
            }
            return candidates(result.partitions(), result.lastComplete());
        }

        private List<Row> liveRows(PartitionData data) {
            List<Row> rows = data.rows();
            int now = context.nowInSec();
            List<Row> live = new ArrayList<>(rows.size());
            for (int i = 0; i < rows.size(); i++) if (rows.get(i).hasLiveData(now)) live.add(rows.get(i));
            return live;
        }

        private Row liveStatic(PartitionData data) {
            return data.staticRow() != null && data.staticRow().hasLiveData(context.nowInSec()) ? data.staticRow() : null;
        }

        /**
         * Turns partitions read from their start into candidates; every partition but the last is complete. A complete
         * partition without a row to show still yields a candidate with no view, so the cursor moves past it.
         */
        private List<Candidate> candidates(List<PartitionData> partitions, boolean lastFinished) {
            List<Candidate> out = new ArrayList<>(partitions.size());
            int now = context.nowInSec();
            for (int p = 0; p < partitions.size(); p++) {
                PartitionData data = partitions.get(p);
                boolean finished = p < partitions.size() - 1 || lastFinished;
                ByteBuffer[] keyComponents = PartitionKey.split(data.key().key(), table.partitionKey().size());
                List<Row> live = liveRows(data);
                Row staticRow = liveStatic(data);
                if (distinct) {
                    if (!live.isEmpty() || staticRow != null) out.add(new Candidate(data.key(), new RowView(keyComponents, null, staticRow, now), true));
                    else out.add(new Candidate(data.key(), null, true));
                    continue;
                }
                if (live.isEmpty()) {
                    boolean showStatic = staticRow != null && where.queriesFullPartitions();
                    out.add(new Candidate(data.key(), showStatic ? new RowView(keyComponents, null, staticRow, now) : null, finished));
                    continue;
                }
                for (int i = 0; i < live.size(); i++) {
                    out.add(new Candidate(data.key(), new RowView(keyComponents, live.get(i), staticRow, now), finished && i == live.size() - 1));
                }
            }
            return out;
        }

        /**
         * Records that {@code c} was consumed: the paging state resumes after it. The one resumption rule: a later
         * page reads the rest of this partition only if rows may follow {@code c} in it. None can when the reader saw
         * the partition end, when {@code c} has no row (it stands for the whole partition: DISTINCT, static-only or
         * nothing to show), or when the table has no clustering columns (a partition holds one row at most).
         */
        void consumed(Candidate c) {
            if (!c.key().equals(lastConsumedKey)) {
                leftInPartition = partitionLimit;
                lastConsumedKey = c.key();
            }
            position = c.key();
            boolean hasRow = c.view() != null && c.view().row() != null;
            positionClustering = hasRow ? c.view().row().clustering().values() : null;
            positionDone = c.lastOfPartition() || !hasRow || table.clustering().isEmpty();
        }

        /** Whether PER PARTITION LIMIT lets the current partition yield one more row (and counts it). */
        boolean takeFromPartition() {
            if (leftInPartition <= 0) return false;
            leftInPartition--;
            return true;
        }

        PagingState state(int remaining) {
            return new PagingState(position, positionClustering, positionDone, remaining, Math.max(leftInPartition, 0));
        }

        /** The slices left after {@code last} in query order. */
        private List<Slice> resume(List<Slice> all, ByteBuffer[] last) {
            List<Slice> out = new ArrayList<>();
            ClusteringBound after = new ClusteringBound(last, false);
            for (Slice s : all) {
                if (!reversed) {
                    if (s.endsBefore(last, table::compareClusteringPrefix)) continue;
                    out.add(s.startsAfter(last, table::compareClusteringPrefix) ? s : new Slice(after, s.end()));
                } else {
                    if (s.startsAfter(last, table::compareClusteringPrefix)) continue;
                    out.add(s.endsBefore(last, table::compareClusteringPrefix) ? s : new Slice(s.start(), after));
                }
            }
            return out;
        }
    }

    /** The level of a plain read; SERIAL reads of one partition go through Paxos instead, scans read at QUORUM. */
    private static ConsistencyLevel readConsistency(QueryContext context) {
        ConsistencyLevel cl = context.consistency();
        if (cl == ConsistencyLevel.SERIAL) return ConsistencyLevel.QUORUM;
        if (cl == ConsistencyLevel.LOCAL_SERIAL) return ConsistencyLevel.LOCAL_QUORUM;
        if (cl == ConsistencyLevel.ANY) throw new InvalidRequestException("ANY ConsistencyLevel is only supported for writes");
        return cl;
    }
}
