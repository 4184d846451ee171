package ballot.cql.statement;

import ballot.cql.data.Clustering;
import ballot.cql.data.ClusteringBound;
import ballot.cql.data.PartitionKey;
import ballot.cql.data.Slice;
import ballot.cql.data.TokenRange;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.parse.Operator;
import ballot.cql.parse.Relation;
import ballot.cql.parse.Term;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.TableMetadata;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.TupleType;
import ballot.cql.type.UserTypeResolver;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A WHERE clause analysed against a table, as Cassandra splits it: restrictions on the partition key (EQ/IN on every
 * column, or token bounds), on a prefix of the clustering columns (EQ/IN then at most one slice), and everything else
 * as row filters, which a SELECT may apply only with ALLOW FILTERING.
 */
final class Restrictions {
    /** The candidate values of one key column: EQ gives one, IN several. */
    private interface KeyValues {
        List<ByteBuffer> bind(Bindings b);
    }

    /** One end of a slice over one or more clustering columns (natural value order, not clustering order). */
    private record Bound(List<Value> values, boolean inclusive) {}

    private final TableMetadata table;
    private final KeyValues[] partitionKey;
    /** The relation that gave each partition key column its values. */
    private final Relation.Single[] partitionKeyRelations;
    private boolean partitionKeyRestricted;
    /** A reason why the clustering restrictions are not a prefix, or null; such a query can only be filtered. */
    private String clusteringNotPrefixReason;
    private final List<Value> tokenLower = new ArrayList<>();
    private final List<Boolean> tokenLowerInclusive = new ArrayList<>();
    private final List<Value> tokenUpper = new ArrayList<>();
    private final List<Boolean> tokenUpperInclusive = new ArrayList<>();
    private boolean tokenEq;
    /** The runs of clustering columns fixed by EQ or IN, from the first column on. */
    private final List<PrefixPart> clusteringPrefix = new ArrayList<>();
    /** The positions of the clustering columns restricted by equality (not IN). */
    private final Set<Integer> clusteringEq = new HashSet<>();
    /** Whether a multi-column IN fixes some of them. */
    private boolean clusteringTupleIn;
    private Bound sliceLower;
    private Bound sliceUpper;
    /** A multi-column slice over clustering columns of mixed ASC and DESC order: read as several slices. */
    private boolean mixedOrderSlice;
    private final List<RowFilter> filters = new ArrayList<>();

    /** The candidate values of a run of clustering columns fixed by one EQ or IN relation: one array per candidate. */
    private record PrefixPart(int columns, java.util.function.Function<Bindings, List<ByteBuffer[]>> candidates) {}

    private Restrictions(TableMetadata table) {
        this.table = table;
        this.partitionKey = new KeyValues[table.partitionKey().size()];
        this.partitionKeyRelations = new Relation.Single[table.partitionKey().size()];
    }

    /**
     * Analyses {@code where}. Restrictions that cannot be served by the key structure become filters;
     * {@link #needsFiltering()} tells whether there are any.
     */
    static Restrictions of(TableMetadata table, List<Relation> where, Markers markers, UserTypeResolver types) {
        Restrictions r = new Restrictions(table);
        List<Relation> clusteringRelations = new ArrayList<>();
        java.util.Map<ColumnMetadata, List<Relation.Single>> byColumn = new java.util.LinkedHashMap<>();
        for (Relation relation : where) {
            if (relation instanceof Relation.TokenRange t) {
                r.addToken(t, markers, types);
            } else if (relation instanceof Relation.Multi m) {
                for (String name : m.columns()) {
                    ColumnMetadata c = column(table, name);
                    if (c.kind() != ColumnMetadata.Kind.CLUSTERING) {
                        throw new InvalidRequestException("Multi-column relations can only be applied to clustering columns but was applied to: " + name);
                    }
                }
                clusteringRelations.add(m);
            } else {
                Relation.Single s = (Relation.Single) relation;
                ColumnMetadata c = column(table, s.column());
                if (c.kind() == ColumnMetadata.Kind.PARTITION_KEY && s.mapKey() == null && (s.op() == Operator.EQ || s.op() == Operator.IN)) {
                    r.partitionKeyRelations[c.position()] = s; // a second one is refused by checkMergeable
                    byColumn.computeIfAbsent(c, k -> new ArrayList<>()).add(s);
                } else if (c.kind() == ColumnMetadata.Kind.CLUSTERING && s.mapKey() == null
                        && (s.op() == Operator.EQ || s.op() == Operator.IN || s.op().isSlice())) {
                    clusteringRelations.add(s);
                } else {
                    r.filters.add(RowFilter.of(table, c, s, markers, types));
                    if (s.mapKey() == null) byColumn.computeIfAbsent(c, k -> new ArrayList<>()).add(s);
                }
            }
        }
        byColumn.forEach(Restrictions::checkMergeable);
        boolean anyKey = false;
        boolean allKey = true;
        for (Relation.Single s : r.partitionKeyRelations) {
            anyKey |= s != null;
            allKey &= s != null;
        }
        r.analyseClustering(clusteringRelations, markers, types);
        for (int i = 0; i < r.partitionKey.length; i++) {
            Relation.Single s = r.partitionKeyRelations[i];
            if (s == null) continue;
            ColumnMetadata c = table.partitionKey().get(i);
            if (allKey) {
                r.partitionKey[i] = keyValues(s, c, table, "Invalid null value in condition for column " + c.name(), markers, types);
            } else {
                // Some but not all key parts: filters over a scan, whose null values Cassandra words as any filter's.
                KeyValues values = keyValues(s, c, table, "Unsupported null value for column " + c.name(), markers, types);
                r.filters.add(RowFilter.partitionKeyValues(c, s, i, values::bind));
            }
        }
        r.partitionKeyRestricted = allKey;
        return r;
    }

