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
import ballot.cql.parse.Operator;
import ballot.cql.parse.Selector;
import ballot.cql.parse.Statement;
import ballot.cql.parse.Term;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.protocol.message.Result;
import ballot.cql.protocol.message.Rows;
import ballot.cql.protocol.message.RowsMetadata;
import ballot.cql.protocol.message.VoidResult;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.TableMetadata;
import ballot.cql.spi.CasRequest;
import ballot.cql.spi.LwtCoordinator;
import ballot.cql.spi.Transactions;
import ballot.cql.type.UserTypeResolver;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Cassandra 6.0's {@code BEGIN TRANSACTION ... COMMIT TRANSACTION}, the subset Ballot runs (docs/txn.md §11.2), as one
 * multi-partition transaction ({@link Transactions}). Each partition the transaction reads or writes is one participant:
 * it reads the rows of the LETs on it, the rows its updates read before writing and the rows the returning SELECT
 * reads; it holds if the IF's conditions on those LETs hold; and it writes its updates. The IF is a conjunction, and
 * each of its conditions names one LET, so each is checked by the participant that holds the LET's row: the
 * transaction writes everything if every participant's conditions hold, and nothing otherwise.
 *
 * <p>The answer is Cassandra's: the returning SELECT's rows, or one row of the LET values it names, as they were
 * before the transaction's writes; VOID without a returning SELECT; no {@code [applied]} column. When the IF does not
 * hold, the values are those the participants read before the refusal, the one that failed included (the others read
 * after the decision), so a client that evaluates the IF on them finds it false.
 */
final class TransactionStatement implements CqlStatement {
    /** A LET: one row of one partition, by its full primary key or the first row of a partition (LIMIT 1). */
    private record Let(String name, TableMetadata table, Restrictions where, boolean fullKey, Set<ColumnMetadata> selected) {}

    /** One condition of the IF, on one LET's row: a column condition, or whether the row exists. */
    private record Check(Let let, ColumnCondition condition, boolean rowExists) {}

    /** A LET value the returning SELECT names. */
    private record Reference(Let let, ColumnMetadata column) {}

    /**
     * A LET value an update writes ({@code SET v = a.v + 1}): prepared as a hidden marker of the column's type, which the
     * participant that read the LET's row binds at execution (docs/txn.md §11.2).
     */
    private record LetValue(Let let, ColumnMetadata column, int marker) {}

    /** An update and the LET values it writes. */
    private record Update(ModificationStatement statement, List<LetValue> values) {}

    private final List<Let> lets;
    private final List<Check> checks;
    private final List<Update> updates;
    private final SelectStatement select;
    private final List<Reference> references;
    private final RowsMetadata resultMetadata;
    private final Markers markers;
    /** How many hidden markers the LET values written by updates took. */
    private final int hiddenMarkers;

    private TransactionStatement(List<Let> lets, List<Check> checks, List<Update> updates, SelectStatement select,
            List<Reference> references, Markers markers) {
        this.lets = lets;
        this.checks = checks;
        this.updates = updates;
        this.select = select;
        this.references = references;
        this.markers = markers;
        this.hiddenMarkers = updates.stream().mapToInt(u -> u.values.size()).sum();
        if (select != null) resultMetadata = select.resultMetadata();
        else if (references != null) {
            List<ColumnSpec> specs = new ArrayList<>();
            for (Reference r : references) {
                specs.add(new ColumnSpec(r.let.table.keyspace(), r.let.table.name(), r.let.name + "." + r.column.name(), r.column.type()));
            }
            resultMetadata = RowsMetadata.of(specs);
        } else resultMetadata = RowsMetadata.EMPTY;
    }

    // ---------------------------------------------------------------- preparation

