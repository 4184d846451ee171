package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.index.IndexExpression;
import ballot.cql.index.IndexTerms;
import ballot.cql.index.StorageAttachedIndex;
import ballot.cql.parse.Operator;
import ballot.cql.parse.Relation;
import ballot.cql.parse.Statement;
import ballot.cql.parse.Term;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.IndexMetadata;
import ballot.cql.schema.IndexTarget;
import ballot.cql.schema.TableMetadata;
import ballot.cql.type.CqlType;
import ballot.cql.type.ListType;
import ballot.cql.type.MapType;
import ballot.cql.type.SetType;
import ballot.cql.type.UserTypeResolver;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * How a SELECT uses its table's storage-attached indexes (docs/indexes.md, "Queries"), decided as Cassandra 5.0's
 * {@code StatementRestrictions} decides it: the relations the primary key cannot answer must each be served by an
 * index, or the query needs ALLOW FILTERING. A served relation is checked with its index's matching rule (analyzed
 * terms); one of them drives the scan, equality first.
 */
final class IndexQueryPlan {
    /** A relation an index serves: its index, and its bound form as an index expression. */
    private record Served(Relation.Single relation, IndexTerms terms, Function<Bindings, IndexExpression> expression, boolean equality) {}

    private static final String NULL_VALUE = "Unsupported null value for column ";

    private final List<Served> served;
    private final List<RowFilter> filters;
    private final boolean needsFiltering;
    private final boolean queriable;
    private final boolean usesIndex;

    private IndexQueryPlan(List<Served> served, List<RowFilter> filters, boolean needsFiltering, boolean queriable, boolean usesIndex) {
        this.served = served;
        this.filters = filters;
        this.needsFiltering = needsFiltering;
        this.queriable = queriable;
        this.usesIndex = usesIndex;
    }

    /** The plan of {@code select} on a table with indexes; {@code where} is its analysed WHERE clause. */
    static IndexQueryPlan of(TableMetadata table, Statement.Select select, Restrictions where, Markers markers, UserTypeResolver types) {
        List<Served> served = new ArrayList<>();
        boolean needsFiltering = false;
        boolean keyServed = false;
        boolean ann = AnnOrdering.isAnn(select);
        for (Relation relation : select.where()) {
            if (relation instanceof Relation.TokenRange) continue;
            if (relation instanceof Relation.Multi) {
                needsFiltering |= !where.hasPartitionKey();
                continue;
            }
            Relation.Single s = (Relation.Single) relation;
            ColumnMetadata c = Restrictions.column(table, s.column());
            if (hasAnnIndex(table, c) && !answeredByKey(c, where)) throw new InvalidRequestException("Vector indexes only support ANN queries");
            Served use = serve(table, c, s, markers, types);
            if (answeredByKey(c, where)) keyServed |= use != null;
            else if (use != null) served.add(use);
            else needsFiltering = true;
        }
        // As Cassandra's StatementRestrictions: an index serving any relation, a key relation included, makes the query
        // an index query as soon as something is left to filter, and then no clustering prefix is required.
        boolean queriable = keyServed || !served.isEmpty();
        boolean usesIndex = !served.isEmpty() || keyServed && where.needsFiltering();
        if ((usesIndex || ann) && where.hasPartitionKeyInRelation()) {
            throw new InvalidRequestException("Select on indexed columns and with IN clause for the PRIMARY KEY are not supported");
        }
        List<RowFilter> filters = new ArrayList<>();
        for (RowFilter f : where.filters()) {
            Served use = find(served, f.relation());
            filters.add(use == null ? f : matcher(f.column(), use));
        }
        return new IndexQueryPlan(served, filters, needsFiltering, queriable, usesIndex);
    }

    /** An ANN index serves no relation, only ANN ordering (SAI's vector indexes). */
    private static boolean hasAnnIndex(TableMetadata table, ColumnMetadata c) {
        if (!StorageAttachedIndex.isAnn(c)) return false;
        for (IndexMetadata index : table.indexes()) if (index.target().column().equals(c.name())) return true;
        return false;
    }

    /** With the whole partition key given, key and clustering-prefix relations are answered by the read itself. */
    private static boolean answeredByKey(ColumnMetadata c, Restrictions where) {
        if (!where.hasPartitionKey() || !c.isPrimaryKey()) return false;
        for (RowFilter f : where.filters()) if (f.column() == c) return false;
        return true;
    }

    private static Served find(List<Served> served, Relation.Single relation) {
        for (Served s : served) if (s.relation() == relation) return s;
        return null;
    }

    /** The filter of a served relation: its index's rule applied to the row's current terms. */
    private static RowFilter matcher(ColumnMetadata column, Served use) {
        IndexTerms terms = use.terms();
        return RowFilter.of(column, use.relation(), b -> {
            IndexExpression e = use.expression().apply(b);
            return row -> e.matchesAny(terms.ofLive(row.partitionKey(), row.row(), row.staticRow(), row.nowInSec()));
        });
    }