    /**
     * Cassandra's merging of the relations on one partition key or filtered column, in the order written: an EQ or IN
     * leaves no room for another relation, a slice none for an EQ or IN, nor for another bound on its side. CONTAINS,
     * CONTAINS KEY, != and LIKE combine with anything.
     */
    private static void checkMergeable(ColumnMetadata c, List<Relation.Single> relations) {
        Operator first = null;
        boolean lower = false;
        boolean upper = false;
        for (Relation.Single s : relations) {
            Operator op = isSingleValueIn(s.op(), s.value()) ? Operator.EQ : s.op();
            if (op != Operator.EQ && op != Operator.IN && !op.isSlice()) continue;
            if (first == Operator.EQ) throw new InvalidRequestException(c.name() + " cannot be restricted by more than one relation if it includes an Equal");
            if (first == Operator.IN) throw new InvalidRequestException(c.name() + " cannot be restricted by more than one relation if it includes a IN");
            if (first != null && !op.isSlice()) {
                throw new InvalidRequestException("Column \"" + c.name() + "\" cannot be restricted by both an equality and an inequality relation");
            }
            boolean isLower = op == Operator.GT || op == Operator.GTE;
            if (isLower && lower) throw new InvalidRequestException("More than one restriction was found for the start bound on " + c.name());
            if (op.isSlice() && !isLower && upper) throw new InvalidRequestException("More than one restriction was found for the end bound on " + c.name());
            lower |= isLower;
            upper |= op.isSlice() && !isLower;
            if (first == null) first = op;
        }
    }

    /** The values of an EQ or IN on a key column; {@code nullValue} refuses a null one. */
    private static KeyValues keyValues(Relation.Single s, ColumnMetadata c, TableMetadata table, String nullValue, Markers markers,
            UserTypeResolver types) {
        ColumnSpec receiver = new ColumnSpec(table.keyspace(), table.name(), c.name(), c.type());
        if (s.op() == Operator.IN) {
            Terms.InValues in = Terms.prepareIn(s.value(), receiver, nullValue, markers, types);
            return in::bind;
        }
        Value v = Terms.prepare(s.value(), receiver, markers, types);
        return b -> {
            ByteBuffer value = v.bind(b);
            if (value == null) throw new InvalidRequestException(nullValue);
            if (value == QueryOptions.UNSET) throw new InvalidRequestException("Invalid unset value for column " + c.name());
            return List.of(value);
        };
    }

