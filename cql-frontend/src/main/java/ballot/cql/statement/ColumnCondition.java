package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.parse.Condition;
import ballot.cql.parse.Operator;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.TableMetadata;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.ListType;
import ballot.cql.type.MapType;
import ballot.cql.type.SetType;
import ballot.cql.type.UserType;
import ballot.cql.type.UserTypeResolver;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One IF condition of a conditional update, on a column, a collection element ({@code m[k]}, {@code l[i]}) or a UDT
 * field ({@code u.f}), evaluated on the row as it is when the compare-and-set runs. As in Cassandra, {@code = null}
 * holds for a missing value, and an ordering comparison with a missing value does not hold.
 */
final class ColumnCondition {
    /** The bound form: evaluates against a row view (null view = the row does not exist). */
    @FunctionalInterface
    interface Bound {
        boolean holds(RowView row);
    }

    private final ColumnMetadata column;
    private final java.util.function.Function<Bindings, Bound> binder;

    private ColumnCondition(ColumnMetadata column, java.util.function.Function<Bindings, Bound> binder) {
        this.column = column;
        this.binder = binder;
    }

    ColumnMetadata column() {
        return column;
    }

    Bound bind(Bindings b) {
        return binder.apply(b);
    }

    static ColumnCondition of(TableMetadata table, Condition condition, Markers markers, UserTypeResolver types) {
        ColumnMetadata c = Restrictions.column(table, condition.column());
        if (c.isPrimaryKey()) throw new InvalidRequestException("PRIMARY KEY column '" + c.name() + "' cannot have IF conditions");
        CqlType type = c.type();
        if (type.kind() == CqlType.Kind.COUNTER) throw new InvalidRequestException("Conditions on counters are not supported");
        ColumnSpec spec = new ColumnSpec(table.keyspace(), table.name(), c.name(), type);
        Operator op = condition.op();
        if (op == Operator.CONTAINS || op == Operator.CONTAINS_KEY) return contains(c, spec, condition, markers, types);
        // What the condition compares: the column itself, one element, or one field, and the name its markers bind.
        CqlType compared;
        ElementAccess access;
        String comparedName = c.name();
        if (condition.elementKey() != null) {
            comparedName = "value(" + c.name() + ")";
            if (type instanceof MapType map) {
                compared = map.values();
                Value key = Terms.prepare(condition.elementKey(), Terms.element(spec, "key", map.keys()), markers, types);
                access = b -> {
                    ByteBuffer k = key.bind(b);
                    if (k == null || k == QueryOptions.UNSET) throw new InvalidRequestException("Invalid null value for map element access");
                    return row -> {
                        ByteBuffer whole = row == null ? null : row.value(c);
                        if (whole == null) return null;
                        for (Map.Entry<ByteBuffer, ByteBuffer> e : map.unpack(whole)) if (map.keys().compare(e.getKey(), k) == 0) return e.getValue();
                        return null;
                    };
                };
            } else if (type instanceof ListType list) {
                compared = list.elements();
                Value index = Terms.prepare(condition.elementKey(), Terms.element(spec, "idx", CqlTypes.INT), markers, types);
                access = b -> {
                    int n = validIndex(index.bind(b));
                    return row -> {
                        ByteBuffer whole = row == null ? null : row.value(c);
                        if (whole == null) return null;
                        List<ByteBuffer> elements = list.unpack(whole);
                        return n < elements.size() ? elements.get(n) : null;
                    };
                };
            } else if (type instanceof SetType) {
                throw new InvalidRequestException("Invalid element access syntax for set column " + c.name());
            } else {
                throw new InvalidRequestException("Invalid element access syntax for non-collection column " + c.name());
            }
        } else if (condition.field() != null) {
            if (!(type instanceof UserType udt)) throw new InvalidRequestException("Invalid field selection: " + c.name() + " is not a user type");
            int index = udt.fieldIndex(condition.field());
            if (index < 0) throw new InvalidRequestException("Unknown field " + condition.field() + " for column " + c.name());
            compared = udt.fieldTypes().get(index);
            comparedName = c.name() + "." + condition.field();
            access = b -> row -> {
                ByteBuffer whole = row == null ? null : row.value(c);
                if (whole == null) return null;
                List<ByteBuffer> fields = udt.unpack(whole);
                return index < fields.size() ? fields.get(index) : null;
            };
        } else {
            compared = type;
            access = b -> row -> row == null ? null : row.value(c);
        }
        ColumnSpec valueSpec = new ColumnSpec(table.keyspace(), table.name(), comparedName, compared.isMultiCell() ? compared.freeze() : compared);
        CqlType comparedType = valueSpec.type();
        if (op == Operator.IN) {
            List<Value> candidates = new ArrayList<>();
            Value marker = null;
            if (condition.value() instanceof ballot.cql.parse.Term.ListLiteral l) {
                for (ballot.cql.parse.Term t : l.elements()) candidates.add(Terms.prepare(t, valueSpec, markers, types));
            } else {
                marker = Terms.prepare(condition.value(), new ColumnSpec(table.keyspace(), table.name(), "in(" + comparedName + ")",
                        CqlTypes.list(comparedType, true)), markers, types);
            }
            Value listMarker = marker;
            return new ColumnCondition(c, b -> {
                List<ByteBuffer> values = new ArrayList<>();
                if (listMarker != null) {
                    ByteBuffer list = listMarker.bind(b);
                    if (list == null) throw new InvalidRequestException("Invalid null list in IN condition");
                    values.addAll(CqlTypes.list(comparedType, true).unpack(list));
                } else {
                    for (Value v : candidates) values.add(v.bind(b));
                }
                java.util.function.Function<RowView, ByteBuffer> compares = access.bind(b);
                return row -> {
                    ByteBuffer actual = compares.apply(row);
                    for (ByteBuffer v : values) if (equal(comparedType, actual, v == QueryOptions.UNSET ? null : v)) return true;
                    return false;
                };
            });
        }
        // As Cassandra 5.0: a collection, frozen or not, compares as its frozen value, unless it holds durations.
        if (op.isSlice() && compared.isCollection() && compared.referencesDuration()) {
            throw new InvalidRequestException("Slice conditions are not supported on collections containing durations");
        }
        Value value = Terms.prepare(condition.value(), valueSpec, markers, types);
        return new ColumnCondition(c, b -> {
            ByteBuffer wanted = value.bind(b);
            if (wanted == QueryOptions.UNSET) throw new InvalidRequestException("Invalid 'unset' value in condition");
            if (wanted == null && op.isSlice()) throw new InvalidRequestException("Invalid comparison with null for operator \"" + op.symbol() + "\"");
            if (op.isSlice() && isEmptyCollection(comparedType, wanted)) {
                throw new InvalidRequestException("Invalid comparison with an empty " + comparedType.kind().name().toLowerCase(java.util.Locale.ROOT)
                        + " for operator \"" + op.symbol() + "\"");
            }
            java.util.function.Function<RowView, ByteBuffer> compares = access.bind(b);
            return row -> {
                ByteBuffer actual = compares.apply(row);
                return switch (op) {
                    case EQ -> equal(comparedType, actual, wanted);
                    case NEQ -> !equal(comparedType, actual, wanted);
                    default -> {
                        if (actual == null) yield false;
                        int cmp = comparedType.compare(actual, wanted);
                        yield switch (op) {
                            case LT -> cmp < 0;
                            case LTE -> cmp <= 0;
                            case GT -> cmp > 0;
                            default -> cmp >= 0;
                        };
                    }
                };
            };
        });
    }