    /** The index that serves {@code s}, with its expression; null if none does. */
    private static Served serve(TableMetadata table, ColumnMetadata c, Relation.Single s, Markers markers, UserTypeResolver types) {
        for (IndexMetadata index : table.indexes()) {
            IndexTarget target = index.target();
            if (!target.column().equals(c.name())) continue;
            IndexTerms terms = IndexTerms.of(table, index);
            ColumnSpec receiver = new ColumnSpec(table.keyspace(), table.name(), c.name(), c.type());
            String name = index.name();
            CqlType type = c.type();
            // An IN of one value is an EQ, as in Cassandra.
            boolean singleIn = Restrictions.isSingleValueIn(s.op(), s.value());
            Operator op = singleIn ? Operator.EQ : s.op();
            Term valueTerm = singleIn ? ((Term.ListLiteral) s.value()).elements().get(0) : s.value();
            if (s.mapKey() != null) {
                if (op != Operator.EQ || target.type() != IndexTarget.Type.ENTRIES) continue;
                MapType map = (MapType) type;
                Value key = Terms.prepare(s.mapKey(), Terms.element(receiver, "key", map.keys()), markers, types);
                Value value = Terms.prepare(s.value(), Terms.element(receiver, "value", map.values()), markers, types);
                return new Served(s, terms, b -> IndexExpression.equalTo(name, terms.entryTerm(required(key, b, c, "Unsupported null map key for column "),
                        required(value, b, c, "Unsupported null map value for column "))), true);
            }
            IndexTarget.Type part = switch (op) {
                case CONTAINS -> IndexTarget.Type.VALUES;
                case CONTAINS_KEY -> IndexTarget.Type.KEYS;
                case EQ -> type.isMultiCell() ? null : type.isCollection() ? IndexTarget.Type.FULL : IndexTarget.Type.SIMPLE;
                case LT, LTE, GT, GTE -> StorageAttachedIndex.supportsRanges(terms) ? IndexTarget.Type.SIMPLE : null;
                default -> null;
            };
            if (part == null || part != target.type()) continue;
            ColumnSpec valueReceiver = switch (op) {
                case CONTAINS -> Terms.element(receiver, "value", type instanceof ListType l ? l.elements()
                        : type instanceof SetType set ? set.elements() : ((MapType) type).values());
                case CONTAINS_KEY -> Terms.element(receiver, "key", ((MapType) type).keys());
                default -> receiver;
            };
            Value value = Terms.prepare(valueTerm, valueReceiver, markers, types);
            if (!op.isSlice()) return new Served(s, terms, b -> IndexExpression.equalTo(name, terms.term(required(value, b, c, NULL_VALUE))), true);
            return new Served(s, terms, b -> {
                byte[] bound = terms.term(required(value, b, c, NULL_VALUE));
                return switch (op) {
                    case GT, GTE -> new IndexExpression(name, bound, op == Operator.GTE, null, false);
                    default -> new IndexExpression(name, null, false, bound, op == Operator.LTE);
                };
            }, false);
        }
        return null;
    }

    /** A served relation's value, refused when null or unset as a filtered column's (Cassandra words both alike). */
    private static ByteBuffer required(Value value, Bindings b, ColumnMetadata c, String nullValue) {
        return RowFilter.required(value.bind(b), c, nullValue + c.name());
    }

    /** The WHERE clause's filters, with each served relation checked by its index's rule. */
    List<RowFilter> filters() {
        return filters;
    }

    boolean needsFiltering() {
        return needsFiltering;
    }

    /** Whether an index supports some relation, one the key answers included (Cassandra's "queriable index"). */
    boolean queriable() {
        return queriable;
    }

    /** Whether the query is an index query: an index serves a relation the key cannot answer, or a key relation with filtering. */
    boolean usesIndex() {
        return usesIndex;
    }

    /** Whether a scan (no partition key) is driven by an index. */
    boolean drivesScan() {
        return !served.isEmpty();
    }

    /** Every index the query relies on. */
    List<String> used() {
        List<String> names = new ArrayList<>();
        for (Served s : served) if (!names.contains(s.terms().index().name())) names.add(s.terms().index().name());
        return names;
    }

    /**
     * The expression that drives the scan: the first equality-like relation, else the first range, narrowed by the other
     * ranges on the same index.
     */
    IndexExpression driving(Bindings b) {
        for (Served s : served) if (s.equality()) return s.expression().apply(b);
        Served first = served.get(0);
        IndexExpression e = first.expression().apply(b);
        byte[] lower = e.lower();
        boolean lowerInclusive = e.lowerInclusive();
        byte[] upper = e.upper();
        boolean upperInclusive = e.upperInclusive();
        for (Served s : served) {
            if (s == first || s.terms().index() != first.terms().index()) continue;
            IndexExpression other = s.expression().apply(b);
            if (other.lower() != null && (lower == null || java.util.Arrays.compareUnsigned(other.lower(), lower) > 0
                    || java.util.Arrays.equals(other.lower(), lower) && !other.lowerInclusive())) {
                lower = other.lower();
                lowerInclusive = other.lowerInclusive();
            }
            if (other.upper() != null && (upper == null || java.util.Arrays.compareUnsigned(other.upper(), upper) < 0
                    || java.util.Arrays.equals(other.upper(), upper) && !other.upperInclusive())) {
                upper = other.upper();
                upperInclusive = other.upperInclusive();
            }
        }
        return new IndexExpression(e.index(), lower, lowerInclusive, upper, upperInclusive);
    }
}