    private void addToken(Relation.TokenRange t, Markers markers, UserTypeResolver types) {
        List<String> expected = new ArrayList<>();
        for (ColumnMetadata c : table.partitionKey()) expected.add(c.name());
        if (!t.columns().equals(expected)) {
            if (new HashSet<>(t.columns()).equals(new HashSet<>(expected)) && t.columns().size() == expected.size()) {
                throw new InvalidRequestException("The token function arguments must be in the partition key order: " + String.join(", ", expected));
            }
            throw new InvalidRequestException("The token() function must be applied to all partition key components or none of them");
        }
        refuseSecondTokenBound(t.op(), String.join(", ", expected));
        Value v;
        if (t.value() instanceof Term.FunctionCall f && isToken(f)) {
            v = tokenOf(f, markers, types);
        } else {
            ColumnSpec receiver = new ColumnSpec(table.keyspace(), table.name(), "partition key token", CqlTypes.BIGINT);
            v = Terms.prepare(t.value(), receiver, markers, types);
        }
        switch (t.op()) {
            case GT, GTE -> {
                tokenLower.add(v);
                tokenLowerInclusive.add(t.op() == Operator.GTE);
            }
            case LT, LTE -> {
                tokenUpper.add(v);
                tokenUpperInclusive.add(t.op() == Operator.LTE);
            }
            case EQ -> {
                tokenEq = true;
                tokenLower.add(v);
                tokenLowerInclusive.add(true);
                tokenUpper.add(v);
                tokenUpperInclusive.add(true);
            }
            default -> throw new InvalidRequestException(t.op().symbol() + " cannot be used with the token function");
        }
    }

    /**
     * A token restriction merges with an earlier one as Cassandra merges them: an EQ leaves no room for another, and
     * slices may bound different sides only.
     */
    private void refuseSecondTokenBound(Operator op, String columns) {
        if (!hasTokenRestriction()) return;
        if (tokenEq) throw new InvalidRequestException(columns + " cannot be restricted by more than one relation if it includes an Equal");
        if (op == Operator.EQ) {
            throw new InvalidRequestException("Columns \"" + columns + "\" cannot be restricted by both an equality and an inequality relation");
        }
        boolean lower = op == Operator.GT || op == Operator.GTE;
        if (lower && !tokenLower.isEmpty()) throw new InvalidRequestException("More than one restriction was found for the start bound on " + columns);
        if (!lower && !tokenUpper.isEmpty()) throw new InvalidRequestException("More than one restriction was found for the end bound on " + columns);
    }

    private static boolean isToken(Term.FunctionCall f) {
        return f.name().equals("token") && (f.keyspace() == null || f.keyspace().equals("system"));
    }

    /** {@code token(v1, ...)} of literal or bound values: the token of the partition key they make (token paging). */
    private Value tokenOf(Term.FunctionCall f, Markers markers, UserTypeResolver types) {
        List<ColumnMetadata> key = table.partitionKey();
        if (f.args().size() != key.size()) {
            throw new InvalidRequestException("Invalid number of arguments in call to function system.token: " + key.size()
                    + " required but " + f.args().size() + " provided");
        }
        List<Value> args = new ArrayList<>();
        for (int i = 0; i < key.size(); i++) {
            ColumnSpec receiver = new ColumnSpec(table.keyspace(), table.name(), "arg" + i + "(system.token)", key.get(i).type());
            args.add(Terms.prepare(f.args().get(i), receiver, markers, types));
        }
        return b -> {
            List<ByteBuffer> components = new ArrayList<>(args.size());
            for (Value arg : args) {
                ByteBuffer component = arg.bind(b);
                if (component == null || component == QueryOptions.UNSET) return null;
                components.add(component);
            }
            return Functions.token(components);
        };
    }

    /**
     * Clustering relations, some over several columns, as Cassandra takes them: EQ and IN claims fix a prefix of the
     * clustering columns (a multi-column IN only from the first column on, and then alone), a slice claim (its
     * relations' bounds merged, single and multi-column alike) may follow; relations past that can only be filtered,
     * and multi-column ones not even that.
     */
    private void analyseClustering(List<Relation> relations, Markers markers, UserTypeResolver types) {
        ClusteringClaims claims = ClusteringClaims.of(table, relations);
        List<ColumnMetadata> clustering = table.clustering();
        int position = 0;
        ClusteringClaims.Claim slice = null;
        while (position < clustering.size() && claims.at(position) != null) {
            ClusteringClaims.Claim claim = claims.at(position);
            if (claim.isSlice()) {
                for (Relation r : claim.relations()) addSliceBound(r, position, markers, types);
                slice = claim;
                position = claim.last() + 1;
                break;
            }
            Relation r = claim.relations().get(0);
            if (r instanceof Relation.Single s) {
                ColumnMetadata c = column(table, s.column());
                KeyValues values = keyValues(s, c, table, "Invalid null value in condition for column " + c.name(), markers, types);
                clusteringPrefix.add(new PrefixPart(1, b -> values.bind(b).stream().map(v -> new ByteBuffer[] {v}).toList()));
                if (isEq(s)) clusteringEq.add(position);
            } else if (((Relation.Multi) r).op() == Operator.IN) {
                clusteringPrefix.add(tupleIn((Relation.Multi) r, position, markers, types));
                clusteringTupleIn = true;
            } else {
                clusteringPrefix.add(tupleEq((Relation.Multi) r, position, markers, types));
                for (int i = position; i <= claim.last(); i++) clusteringEq.add(i);
            }
            position = claim.last() + 1;
        }
        List<ClusteringClaims.Claim> rests = claims.from(position);
        for (ClusteringClaims.Claim rest : rests) {
            // Cassandra names the first column past the prefix, and words it by whether the slice came first.
            String reason = slice == null
                    ? "PRIMARY KEY column \"" + clustering.get(rest.first()).name() + "\" cannot be restricted as preceding column \""
                            + clustering.get(rest.first() - 1).name() + "\" is not restricted"
                    : (slice.writtenBefore(rests.get(0)) ? "Clustering column \"" : "PRIMARY KEY column \"") + clustering.get(rest.first()).name()
                            + "\" cannot be restricted (preceding column \"" + clustering.get(slice.first()).name() + "\" is restricted by a non-EQ relation)";
            for (Relation r : rest.relations()) {
                if (!(r instanceof Relation.Single s)) throw new InvalidRequestException(reason);
                filters.add(RowFilter.of(table, column(table, s.column()), s, markers, types));
            }
            if (clusteringNotPrefixReason == null) clusteringNotPrefixReason = reason;
        }
    }