    /**
     * Checks {@code txn} against the schema with Cassandra 6.0's rules and messages. {@code tables} finds a table by
     * name in the client's keyspace; {@code modification} prepares an update (in transaction mode).
     */
    static TransactionStatement prepare(Statement.Transaction txn, Markers markers, Function<Statement.Select, TableMetadata> tableOf,
            Function<TableMetadata, UserTypeResolver> types, Function<Statement.Modification, ModificationStatement> modification) {
        if (txn.returning() == null && txn.updates().isEmpty()) { // LETs alone are neither (Cassandra's rule)
            throw new InvalidRequestException("Transaction contains no reads or writes");
        }
        Map<String, Let> lets = new LinkedHashMap<>();
        for (Statement.Let l : txn.lets()) {
            if (lets.containsKey(l.name())) throw new InvalidRequestException("The name '" + l.name() + "' has already been used by a LET assignment.");
            TableMetadata table = tableOf.apply(l.select());
            lets.put(l.name(), let(l.name(), l.select(), table, markers, types.apply(table)));
        }
        SelectStatement select = null;
        List<Reference> references = null;
        if (txn.returning() instanceof Statement.ReturningSelect r) {
            TableMetadata table = tableOf.apply(r.select());
            checkNotCounter(table, "SELECT");
            select = SelectStatement.prepare(table, r.select(), markers, types.apply(table));
            if (!select.where().hasPartitionKey() || select.where().hasTokenRestriction()) {
                throw new InvalidRequestException("Range queries are not allowed for reads within a transaction; returning select");
            }
        } else if (txn.returning() instanceof Statement.ReturningReferences r) {
            references = new ArrayList<>();
            for (Statement.RowReference ref : r.references()) {
                if (ref.column() == null) throw new InvalidRequestException("SELECT references must specify a column.");
                Let let = resolve(lets, ref);
                references.add(new Reference(let, column(let, ref)));
            }
        }
        List<Check> checks = new ArrayList<>();
        if (txn.conditions() != null) {
            for (Statement.TxnCondition c : txn.conditions()) {
                Let let = resolve(lets, c.reference());
                if (c instanceof Statement.TxnNullness n && c.reference().column() == null) {
                    checks.add(new Check(let, null, !n.isNull()));
                    continue;
                }
                if (c.reference().column() == null) {
                    throw new InvalidRequestException("A condition on the LET '" + let.name + "' must name a column, or be IS [NOT] NULL");
                }
                ColumnMetadata column = column(let, c.reference());
                Condition condition = c instanceof Statement.TxnComparison t
                        ? new Condition(column.name(), null, null, t.op(), t.value())
                        : new Condition(column.name(), null, null, ((Statement.TxnNullness) c).isNull() ? Operator.EQ : Operator.NEQ, new Term.Null());
                checks.add(new Check(let, ColumnCondition.of(let.table, condition, markers, types.apply(let.table)), false));
            }
        }
        List<Update> updates = new ArrayList<>();
        for (Statement.Modification m : txn.updates()) {
            String kind = m instanceof Statement.Insert || m instanceof Statement.InsertJson ? "INSERT"
                    : m instanceof Statement.Update ? "UPDATE" : "DELETE";
            if (m.isConditional()) {
                throw new InvalidRequestException("Updates within transactions may not specify their own conditions; " + kind + " statement");
            }
            if (m.attributes().timestamp() != null) {
                throw new InvalidRequestException("Updates within transactions may not specify custom timestamps; " + kind + " statement");
            }
            if (m instanceof Statement.InsertJson) throw new InvalidRequestException("INSERT JSON is not supported in a transaction by Ballot");
            List<LetValue> values = new ArrayList<>();
            Statement.Modification substituted = LetReferences.substitute(m, ref -> {
                Statement.RowReference named = new Statement.RowReference(ref.let(), ref.column());
                Let let = resolve(lets, named);
                LetValue value = new LetValue(let, column(let, named), markers.addHidden());
                values.add(value);
                return new Term.TypeHint(value.column.type().cqlName(), new Term.BindMarker(value.marker, null));
            });
            ModificationStatement update = modification.apply(substituted);
            checkNotCounter(update.table(), kind);
            updates.add(new Update(update, List.copyOf(values)));
        }
        if (txn.conditions() != null && updates.isEmpty()) {
            throw new InvalidRequestException("A transaction's IF needs at least one INSERT, UPDATE or DELETE before END IF");
        }
        return new TransactionStatement(List.copyOf(lets.values()), checks, updates, select, references, markers);
    }

