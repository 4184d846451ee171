package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.parse.Operator;
import ballot.cql.parse.Relation;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.TableMetadata;
import ballot.cql.type.CqlType;
import ballot.cql.type.ListType;
import ballot.cql.type.MapType;
import ballot.cql.type.SetType;
import ballot.cql.type.UserTypeResolver;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A restriction evaluated on each row read (ALLOW FILTERING): a comparison, IN, CONTAINS, CONTAINS KEY or a map
 * element comparison on one column. Rows where the column is null never match, as in Cassandra.
 */
final class RowFilter {
    /** The bound form, for one execution. */
    @FunctionalInterface
    interface Bound {
        boolean matches(RowView row);
    }

    private final ColumnMetadata column;
    private final Relation.Single relation;
    private final Function<Bindings, Bound> binder;

    private RowFilter(ColumnMetadata column, Relation.Single relation, Function<Bindings, Bound> binder) {
        this.column = column;
        this.relation = relation;
        this.binder = binder;
    }

    /** A filter on {@code column} for {@code relation} that {@code binder} binds: an index's own matching rule. */
    static RowFilter of(ColumnMetadata column, Relation.Single relation, Function<Bindings, Bound> binder) {
        return new RowFilter(column, relation, binder);
    }

    ColumnMetadata column() {
        return column;
    }

    /** The WHERE relation this filter applies. */
    Relation.Single relation() {
        return relation;
    }

    Bound bind(Bindings b) {
        return binder.apply(b);
    }

    /** A filter on partition key component {@code position} to one of the given values (EQ/IN on part of the key). */
    static RowFilter partitionKeyValues(ColumnMetadata c, Relation.Single s, int position, Function<Bindings, List<ByteBuffer>> values) {
        return new RowFilter(c, s, b -> {
            List<ByteBuffer> candidates = values.apply(b);
            return row -> {
                ByteBuffer actual = row.partitionKey()[position];
                for (ByteBuffer candidate : candidates) if (c.type().compare(actual, candidate) == 0) return true;
                return false;
            };
        });
    }