    private TupleType tupleType(Relation.Multi m, int start) {
        List<CqlType> componentTypes = new ArrayList<>();
        for (int i = 0; i < m.columns().size(); i++) componentTypes.add(table.clustering().get(start + i).type());
        return CqlTypes.tuple(componentTypes);
    }

    private ColumnSpec tupleReceiver(Relation.Multi m, TupleType type) {
        return new ColumnSpec(table.keyspace(), table.name(), "(" + String.join(",", m.columns()) + ")", type);
    }

    /** A tuple compared with {@code m}'s columns: the elements of {@code (?, ?)} bind the columns themselves, as in Cassandra. */
    private Value tupleValue(Relation.Multi m, Term value, TupleType type, Markers markers, UserTypeResolver types) {
        if (!(value instanceof Term.TupleLiteral literal) || literal.elements().size() != m.columns().size()) {
            return Terms.prepare(value, tupleReceiver(m, type), markers, types);
        }
        List<ColumnSpec> receivers = new ArrayList<>();
        for (String name : m.columns()) {
            ColumnMetadata c = column(table, name);
            receivers.add(new ColumnSpec(table.keyspace(), table.name(), c.name(), c.type()));
        }
        return Terms.tuple(literal.elements(), receivers, type, markers, types);
    }

    /** {@code (c1, c2) = (v1, v2)} over the clustering columns from {@code start} on. */
    private PrefixPart tupleEq(Relation.Multi m, int start, Markers markers, UserTypeResolver types) {
        TupleType tupleType = tupleType(m, start);
        Value tuple = tupleValue(m, m.value(), tupleType, markers, types);
        return new PrefixPart(m.columns().size(), b -> {
            ByteBuffer bound = tuple.bind(b);
            if (bound == null || bound == QueryOptions.UNSET) throw new InvalidRequestException("Invalid null value in condition for columns " + m.columns());
            List<ByteBuffer> components = tupleType.unpack(bound);
            for (int i = 0; i < components.size(); i++) {
                if (components.get(i) == null) throw new InvalidRequestException("Invalid null value for column " + m.columns().get(i));
            }
            return List.<ByteBuffer[]>of(components.toArray(new ByteBuffer[0]));
        });
    }