    private static Let let(String name, Statement.Select s, TableMetadata table, Markers markers, UserTypeResolver types) {
        checkNotCounter(table, "SELECT");
        if (s.distinct() || s.json() || !s.groupBy().isEmpty() || !s.orderBy().isEmpty() || s.perPartitionLimit() != null || s.allowFiltering()) {
            throw new InvalidRequestException("A LET's SELECT may only name columns, a WHERE clause and LIMIT 1; LET assignment " + name);
        }
        Restrictions where = Restrictions.of(table, s.where(), markers, types);
        if (!where.hasPartitionKey() || where.hasTokenRestriction()) {
            throw new InvalidRequestException("Range queries are not allowed for reads within a transaction; LET assignment " + name);
        }
        boolean fullKey = where.clusteringPrefixSize() == table.clustering().size() && !where.hasClusteringSlice() && !where.needsFiltering();
        boolean limitOne = s.limit() instanceof Term.Constant c && c.text().equals("1");
        if (!fullKey && !(limitOne && !where.hasClusteringRestrictions() && !where.needsFiltering())) {
            throw new InvalidRequestException("SELECT must specify either all primary key elements or all partition key elements and LIMIT 1. "
                    + "In both cases partition key elements must be always specified with equality operators; LET assignment " + name);
        }
        Set<ColumnMetadata> selected = new LinkedHashSet<>();
        if (s.selectsAll()) selected.addAll(table.columns());
        else {
            for (Selector.Aliased a : s.selectors()) {
                if (!(a.selector() instanceof Selector.Column c) || a.alias() != null) {
                    throw new InvalidRequestException("A LET's SELECT may only name columns; LET assignment " + name);
                }
                selected.add(Restrictions.column(table, c.name()));
            }
        }
        return new Let(name, table, where, fullKey, selected);
    }

    private static Let resolve(Map<String, Let> lets, Statement.RowReference ref) {
        Let let = lets.get(ref.let());
        if (let == null) throw new InvalidRequestException("Cannot resolve reference to tuple '" + ref.let() + "'.");
        return let;
    }

    private static ColumnMetadata column(Let let, Statement.RowReference ref) {
        ColumnMetadata column = let.table.column(ref.column());
        if (column == null) throw new InvalidRequestException("Column '" + ref.column() + "' does not exist in tuple '" + let.name + "'.");
        if (!let.selected.contains(column)) throw new InvalidRequestException(ref + " references a column not included in the select");
        return column;
    }

    private static void checkNotCounter(TableMetadata table, String kind) {
        if (table.isCounter()) throw new InvalidRequestException("Counter columns cannot be accessed within a transaction; " + kind + " statement");
    }

    // ---------------------------------------------------------------- CqlStatement