    static RowFilter of(TableMetadata table, ColumnMetadata c, Relation.Single s, Markers markers, UserTypeResolver types) {
        CqlType type = c.type();
        ColumnSpec receiver = new ColumnSpec(table.keyspace(), table.name(), c.name(), type);
        Operator op = s.op();
        if (op == Operator.IS_NOT) throw new InvalidRequestException("Unsupported restriction: " + c.name() + " IS NOT NULL");
        if (op == Operator.LIKE) {
            throw new InvalidRequestException("LIKE restriction is only supported on properly indexed columns. " + c.name() + " LIKE "
                    + Terms.describe(s.value()) + " is not valid.");
        }
        if (s.mapKey() != null) {
            if (!(type instanceof MapType map)) {
                throw new InvalidRequestException("Column " + c.name() + " cannot be used as a map");
            }
            if (op != Operator.EQ) throw new InvalidRequestException("Only EQ relations are supported on map entries");
            Value key = Terms.prepare(s.mapKey(), Terms.element(receiver, "key", map.keys()), markers, types);
            Value value = Terms.prepare(s.value(), Terms.element(receiver, "value", map.values()), markers, types);
            return new RowFilter(c, s, b -> {
                ByteBuffer k = required(key.bind(b), c, "Unsupported null map key for column " + c.name());
                ByteBuffer v = required(value.bind(b), c, "Unsupported null map value for column " + c.name());
                return row -> {
                    ByteBuffer actual = row.value(c);
                    if (actual == null) return false;
                    for (Map.Entry<ByteBuffer, ByteBuffer> e : map.unpack(actual)) {
                        if (map.keys().compare(e.getKey(), k) == 0) return map.values().compare(e.getValue(), v) == 0;
                    }
                    return false;
                };
            });
        }
        if (op == Operator.CONTAINS || op == Operator.CONTAINS_KEY) {
            CqlType element;
            if (op == Operator.CONTAINS_KEY) {
                if (!(type instanceof MapType map)) throw new InvalidRequestException("Cannot use CONTAINS KEY on non-map column " + c.name());
                element = map.keys();
            } else if (type instanceof ListType list) {
                element = list.elements();
            } else if (type instanceof SetType set) {
                element = set.elements();
            } else if (type instanceof MapType map) {
                element = map.values();
            } else {
                throw new InvalidRequestException("Cannot use CONTAINS on non-collection column " + c.name());
            }
            String role = op == Operator.CONTAINS_KEY ? "key" : "value";
            Value value = Terms.prepare(s.value(), Terms.element(receiver, role, element), markers, types);
            return new RowFilter(c, s, b -> {
                ByteBuffer wanted = required(value.bind(b), c, nullValue(c));
                return row -> {
                    ByteBuffer actual = row.value(c);
                    if (actual == null) return false;
                    for (ByteBuffer candidate : elements(type, actual, op == Operator.CONTAINS_KEY)) {
                        if (element.compare(candidate, wanted) == 0) return true;
                    }
                    return false;
                };
            });
        }
        // A non-frozen collection is restricted only through its elements (CONTAINS, CONTAINS KEY, m[k] = v), as in Cassandra.
        boolean wholeValue = op == Operator.NEQ || !type.isCollection() && (op == Operator.EQ || op == Operator.IN);
        if (type.isMultiCell() && !wholeValue) {
            throw new InvalidRequestException("Collection column '" + c.name() + "' (" + type.cqlName() + ") cannot be restricted by a '"
                    + op.symbol() + "' relation");
        }
        if (type.kind() == CqlType.Kind.DURATION && op.isSlice()) {
            throw new InvalidRequestException("Slice restrictions are not supported on duration columns");
        }
        if (op == Operator.IN) {
            Terms.InValues in = Terms.prepareIn(s.value(), receiver, nullValue(c), markers, types);
            return new RowFilter(c, s, b -> {
                List<ByteBuffer> candidates = in.bind(b);
                return row -> {
                    ByteBuffer actual = row.value(c);
                    if (actual == null) return false;
                    for (ByteBuffer candidate : candidates) if (type.compare(actual, candidate) == 0) return true;
                    return false;
                };
            });
        }
        Value value = Terms.prepare(s.value(), receiver, markers, types);
        return new RowFilter(c, s, b -> {
            ByteBuffer bound = value.bind(b);
            if (bound == null && op == Operator.NEQ) throw new InvalidRequestException("Unsupported \"!=\" relation: " + c.name() + " != NULL");
            ByteBuffer wanted = c.kind() == ColumnMetadata.Kind.CLUSTERING && op.isSlice()
                    ? Restrictions.emptyIfNull(bound)
                    : required(bound, c, nullValue(c));
            return row -> {
                ByteBuffer actual = row.value(c);
                if (actual == null) return false;
                int cmp = type.compare(actual, wanted);
                return switch (op) {
                    case EQ -> cmp == 0;
                    case NEQ -> cmp != 0;
                    case LT -> cmp < 0;
                    case LTE -> cmp <= 0;
                    case GT -> cmp > 0;
                    case GTE -> cmp >= 0;
                    default -> throw new IllegalStateException("operator " + op);
                };
            };
        });
    }

    private static List<ByteBuffer> elements(CqlType type, ByteBuffer value, boolean keys) {
        if (type instanceof ListType list) return list.unpack(value);
        if (type instanceof SetType set) return set.unpack(value);
        MapType map = (MapType) type;
        List<ByteBuffer> out = new java.util.ArrayList<>();
        for (Map.Entry<ByteBuffer, ByteBuffer> e : map.unpack(value)) out.add(keys ? e.getKey() : e.getValue());
        return out;
    }

    /** Cassandra's refusal of a null value: a clustering column's is in a condition, a filtered column's unsupported. */
    private static String nullValue(ColumnMetadata c) {
        return c.kind() == ColumnMetadata.Kind.CLUSTERING
                ? "Invalid null value in condition for column " + c.name()
                : "Unsupported null value for column " + c.name();
    }

    /** A filtered value: refused with {@code nullValue} when null, with Cassandra's unset message when unset. */
    static ByteBuffer required(ByteBuffer value, ColumnMetadata c, String nullValue) {
        if (value == null) throw new InvalidRequestException(nullValue);
        if (value == QueryOptions.UNSET) throw new InvalidRequestException("Unsupported unset value for column " + c.name());
        return value;
    }
}