    /** {@code (c1, c2) IN ((v1, v2), ...)} over the clustering columns from {@code start} on. */
    private PrefixPart tupleIn(Relation.Multi m, int start, Markers markers, UserTypeResolver types) {
        TupleType tupleType = tupleType(m, start);
        java.util.function.Function<Bindings, List<ByteBuffer>> tuples;
        if (m.value() instanceof Term.BindMarker marker) {
            ColumnSpec listReceiver = new ColumnSpec(table.keyspace(), table.name(), "in(" + String.join(",", m.columns()) + ")",
                    CqlTypes.list(tupleType, true));
            Value list = Terms.prepare(marker, listReceiver, markers, types);
            tuples = b -> {
                ByteBuffer value = list.bind(b);
                if (value == null || value == QueryOptions.UNSET) throw new InvalidRequestException("Invalid null value for IN restriction");
                return CqlTypes.list(tupleType, true).unpack(value);
            };
        } else {
            List<Value> literals = new ArrayList<>();
            for (Term t : ((Term.ListLiteral) m.value()).elements()) literals.add(tupleValue(m, t, tupleType, markers, types));
            tuples = b -> literals.stream().map(v -> v.bind(b)).toList();
        }
        return new PrefixPart(m.columns().size(), b -> {
            List<ByteBuffer[]> candidates = new ArrayList<>();
            for (ByteBuffer tuple : tuples.apply(b)) {
                List<ByteBuffer> components = tupleType.unpack(tuple);
                for (int i = 0; i < components.size(); i++) {
                    if (components.get(i) == null) throw new InvalidRequestException("Invalid null value for column " + m.columns().get(i));
                }
                candidates.add(components.toArray(new ByteBuffer[0]));
            }
            return candidates;
        });
    }

    /**
     * One bound of the slice over the clustering columns from {@code start} on: a single-column relation on that column
     * or a multi-column one starting there ({@link ClusteringClaims} has refused two bounds on one side).
     */
    private void addSliceBound(Relation r, int start, Markers markers, UserTypeResolver types) {
        Operator op;
        List<Value> components = new ArrayList<>();
        if (r instanceof Relation.Single s) {
            op = s.op();
            ColumnMetadata c = table.clustering().get(start);
            Value value = Terms.prepare(s.value(), new ColumnSpec(table.keyspace(), table.name(), c.name(), c.type()), markers, types);
            components.add(b -> {
                ByteBuffer v = value.bind(b);
                if (v == QueryOptions.UNSET) throw new InvalidRequestException("Invalid unset value for column " + c.name());
                return emptyIfNull(v);
            });
        } else {
            Relation.Multi m = (Relation.Multi) r;
            op = m.op();
            boolean descending = table.clustering().get(start).descending();
            for (int i = 1; i < m.columns().size(); i++) mixedOrderSlice |= table.clustering().get(start + i).descending() != descending;
            TupleType tupleType = tupleType(m, start);
            Value tuple = tupleValue(m, m.value(), tupleType, markers, types);
            for (int i = 0; i < m.columns().size(); i++) {
                int index = i;
                components.add(b -> {
                    ByteBuffer bound = tuple.bind(b);
                    if (bound == null || bound == QueryOptions.UNSET) throw new InvalidRequestException("Invalid null value in condition for columns " + m.columns());
                    ByteBuffer component = tupleType.unpack(bound).get(index);
                    if (component == null) throw new InvalidRequestException("Invalid null value in condition for column " + m.columns().get(index));
                    return component;
                });
            }
        }
        Bound bound = new Bound(components, op == Operator.GTE || op == Operator.LTE);
        if (op == Operator.GT || op == Operator.GTE) sliceLower = bound;
        else sliceUpper = bound;
    }

    static ColumnMetadata column(TableMetadata table, String name) {
        ColumnMetadata c = table.column(name);
        if (c == null) throw new InvalidRequestException("Undefined column name " + name + " in table " + table);
        return c;
    }

    // ---------------------------------------------------------------- what the statement may ask

    /** Every partition key column is restricted by EQ or IN. */
    boolean hasPartitionKey() {
        return partitionKeyRestricted;
    }

    /**
     * Whether the partition key is restricted by IN, as Cassandra tells it (the refusal to page ORDER BY with IN): an IN
     * listing one value is an EQ there.
     */
    boolean hasPartitionKeyIn() {
        return partitionKeyRestricted && hasPartitionKeyInRelation();
    }

    /** Whether some partition key column is restricted by an IN of several values, the key given whole or in part. */
    boolean hasPartitionKeyInRelation() {
        for (Relation.Single s : partitionKeyRelations) if (s != null && !isEq(s)) return true;
        return false;
    }

    /** Whether a primary key column is restricted by equality (an IN listing one value counts, as in Cassandra). */
    boolean restrictedByEq(ColumnMetadata c) {
        if (c.kind() == ColumnMetadata.Kind.PARTITION_KEY) return partitionKeyRestricted && isEq(partitionKeyRelations[c.position()]);
        return c.kind() == ColumnMetadata.Kind.CLUSTERING && clusteringEq.contains(c.position());
    }

    private static boolean isEq(Relation.Single s) {
        return s.op() == Operator.EQ || isSingleValueIn(s.op(), s.value());
    }