    @Override
    public boolean writesStorage() {
        return true;
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
    public RowsMetadata resultMetadata() {
        return resultMetadata;
    }

    @Override
    public List<TableMetadata> tables() {
        Set<TableMetadata> tables = new LinkedHashSet<>();
        for (Let l : lets) tables.add(l.table);
        for (Update u : updates) tables.add(u.statement.table());
        if (select != null) tables.add(select.table());
        return List.copyOf(tables);
    }

    // ---------------------------------------------------------------- execution

    /** A LET bound to its values: its partition, and its row's clustering (null: the partition's first live row). */
    private record BoundLet(Let let, PartitionKey key, Clustering clustering) {
        RowView row(CurrentPartition current) {
            return clustering == null ? current.firstLiveRow() : current.row(clustering);
        }
    }

    /** A LET value an update writes, with the row it comes from. */
    private record BoundLetValue(BoundLet let, LetValue value) {}

    /** What the transaction does on one partition: one participant. */
    private static final class Part {
        final TableMetadata table;
        final PartitionKey key;
        final List<BoundLet> lets = new ArrayList<>();
        final List<ColumnCondition.Bound> conditions = new ArrayList<>();
        final List<BoundLet> conditioned = new ArrayList<>();
        final List<Boolean> existence = new ArrayList<>();
        final List<CasWrite> writes = new ArrayList<>();
        /** The LET values its writes take, bound to their hidden markers when it evaluates. */
        final List<BoundLetValue> letValues = new ArrayList<>();
        final Set<Clustering> readBeforeWrite = new java.util.HashSet<>();
        boolean wholePartition;

        Part(TableMetadata table, PartitionKey key) {
            this.table = table;
            this.key = key;
        }

        ReadSpec read(int nowInSec) {
            List<Slice> slices = new ArrayList<>();
            boolean all = wholePartition;
            TreeSet<ByteBuffer[]> rows = new TreeSet<>(table.clusteringOrder());
            for (BoundLet l : lets) {
                if (l.clustering == null || l.clustering.values().length == 0) all = true;
                else rows.add(l.clustering.values());
            }
            for (Clustering c : readBeforeWrite) {
                if (c.values().length == 0) all = true;
                else if (!c.isStatic()) rows.add(c.values());
            }
            if (all) slices.add(Slice.ALL);
            else for (ByteBuffer[] row : rows) slices.add(Slice.of(row));
            return new ReadSpec(slices, false, Integer.MAX_VALUE, Integer.MAX_VALUE, nowInSec);
        }
    }

    /** The bound transaction: its participants (in submission order), their compare-and-sets and the LETs' rows. */
    private record Plan(List<Part> parts, List<CasRequest> requests, Map<Let, BoundLet> bound, Part returned) {}

    @Override
    public List<CasRequest> participants(QueryContext context) {
        return plan(context).requests();
    }

    private Plan plan(QueryContext context) {
        Bindings b = context.bindings();
        int now = context.nowInSec();
        Map<List<Object>, Part> parts = new LinkedHashMap<>();
        Function<TableMetadataKey, Part> part = k -> parts.computeIfAbsent(List.of(k.table.id(), k.key), x -> new Part(k.table, k.key));
        Map<Let, BoundLet> bound = new HashMap<>();
        for (Let let : lets) {
            PartitionKey key = singlePartition(let.where.partitionKeys(b), "SELECT");
            Clustering clustering = null;
            if (let.fullKey) {
                List<Clustering> rows = let.where.clusterings(b);
                if (rows.size() != 1) throw new InvalidRequestException("Within a transaction, a LET must read one row; found " + rows.size());
                clustering = rows.get(0);
            }
            BoundLet l = new BoundLet(let, key, clustering);
            bound.put(let, l);
            part.apply(new TableMetadataKey(let.table, key)).lets.add(l);
        }
        for (Check check : checks) {
            BoundLet l = bound.get(check.let);
            Part p = part.apply(new TableMetadataKey(l.let.table, l.key));
            p.conditioned.add(l);
            p.conditions.add(check.condition == null ? null : check.condition.bind(b));
            p.existence.add(check.rowExists);
        }
        for (Update u : updates) {
            ModificationStatement update = u.statement;
            PartitionKey key = singlePartition(update.where().partitionKeys(b), "modification");
            Part p = part.apply(new TableMetadataKey(update.table(), key));
            if (update.requiresRead()) p.readBeforeWrite.add(update.casRow(b));
            p.writes.add(new CasWrite(update, context));
            for (LetValue v : u.values) {
                // A participant reads only its own partition: a value read on another would need a second round.
                BoundLet l = bound.get(v.let);
                if (!l.let.table.id().equals(update.table().id()) || !l.key.equals(key)) {
                    throw new InvalidRequestException("The LET value " + v.let.name + "." + v.column.name() + " is read from another partition"
                            + " than the one its update of " + update.table() + " writes; Ballot writes a LET value only to the partition"
                            + " the LET reads");
                }
                p.letValues.add(new BoundLetValue(l, v));
            }
        }
        Part returned = null;
        if (select != null) {
            PartitionKey key = singlePartition(select.where().partitionKeys(b), "SELECT");
            returned = part.apply(new TableMetadataKey(select.table(), key));
            returned.wholePartition = true;
        }
        List<Part> participants = new ArrayList<>(parts.values());
        List<CasRequest> requests = new ArrayList<>(participants.size());
        for (Part p : participants) requests.add(new Participant(p, p.read(now), now, markers.count(), hiddenMarkers));
        return new Plan(participants, requests, bound, returned);
    }

    @Override
    public CompletableFuture<Result> execute(QueryContext context) {
        ConsistencyLevel requested = context.options().serialConsistency();
        ConsistencyLevel serial = requested != null ? requested : ConsistencyLevel.SERIAL;
        if (!serial.isSerial()) throw new InvalidRequestException("Invalid consistency for a transaction. Must be one of SERIAL or LOCAL_SERIAL");
        ConsistencyLevel commit = context.consistency().isSerial() ? ConsistencyLevel.QUORUM : context.consistency();
        Plan plan = plan(context);
        List<Part> participants = plan.parts();
        for (Part p : participants) CasCommitConsistency.check(commit, p.table.keyspace(), context);
        List<CasRequest> requests = plan.requests();
        Map<Let, BoundLet> bound = plan.bound();
        Part selected = plan.returned();
        Transactions transactions = context.environment().transactions();
        // The IF evaluated on the answer is false when not applied: the row it failed on is kept (runAndRead).
        return transactions.runAndRead(requests, serial, commit, context.source())
                .thenApply(result -> answer(context, participants, result.reads(), bound, selected));
    }

    private record TableMetadataKey(TableMetadata table, PartitionKey key) {}

    private static PartitionKey singlePartition(List<PartitionKey> keys, String kind) {
        if (keys.size() != 1) {
            throw new InvalidRequestException("Within a transaction, " + kind + " statements must select a single partition; found "
                    + keys.size() + " partitions");
        }
        return keys.get(0);
    }

    private Result answer(QueryContext context, List<Part> participants, List<PartitionData> reads, Map<Let, BoundLet> bound, Part selected) {
        Map<List<Object>, PartitionData> byPartition = new HashMap<>();
        for (int i = 0; i < participants.size(); i++) byPartition.put(List.of(participants.get(i).table.id(), participants.get(i).key), reads.get(i));
        if (references != null) {
            ByteBuffer[] row = new ByteBuffer[references.size()];
            for (int i = 0; i < references.size(); i++) {
                Reference r = references.get(i);
                BoundLet l = bound.get(r.let);
                PartitionData data = byPartition.get(List.of(r.let.table.id(), l.key));
                RowView view = l.row(new CurrentPartition(r.let.table, l.key, data, context.nowInSec()));
                row[i] = view == null ? null : view.value(r.column);
            }
            return new Rows(resultMetadata, List.<ByteBuffer[]>of(row));
        }
        if (select != null) {
            PartitionData data = byPartition.get(List.of(selected.table.id(), selected.key));
            return select.execute(context.onSnapshot(new Snapshot(data))).join();
        }
        return new VoidResult();
    }

    /** One participant's compare-and-set: its conditions on the rows it read, then its writes. */
    private static final class Participant implements CasRequest {
        private final Part part;
        private final ReadSpec read;
        private final int nowInSec;
        /** The statement's hidden markers, the LET values': how many, and the index of the first (after the client's). */
        private final int firstHidden;
        private final int hiddenMarkers;

        Participant(Part part, ReadSpec read, int nowInSec, int firstHidden, int hiddenMarkers) {
            this.part = part;
            this.read = read;
            this.nowInSec = nowInSec;
            this.firstHidden = firstHidden;
            this.hiddenMarkers = hiddenMarkers;
        }

        @Override
        public TableMetadata table() {
            return part.table;
        }

        @Override
        public PartitionKey key() {
            return part.key;
        }

        @Override
        public ReadSpec read() {
            return read;
        }

        /** Null when a condition fails; otherwise every write to the partition (an empty update when there is none). */
        @Override
        public PartitionUpdate apply(PartitionData data, long timestampMicros) {
            CurrentPartition current = new CurrentPartition(part.table, part.key, data, nowInSec);
            for (int i = 0; i < part.conditioned.size(); i++) {
                RowView row = part.conditioned.get(i).row(current);
                ColumnCondition.Bound condition = part.conditions.get(i);
                boolean holds = condition == null ? (row != null) == part.existence.get(i) : condition.holds(row);
                if (!holds) return null;
            }
            UpdatesBuilder builder = new UpdatesBuilder();
            UpdatesBuilder.PartitionBuilder partition = builder.partition(part.table, part.key);
            Map<Clustering, RowView> existing = current.existing();
            List<ByteBuffer> letValues = part.letValues.isEmpty() ? null : letValues(current);
            for (CasWrite w : part.writes) {
                QueryContext context = letValues == null ? w.context() : w.context().withBindings(w.context().bindings().withHidden(letValues));
                w.statement().addForCas(context, partition, timestampMicros, existing);
            }
            List<PartitionUpdate> updates = builder.build();
            return updates.isEmpty() ? new PartitionUpdate(part.table.id(), part.key, ballot.cql.data.DeletionTime.LIVE, List.of(), null, List.of())
                    : updates.get(0);
        }

        /**
         * The hidden markers' values: each LET value this participant's writes take, from the row it read (null when the
         * row or the value is absent, as Cassandra's arithmetic takes a null operand); the other hidden markers, which
         * other participants bind, stay null.
         */
        private List<ByteBuffer> letValues(CurrentPartition current) {
            ByteBuffer[] hidden = new ByteBuffer[hiddenMarkers];
            for (BoundLetValue v : part.letValues) {
                RowView row = v.let.row(current);
                hidden[v.value.marker - firstHidden] = row == null ? null : row.value(v.value.column);
            }
            return java.util.Arrays.asList(hidden);
        }
    }

    /**
     * The returning SELECT's partition as the transaction read it: a SERIAL read of it returns those rows, cut to the
     * read's slices and limits, so the SELECT's own selection, ordering and limits apply to them.
     */
    private record Snapshot(PartitionData data) implements LwtCoordinator {
        @Override
        public CompletableFuture<ballot.cql.spi.CasResult> cas(CasRequest request, ConsistencyLevel serial, ConsistencyLevel commit) {
            if (!request.isRead()) throw new IllegalStateException("a transaction's returning SELECT only reads");
            ReadSpec spec = request.read();
            List<Row> rows = new ArrayList<>();
            int limit = Math.min(spec.rowLimit(), spec.partitionRowLimit());
            int live = 0;
            List<Row> ordered = new ArrayList<>(data.rows());
            if (spec.reversed()) java.util.Collections.reverse(ordered);
            for (Row r : ordered) {
                if (live >= limit) break;
                boolean inSlices = false;
                for (Slice s : spec.slices()) inSlices |= s.contains(r.clustering().values(), request.table()::compareClusteringPrefix);
                if (!inSlices) continue;
                rows.add(r);
                if (r.hasLiveData(spec.nowInSec())) live++;
            }
            return CompletableFuture.completedFuture(new ballot.cql.spi.CasResult(false,
                    new PartitionData(data.key(), data.partitionDeletion(), data.rangeTombstones(), data.staticRow(), rows)));
        }
    }

    /** Options of the returning SELECT's snapshot read: SERIAL, one page. */
    static QueryOptions snapshotOptions(QueryOptions options) {
        return new QueryOptions(ConsistencyLevel.SERIAL, options.values(), options.valueNames(), options.skipMetadata(), -1, null,
                ConsistencyLevel.SERIAL, options.defaultTimestamp(), options.keyspace(), options.nowInSeconds());
    }
}