    /** {@code IF c CONTAINS v} and {@code IF m CONTAINS KEY k} (Cassandra 4.1+): false when the collection is missing. */
    private static ColumnCondition contains(ColumnMetadata c, ColumnSpec spec, Condition condition, Markers markers,
            UserTypeResolver types) {
        CqlType type = c.type();
        boolean key = condition.op() == Operator.CONTAINS_KEY;
        CqlType searched;
        java.util.function.Function<ByteBuffer, List<ByteBuffer>> members;
        if (key) {
            if (!(type instanceof MapType map)) throw new InvalidRequestException("Cannot use CONTAINS KEY on non-map column " + c.name());
            searched = map.keys();
            members = whole -> map.unpack(whole).stream().map(Map.Entry::getKey).toList();
        } else if (type instanceof MapType map) {
            searched = map.values();
            members = whole -> map.unpack(whole).stream().map(Map.Entry::getValue).toList();
        } else if (type instanceof ListType list) {
            searched = list.elements();
            members = list::unpack;
        } else if (type instanceof SetType set) {
            searched = set.elements();
            members = set::unpack;
        } else {
            throw new InvalidRequestException("Cannot use CONTAINS on non-collection column " + c.name());
        }
        Value value = Terms.prepare(condition.value(), Terms.element(spec, key ? "key" : "value", searched), markers, types);
        return new ColumnCondition(c, b -> {
            ByteBuffer wanted = value.bind(b);
            if (wanted == QueryOptions.UNSET) throw new InvalidRequestException("Invalid 'unset' value in condition");
            if (wanted == null) throw new InvalidRequestException("Invalid comparison with null for operator \"" + condition.op().symbol() + "\"");
            return row -> {
                ByteBuffer whole = row == null ? null : row.value(c);
                if (whole == null) return false;
                for (ByteBuffer member : members.apply(whole)) if (searched.compare(member, wanted) == 0) return true;
                return false;
            };
        });
    }

    /** A list index of a condition: neither null nor negative, checked when bound, before the row is read (Cassandra). */
    private static int validIndex(ByteBuffer index) {
        if (index == null || index == QueryOptions.UNSET) throw new InvalidRequestException("Invalid null value for list element access");
        int n = index.getInt(index.position());
        if (n < 0) throw new InvalidRequestException("Invalid negative list index " + n);
        return n;
    }

    /** Equality where null equals only null; an empty collection counts as null, as Cassandra stores it. */
    private static boolean equal(CqlType type, ByteBuffer a, ByteBuffer b) {
        boolean aNull = a == null || isEmptyCollection(type, a);
        boolean bNull = b == null || isEmptyCollection(type, b);
        if (aNull || bNull) return aNull && bNull;
        return type.compare(a, b) == 0;
    }

    private static boolean isEmptyCollection(CqlType type, ByteBuffer v) {
        return type.isCollection() && v.remaining() >= 4 && v.getInt(v.position()) == 0;
    }

    /** What a condition compares of a row (the column, an element or a field), once its key or index is bound. */
    @FunctionalInterface
    private interface ElementAccess {
        java.util.function.Function<RowView, ByteBuffer> bind(Bindings b);
    }
}