    /** An IN of a single value, which is an EQ, as in Cassandra (for keys, clustering claims and indexes alike). */
    static boolean isSingleValueIn(Operator op, Term value) {
        return op == Operator.IN && value instanceof Term.ListLiteral l && l.elements().size() == 1;
    }

    boolean hasTokenRestriction() {
        return !tokenLower.isEmpty() || !tokenUpper.isEmpty();
    }

    boolean hasClusteringRestrictions() {
        return !clusteringPrefix.isEmpty() || sliceLower != null || sliceUpper != null;
    }

    boolean hasClusteringSlice() {
        return sliceLower != null || sliceUpper != null;
    }

    boolean hasClusteringIn() {
        return clusteringTupleIn;
    }

    /** Number of clustering columns fixed by EQ/IN. */
    int clusteringPrefixSize() {
        int columns = 0;
        for (PrefixPart part : clusteringPrefix) columns += part.columns();
        return columns;
    }

    boolean needsFiltering() {
        return !filters.isEmpty();
    }

    List<RowFilter> filters() {
        return filters;
    }

    /** Why the clustering restrictions do not form a prefix (for statements that cannot filter), or null. */
    String clusteringNotPrefixReason() {
        return clusteringNotPrefixReason;
    }

    /**
     * Cassandra's "queries full partitions": nothing restricts a clustering or a regular column, so a partition whose
     * only live data is its static row is one row of the answer (nulls for the clustering and regular columns),
     * whatever the selection.
     */
    boolean queriesFullPartitions() {
        if (hasClusteringRestrictions()) return false;
        for (RowFilter f : filters) {
            ColumnMetadata.Kind kind = f.column().kind();
            if (kind == ColumnMetadata.Kind.CLUSTERING || kind == ColumnMetadata.Kind.REGULAR) return false;
        }
        return true;
    }

    boolean restrictsOnlyKeys() {
        for (RowFilter f : filters) if (!f.column().isPrimaryKey()) return false;
        return true;
    }

    /**
     * The partition keys selected (EQ/IN on every key column), deduplicated, in the order of their values (column by
     * column, by type), as Cassandra sorts them: a query returns its partitions in this order.
     */
    List<PartitionKey> partitionKeys(Bindings b) {
        List<PartitionKey> keys = restrictedPartitionKeys(b);
        if (!hasTokenRestriction()) return keys;
        // Token bounds besides the key's values keep the keys whose token is within them, as in Cassandra.
        TokenRange range = tokenRange(b);
        return keys.stream().filter(range::contains).toList();
    }

    private List<PartitionKey> restrictedPartitionKeys(Bindings b) {
        if (partitionKey.length == 1) {
            // The common case, one key column: no combinations to build.
            List<ByteBuffer> values = partitionKey[0].bind(b);
            if (values.size() == 1) return List.of(singleKey(values.get(0)));
        }
        List<List<ByteBuffer>> components = new ArrayList<>();
        for (KeyValues k : partitionKey) components.add(k.bind(b));
        List<List<ByteBuffer>> combinations = cartesian(components);
        combinations.sort(this::compareKeyValues);
        List<PartitionKey> keys = new ArrayList<>(combinations.size());
        List<ByteBuffer> previous = null;
        for (List<ByteBuffer> combination : combinations) {
            if (previous != null && compareKeyValues(previous, combination) == 0) continue;
            previous = combination;
            for (int i = 0; i < combination.size(); i++) {
                if (combination.get(i).remaining() == 0 && !table.partitionKey().get(i).type().allowsEmpty()) {
                    throw new InvalidRequestException("Key may not be empty");
                }
            }
            keys.add(PartitionKey.of(checkKey(PartitionKey.compose(combination.toArray(new ByteBuffer[0])))));
        }
        return keys;
    }

    private int compareKeyValues(List<ByteBuffer> a, List<ByteBuffer> b) {
        for (int i = 0; i < a.size(); i++) {
            int c = table.partitionKey().get(i).type().compare(a.get(i), b.get(i));
            if (c != 0) return c;
        }
        return 0;
    }

    private PartitionKey singleKey(ByteBuffer value) {
        return PartitionKey.of(checkKey(value));
    }

    /**
     * A partition key as stored may not be empty, as in Cassandra: the empty value of a lone key column, of any type (a
     * composite key's empty components are not an empty key); nor longer than 65535 bytes.
     */
    private static ByteBuffer checkKey(ByteBuffer key) {
        if (key.remaining() == 0) throw new InvalidRequestException("Key may not be empty");
        if (key.remaining() > 0xFFFF) {
            throw new InvalidRequestException("Key length of " + key.remaining() + " is longer than maximum of 65535");
        }
        return key;
    }

    /** The token range of a scan; the whole ring without token restrictions. */
    TokenRange tokenRange(Bindings b) {
        long start = Long.MIN_VALUE;
        long end = Long.MAX_VALUE;
        for (int i = 0; i < tokenLower.size(); i++) {
            long t = bigint(tokenLower.get(i).bind(b));
            long s = tokenLowerInclusive.get(i) ? t : (t == Long.MAX_VALUE ? Long.MAX_VALUE : t + 1);
            if (!tokenLowerInclusive.get(i) && t == Long.MAX_VALUE) return new TokenRange(1, null, 0);
            start = Math.max(start, s);
        }
        for (int i = 0; i < tokenUpper.size(); i++) {
            long t = bigint(tokenUpper.get(i).bind(b));
            if (!tokenUpperInclusive.get(i) && t == Long.MIN_VALUE) return new TokenRange(1, null, 0);
            long e = tokenUpperInclusive.get(i) ? t : t - 1;
            end = Math.min(end, e);
        }
        return new TokenRange(start, null, end);
    }

    private static long bigint(ByteBuffer value) {
        if (value == null) throw new InvalidRequestException("Invalid null token value");
        if (value == QueryOptions.UNSET) throw new InvalidRequestException("Invalid unset token value");
        return value.getLong(value.position());
    }

    /** The full clusterings fixed by EQ/IN on every clustering column (INSERT, UPDATE, DELETE of rows). */
    List<Clustering> clusterings(Bindings b) {
        List<ByteBuffer[]> prefixes = prefixes(b);
        List<Clustering> out = new ArrayList<>(prefixes.size());
        for (ByteBuffer[] p : prefixes) out.add(Clustering.of(p));
        return out;
    }

    /** EQ/IN prefixes in clustering order, deduplicated. */
    private List<ByteBuffer[]> prefixes(Bindings b) {
        List<ByteBuffer[]> prefixes = List.<ByteBuffer[]>of(new ByteBuffer[0]);
        for (PrefixPart part : clusteringPrefix) {
            List<ByteBuffer[]> extended = new ArrayList<>();
            for (ByteBuffer[] candidate : part.candidates().apply(b)) for (ByteBuffer[] p : prefixes) extended.add(concat(p, candidate));
            prefixes = extended;
        }
        TreeSet<ByteBuffer[]> sorted = new TreeSet<>(table.clusteringOrder());
        sorted.addAll(prefixes);
        return new ArrayList<>(sorted);
    }


    /** The clustering slices to read, in clustering order. */
    List<Slice> slices(Bindings b) {
        if (!hasClusteringRestrictions()) return List.of(Slice.ALL);
        List<ByteBuffer[]> prefixes = prefixes(b);
        List<Slice> slices = new ArrayList<>(prefixes.size());
        if (!hasClusteringSlice()) {
            for (ByteBuffer[] p : prefixes) slices.add(Slice.of(p));
            return slices;
        }
        int sliceStart = clusteringPrefixSize();
        boolean descending = table.clustering().get(sliceStart).descending();
        ByteBuffer[] lowerValues = sliceLower == null ? null : bindBound(sliceLower, b);
        ByteBuffer[] upperValues = sliceUpper == null ? null : bindBound(sliceUpper, b);
        if (mixedOrderSlice) {
            TupleBound lower = lowerValues == null ? null : new TupleBound(List.of(lowerValues), sliceLower.inclusive());
            TupleBound upper = upperValues == null ? null : new TupleBound(List.of(upperValues), sliceUpper.inclusive());
            for (ByteBuffer[] p : prefixes) {
                for (Slice slice : tupleSlices(p, lower, upper)) if (!isEmpty(slice)) slices.add(slice);
            }
            return slices;
        }
        for (ByteBuffer[] p : prefixes) {
            ClusteringBound lower = lowerValues == null ? new ClusteringBound(p, true) : new ClusteringBound(concat(p, lowerValues), sliceLower.inclusive());
            ClusteringBound upper = upperValues == null ? new ClusteringBound(p, true) : new ClusteringBound(concat(p, upperValues), sliceUpper.inclusive());
            Slice slice = descending ? new Slice(upper, lower) : new Slice(lower, upper);
            if (!isEmpty(slice)) slices.add(slice);
        }
        return slices;
    }

    /** What is left of a multi-column bound past the components already fixed: null for no bound. */
    private record TupleBound(List<ByteBuffer> rest, boolean inclusive) {
        TupleBound tail() {
            return new TupleBound(rest.subList(1, rest.size()), inclusive);
        }
    }

    /**
     * The slices, in clustering order, of the rows after {@code fixed} whose next columns lie between {@code lower} and
     * {@code upper} in tuple order (each column compared in its type's order, whatever its clustering order). A column
     * splits the set into the rows equal to the lower bound's value there (the rest of the bounds decide), those
     * strictly between the bounds' values (all of them), and those equal to the upper bound's value: three runs that a
     * descending column stores in the opposite order. So a slice over columns of mixed order is a few plain slices.
     */
    private List<Slice> tupleSlices(ByteBuffer[] fixed, TupleBound lower, TupleBound upper) {
        if (lower != null && lower.rest().isEmpty()) { // every bounded column equals the bound's: in if the bound is inclusive
            if (!lower.inclusive()) return List.of();
            lower = null;
        }
        if (upper != null && upper.rest().isEmpty()) {
            if (!upper.inclusive()) return List.of();
            upper = null;
        }
        if (lower == null && upper == null) return List.of(Slice.of(fixed));
        ColumnMetadata column = table.clustering().get(fixed.length);
        ByteBuffer l = lower == null ? null : lower.rest().get(0);
        ByteBuffer u = upper == null ? null : upper.rest().get(0);
        int cmp = l != null && u != null ? column.type().compare(l, u) : -1;
        if (cmp > 0) return List.of();
        List<Slice> atLower = l == null ? List.of() : tupleSlices(concat(fixed, new ByteBuffer[] {l}), lower.tail(), cmp == 0 ? upper.tail() : null);
        if (cmp == 0) return atLower;
        ClusteringBound from = l == null ? new ClusteringBound(fixed, true) : new ClusteringBound(concat(fixed, new ByteBuffer[] {l}), false);
        ClusteringBound to = u == null ? new ClusteringBound(fixed, true) : new ClusteringBound(concat(fixed, new ByteBuffer[] {u}), false);
        List<Slice> between = List.of(column.descending() ? new Slice(to, from) : new Slice(from, to));
        List<Slice> atUpper = u == null ? List.of() : tupleSlices(concat(fixed, new ByteBuffer[] {u}), null, upper.tail());
        List<Slice> out = new ArrayList<>();
        for (List<Slice> run : column.descending() ? List.of(atUpper, between, atLower) : List.of(atLower, between, atUpper)) out.addAll(run);
        return out;
    }

    /** True if the slice's start comes after its end in clustering order (e.g. c > 5 AND c < 3). */
    private boolean isEmpty(Slice slice) {
        ByteBuffer[] start = slice.start().prefix();
        ByteBuffer[] end = slice.end().prefix();
        int common = Math.min(start.length, end.length);
        int c = table.clusteringOrder().compare(java.util.Arrays.copyOf(start, common), java.util.Arrays.copyOf(end, common));
        if (c != 0) return c > 0;
        if (start.length == end.length) return !(slice.start().inclusive() && slice.end().inclusive());
        return false;
    }

    /** A null bound of a single-column clustering slice is the empty value, as in Cassandra: before every other value. */
    static ByteBuffer emptyIfNull(ByteBuffer value) {
        return value == null ? ByteBuffer.allocate(0) : value;
    }

    private static ByteBuffer[] bindBound(Bound bound, Bindings b) {
        ByteBuffer[] values = new ByteBuffer[bound.values().size()];
        for (int i = 0; i < values.length; i++) {
            ByteBuffer v = bound.values().get(i).bind(b);
            if (v == null) throw new InvalidRequestException("Invalid null value in condition for a clustering column slice");
            values[i] = v;
        }
        return values;
    }

    private static ByteBuffer[] concat(ByteBuffer[] a, ByteBuffer[] b) {
        ByteBuffer[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static List<List<ByteBuffer>> cartesian(List<List<ByteBuffer>> values) {
        List<List<ByteBuffer>> result = new ArrayList<>();
        result.add(new ArrayList<>());
        for (List<ByteBuffer> options : values) {
            List<List<ByteBuffer>> next = new ArrayList<>();
            for (List<ByteBuffer> prefix : result) {
                for (ByteBuffer option : options) {
                    List<ByteBuffer> extended = new ArrayList<>(prefix);
                    extended.add(option);
                    next.add(extended);
                }
            }
            result = next;
        }
        return result;
    }
}
