package ballot.cql.statement;

import ballot.cql.data.Cell;
import ballot.cql.error.FunctionFailureException;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.parse.Selector;
import ballot.cql.parse.Term;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.schema.ColumnMetadata;
import ballot.cql.schema.TableMetadata;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.ListType;
import ballot.cql.type.MapType;
import ballot.cql.type.SetType;
import ballot.cql.type.TupleType;
import ballot.cql.type.UserType;
import ballot.cql.type.UserTypeResolver;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The SELECT clause: what each result column is computed from. Every selector makes an {@link Evaluator} per execution
 * that is fed the rows of a group and then asked for its value; for a query without aggregates each row is its own
 * group. A plain column in an aggregate query takes the value of the group's first row, as in Cassandra.
 */
final class Selection {
    /** Computes one result column over the rows fed to it since the last reset. */
    interface Evaluator {
        void add(RowView row);

        ByteBuffer get();

        void reset();
    }

    /** A prepared selector: its result type and name, and a factory of evaluators. */
    interface Prepared {
        CqlType type();

        String name();

        boolean isAggregate();

        Evaluator evaluator(Bindings b);

        /** The column this selector reads directly, or null. */
        default ColumnMetadata column() {
            return null;
        }
    }

    private final TableMetadata table;
    private final List<Prepared> selectors;
    private final List<ColumnSpec> columns;
    private final boolean aggregate;
    private final boolean wildcard;

    private Selection(TableMetadata table, List<Prepared> selectors, List<ColumnSpec> columns, boolean wildcard) {
        this.table = table;
        this.selectors = selectors;
        this.columns = columns;
        this.wildcard = wildcard;
        boolean agg = false;
        for (Prepared p : selectors) agg |= p.isAggregate();
        this.aggregate = agg;
    }

    static Selection wildcard(TableMetadata table) {
        List<Prepared> selectors = new ArrayList<>();
        List<ColumnSpec> columns = new ArrayList<>();
        for (ColumnMetadata c : table.columns()) {
            selectors.add(column(c));
            columns.add(new ColumnSpec(table.keyspace(), table.name(), c.name(), c.type()));
        }
        return new Selection(table, selectors, columns, true);
    }

    static Selection of(TableMetadata table, List<Selector.Aliased> clause, Markers markers, UserTypeResolver types) {
        List<Prepared> selectors = new ArrayList<>();
        List<ColumnSpec> columns = new ArrayList<>();
        for (Selector.Aliased aliased : clause) {
            // a literal, bind marker or null has no type of its own to select: SELECT 1 is refused
            if (aliased.selector() instanceof Selector.Value v && takesTypeFromContext(v.term())) throw cannotInfer(Terms.describe(v.term()));
            Prepared p = prepare(table, aliased.selector(), markers, types);
            selectors.add(p);
            columns.add(new ColumnSpec(table.keyspace(), table.name(), aliased.alias() != null ? aliased.alias() : p.name(), p.type()));
        }
        return new Selection(table, selectors, columns, false);
    }

    List<ColumnSpec> columns() {
        return columns;
    }

    boolean isAggregate() {
        return aggregate;
    }

    boolean isWildcard() {
        return wildcard;
    }

    /** True if only partition key and static columns are selected (what DISTINCT allows). */
    List<Evaluator> evaluators(Bindings b) {
        List<Evaluator> out = new ArrayList<>(selectors.size());
        for (Prepared p : selectors) out.add(p.evaluator(b));
        return out;
    }

    // ---------------------------------------------------------------- preparation

    private static Prepared prepare(TableMetadata table, Selector selector, Markers markers, UserTypeResolver types) {
        return prepare(table, selector, null, markers, types);
    }

    /**
     * A selector as a result column; {@code expected} is the type where it is used (an operator's parameter, a type
     * hint, a collection's element), or null at the top level: a literal, bind marker, null, {@code (x)} or collection
     * literal takes that type, which operand resolution ensures suits it, and cannot stand without it.
     */
    private static Prepared prepare(TableMetadata table, Selector selector, CqlType expected, Markers markers, UserTypeResolver types) {
        if (selector instanceof Selector.Value v && expected != null && takesTypeFromContext(v.term())) {
            return value(table, v.term(), v.term(), expected, markers, types);
        }
        if (selector instanceof Selector.Parenthesised p) return parenthesised(table, p, expected, markers, types);
        if (selector instanceof Selector.TypeHint h) return typeHint(table, h, markers, types);
        if (selector instanceof Selector.ListLiteral || selector instanceof Selector.SetLiteral || selector instanceof Selector.MapLiteral) {
            return CollectionSelectors.prepare(selector, expected, argument(table, selector, markers, types).text(),
                    (element, type) -> prepare(table, element, type, markers, types), element -> typed(table, element, markers, types));
        }
        if (selector instanceof Selector.Column c) return column(Restrictions.column(table, c.name()));
        if (selector instanceof Selector.CountRows) return countRows();
        if (selector instanceof Selector.Function f) return function(table, f, markers, types);
        if (selector instanceof Selector.Cast c) return cast(prepare(table, c.selector(), markers, types), CqlTypes.parse(c.type(), types));
        if (selector instanceof Selector.Field f) return field(prepare(table, f.selector(), markers, types), f.field());
        if (selector instanceof Selector.Element e) {
            Prepared collection = prepare(table, e.selector(), markers, types);
            if (e.isSlice()) throw sliceRefusal(collection);
            return element(table, collection, e.key(), markers, types);
        }
        if (selector instanceof Selector.Negation n) return negation(table, n, markers, types);
        if (selector instanceof Selector.Value v) return value(table, v.term(), markers, types);
        if (selector instanceof Selector.Arithmetic a) return arithmetic(table, a, markers, types);
        throw new IllegalStateException("unknown selector " + selector);
    }

    private static boolean takesTypeFromContext(Term term) {
        return term instanceof Term.Constant || term instanceof Term.BindMarker || term instanceof Term.Null;
    }

    /** The selector prepared on its own, or null if it takes its type from where it is used. */
    private static Prepared typed(TableMetadata table, Selector s, Markers markers, UserTypeResolver types) {
        if (s instanceof Selector.Value v && takesTypeFromContext(v.term())) return null;
        if (s instanceof Selector.Parenthesised p && p.elements().size() == 1) return null;
        if (s instanceof Selector.ListLiteral || s instanceof Selector.SetLiteral || s instanceof Selector.MapLiteral) return null;
        return prepare(table, s, null, markers, types);
    }

    /** What overload resolution knows of a selector: its type if it has one, else how it fits a type. */
    private static Argument argument(TableMetadata table, Selector s, Markers markers, UserTypeResolver types) {
        if (s instanceof Selector.Value v && takesTypeFromContext(v.term())) return Terms.argument(v.term(), types);
        if (s instanceof Selector.Parenthesised p && p.elements().size() == 1) {
            Argument inner = argument(table, p.elements().get(0), markers, types);
            return new Argument("(" + inner.text() + ")", null, inner::fit, inner.isMarker(), -1);
        }
        if (s instanceof Selector.Parenthesised || isCollectionLiteral(s)) {
            return CollectionSelectors.argument(s, element -> argument(table, element, markers, types));
        }
        Prepared typed = prepare(table, s, null, markers, types);
        return Argument.typed(typed.name(), typed.type());
    }

    /** {@code (x)}, which is x where a type is expected, or a tuple {@code (x, y, ...)}. */
    private static Prepared parenthesised(TableMetadata table, Selector.Parenthesised p, CqlType expected, Markers markers,
            UserTypeResolver types) {
        if (p.elements().size() > 1 || expected instanceof TupleType) {
            return CollectionSelectors.prepare(p, expected, argument(table, p, markers, types).text(),
                    (element, type) -> prepare(table, element, type, markers, types), element -> typed(table, element, markers, types));
        }
        if (expected == null) throw cannotInfer(argument(table, p, markers, types).text());
        Prepared inner = prepare(table, p.elements().get(0), expected, markers, types);
        return renamed(inner, inner.type(), "(" + inner.name() + ")");
    }

    static InvalidRequestException cannotInfer(String text) {
        return new InvalidRequestException("Cannot infer type for term " + text + " in selection clause (try using a cast to force a type)");
    }

    /** {@code (type) x}: x, which must suit the type, as a value of it. */
    private static Prepared typeHint(TableMetadata table, Selector.TypeHint h, Markers markers, UserTypeResolver types) {
        CqlType hinted = CqlTypes.parse(h.type(), types).freeze();
        Argument argument = argument(table, h.selector(), markers, types);
        if (argument.fit(hinted) == Fit.NONE) {
            String text = "(" + h.type() + ")" + argument.text();
            throw new InvalidRequestException("Cannot assign value " + text + " to " + text + " of type " + hinted.cqlName());
        }
        Prepared inner = prepare(table, h.selector(), hinted, markers, types);
        return renamed(inner, hinted, "(" + h.type() + ")" + inner.name());
    }

    private static Prepared renamed(Prepared inner, CqlType type, String name) {
        return new Prepared() {
            public CqlType type() { return type; }
            public String name() { return name; }
            public boolean isAggregate() { return inner.isAggregate(); }
            public Evaluator evaluator(Bindings b) { return inner.evaluator(b); }
        };
    }

    private static Prepared column(ColumnMetadata c) {
        return new Prepared() {
            public CqlType type() { return c.type(); }
            public String name() { return c.name(); }
            public boolean isAggregate() { return false; }
            public ColumnMetadata column() { return c; }
            public Evaluator evaluator(Bindings b) {
                return new FirstRow(row -> row.value(c));
            }
        };
    }

    /** Keeps the value of the first row fed since the last reset. */
    private static final class FirstRow implements Evaluator {
        private final java.util.function.Function<RowView, ByteBuffer> extract;
        private boolean set;
        private ByteBuffer value;

        FirstRow(java.util.function.Function<RowView, ByteBuffer> extract) {
            this.extract = extract;
        }

        public void add(RowView row) {
            if (!set) {
                value = extract.apply(row);
                set = true;
            }
        }

        public ByteBuffer get() {
            return value;
        }

        public void reset() {
            set = false;
            value = null;
        }
    }

    private static Prepared value(TableMetadata table, Term term, Markers markers, UserTypeResolver types) {
        CqlType type;
        Term inner = term;
        if (term instanceof Term.TypeHint h) {
            type = CqlTypes.parse(h.type(), types);
            inner = h.term();
        } else if (term instanceof Term.Constant c) {
            type = switch (c.kind()) {
                case STRING -> CqlTypes.TEXT;
                case INTEGER -> CqlTypes.INT;
                case FLOAT -> CqlTypes.DOUBLE;
                case BOOLEAN -> CqlTypes.BOOLEAN;
                case UUID -> CqlTypes.UUID;
                case HEX -> CqlTypes.BLOB;
                case DURATION -> CqlTypes.DURATION;
            };
        } else if (term instanceof Term.FunctionCall f && Functions.exists(f.name()) && Functions.overloads(f.name()).size() == 1) {
            type = Functions.overloads(f.name()).get(0).returnType();
        } else {
            throw new InvalidRequestException("Cannot infer type for term " + Terms.describe(term) + " in selection clause (try using a cast to force a type)");
        }
        return value(table, inner, term, type, markers, types);
    }

    /**
     * A literal or bind marker of a known type: {@code term} as written names the column, {@code inner} is bound. A
     * marker there binds {@code [selection]}, as Cassandra names it in PREPARED.
     */
    private static Prepared value(TableMetadata table, Term inner, Term term, CqlType type, Markers markers, UserTypeResolver types) {
        String receiverName = inner instanceof Term.BindMarker ? "[selection]" : Terms.describe(term);
        ColumnSpec receiver = new ColumnSpec(table.keyspace(), table.name(), receiverName, type);
        Value value = Terms.prepare(inner, receiver, markers, types);
        String name = Terms.describe(term);
        return new Prepared() {
            public CqlType type() { return type; }
            public String name() { return name; }
            public boolean isAggregate() { return false; }
            public Evaluator evaluator(Bindings b) {
                ByteBuffer bound = value.bind(b);
                return new FirstRow(row -> bound == null ? null : bound.duplicate());
            }
        };
    }

    private static Prepared countRows() {
        return new Prepared() {
            public CqlType type() { return CqlTypes.BIGINT; }
            public String name() { return "count"; }
            public boolean isAggregate() { return true; }
            public Evaluator evaluator(Bindings b) {
                return new Evaluator() {
                    long count;
                    public void add(RowView row) { count++; }
                    public ByteBuffer get() { return Functions.longValue(count); }
                    public void reset() { count = 0; }
                };
            }
        };
    }

    private static Prepared function(TableMetadata table, Selector.Function f, Markers markers, UserTypeResolver types) {
        String name = f.name();
        // writetime, ttl and maxwritetime are words of the grammar, not functions of the system keyspace
        boolean grammarWord = name.equals("writetime") || name.equals("ttl") || name.equals("maxwritetime");
        if (!Functions.nativeKeyspace(f.keyspace()) || f.keyspace() != null && grammarWord)
            throw new InvalidRequestException("Unknown function '" + Functions.shown(f.keyspace(), name) + "'");
        switch (name) {
            case "writetime", "ttl", "maxwritetime" -> {
                Selector arg = f.args().size() == 1 ? f.args().get(0) : null;
                Selector.Element element = arg instanceof Selector.Element e && e.selector() instanceof Selector.Column ? e : null;
                if (!((element != null ? element.selector() : arg) instanceof Selector.Column col)) {
                    throw new InvalidRequestException(name + "() requires exactly one column argument");
                }
                ColumnMetadata c = Restrictions.column(table, col.name());
                // a primary key column has no cells of its own: refused before what of it is selected is looked at
                if (c.isPrimaryKey()) throw new InvalidRequestException("Cannot use selection function " + name + " on PRIMARY KEY part " + c.name());
                return element != null ? writetimeOrTtlOfElement(table, c, element, name, markers, types) : writetimeOrTtl(c, name);
            }
            case "count", "min", "max", "sum", "avg" -> {
                if (f.args().size() != 1) throw new InvalidRequestException("Invalid number of arguments in call to function system." + name);
                Prepared arg = prepare(table, f.args().get(0), markers, types);
                if (arg.isAggregate()) throw new InvalidRequestException("aggregate functions cannot be used as arguments of aggregate functions");
                return aggregate(name, arg);
            }
            case "token" -> {
                List<ColumnMetadata> key = table.partitionKey();
                if (f.args().size() != key.size()) {
                    throw new InvalidRequestException("Invalid number of arguments in call to function system.token: " + key.size()
                            + " required but " + f.args().size() + " provided");
                }
                List<Prepared> args = new ArrayList<>();
                List<String> names = new ArrayList<>();
                for (int i = 0; i < key.size(); i++) {
                    Prepared arg = prepare(table, f.args().get(i), markers, types);
                    if (arg.column() == null || arg.column() != key.get(i)) {
                        throw new InvalidRequestException("Type error: the arguments of token() must be the partition key columns in order");
                    }
                    args.add(arg);
                    names.add(arg.name());
                }
                return scalar("system.token(" + String.join(", ", names) + ")", CqlTypes.BIGINT, args, Functions::token);
            }
            case "tojson", "to_json" -> {
                // Named by its 5.0 name however it was called, as Cassandra names it.
                if (f.args().size() != 1) throw new InvalidRequestException("Invalid number of arguments for function system." + name + "(any)");
                Prepared arg = prepare(table, f.args().get(0), markers, types);
                return scalar("system.to_json(" + arg.name() + ")", CqlTypes.TEXT, List.of(arg), values -> {
                    ByteBuffer value = arg.type().orNoValue(values.get(0));
                    String json = value == null ? "null" : arg.type().toJson(value);
                    return CqlTypes.TEXT.decompose(json);
                });
            }
            case "fromjson", "from_json" -> throw new InvalidRequestException(name + "() cannot be used in the selection clause of a SELECT statement");
            default -> {
                // A literal or marker argument takes the argument type of the overload resolved: abs(-1) an int,
                // min_timeuuid(0) a timestamp, blob_as_int(?) a blob.
                List<Argument> fitArgs = new ArrayList<>();
                List<Prepared> typed = new ArrayList<>();
                for (Selector a : f.args()) {
                    Prepared arg = hasOwnType(a) ? prepare(table, a, markers, types) : null;
                    fitArgs.add(arg != null ? Argument.typed(arg.name(), arg.type()) : argument(table, a, markers, types));
                    typed.add(arg);
                }
                Functions.Function fn = Functions.resolve(name, fitArgs, null);
                List<Prepared> args = new ArrayList<>();
                List<String> names = new ArrayList<>();
                for (int i = 0; i < f.args().size(); i++) {
                    Selector selector = f.args().get(i);
                    Term literal = untypedTerm(selector);
                    Prepared arg = literal != null ? value(table, literal, literal, fn.argTypes().get(i), markers, types)
                            : typed.get(i) != null ? typed.get(i) : prepare(table, selector, fn.argTypes().get(i), markers, types);
                    args.add(arg);
                    names.add(arg.name());
                }
                return scalar("system." + name + "(" + String.join(", ", names) + ")", fn.returnType(), args, fn::apply);
            }
        }
    }

    private static boolean isCollectionLiteral(Selector s) {
        return s instanceof Selector.ListLiteral || s instanceof Selector.SetLiteral || s instanceof Selector.MapLiteral;
    }

    /** True unless the selector takes its type from where it is used: a literal, marker, null or {@code (x)}. */
    private static boolean hasOwnType(Selector s) {
        return untypedTerm(s) == null && !isCollectionLiteral(s) && !(s instanceof Selector.Parenthesised);
    }

    /** The term of a selector that has no type of its own (a constant, marker, null or collection literal), or null. */
    private static Term untypedTerm(Selector selector) {
        if (!(selector instanceof Selector.Value v)) return null;
        Term t = v.term();
        return t instanceof Term.TypeHint || t instanceof Term.FunctionCall ? null : t;
    }

    private static Prepared writetimeOrTtl(ColumnMetadata c, String name) {
        if (c.type().isCollection() && c.type().isMultiCell()) return ofElements(c, name);
        if (c.type().isMultiCell()) {
            throw new InvalidRequestException("Cannot use selection function " + (name.equals("ttl") ? "ttl" : "writeTime") + " on non-frozen collection or UDT " + c.name());
        }
        boolean ttl = name.equals("ttl");
        return new Prepared() {
            public CqlType type() { return ttl ? CqlTypes.INT : CqlTypes.BIGINT; }
            public String name() { return name + "(" + c.name() + ")"; }
            public boolean isAggregate() { return false; }
            public Evaluator evaluator(Bindings b) {
                return new FirstRow(row -> {
                    Cell cell = row.cell(c);
                    if (cell == null) return null;
                    return ttl ? remainingTtl(cell, row) : Functions.longValue(cell.timestamp());
                });
            }
        };
    }

    /**
     * {@code writetime}, {@code ttl} and {@code maxwritetime} of one element of a set or map, as Cassandra 5.0 answers
     * them: those of the element's cell (of the whole value if frozen), or null if there is no such element.
     */
    private static Prepared writetimeOrTtlOfElement(TableMetadata table, ColumnMetadata c, Selector.Element e, String name,
            Markers markers, UserTypeResolver types) {
        Prepared collection = column(c);
        if (e.isSlice()) throw sliceRefusal(collection);
        ElementKey key = elementKey(table, collection, e.key(), markers, types); // refused as an element selection would be
        String elementName = elementName(collection, e.key());
        boolean ttl = name.equals("ttl");
        return new Prepared() {
            public CqlType type() { return ttl ? CqlTypes.INT : CqlTypes.BIGINT; }
            public String name() { return name + "(" + elementName + ")"; }
            public boolean isAggregate() { return false; }
            public Evaluator evaluator(Bindings b) {
                ByteBuffer wanted = key.value().bind(b);
                return new FirstRow(row -> {
                    Cell cell = wanted == null ? null : elementCell(row, c, key.type(), wanted);
                    if (cell == null) return null;
                    return ttl ? remainingTtl(cell, row) : Functions.longValue(cell.timestamp());
                });
            }
        };
    }

    /** The cell holding element {@code wanted} of collection {@code c}: its own, or the whole frozen value's. */
    private static Cell elementCell(RowView row, ColumnMetadata c, CqlType keys, ByteBuffer wanted) {
        if (c.type().isMultiCell()) {
            for (Cell cell : row.cells(c)) if (keys.compare(cell.path(), wanted) == 0) return cell;
            return null;
        }
        Cell whole = row.cell(c);
        if (whole == null || whole.value() == null) return null;
        List<ByteBuffer> elements = c.type() instanceof MapType map ? map.unpack(whole.value()).stream().map(Map.Entry::getKey).toList()
                : ((SetType) c.type()).unpack(whole.value());
        for (ByteBuffer element : elements) if (keys.compare(element, wanted) == 0) return whole;
        return null;
    }

    /**
     * {@code writetime}, {@code ttl} and {@code maxwritetime} of a non-frozen collection, as Cassandra 5.0 answers
     * them: a list of each live element's timestamp or remaining TTL (a null element where it has none), in the
     * collection's order, or the newest timestamp; null when the collection has no live element. Storage keeps
     * element cells in their paths' byte order, a list's order but not a set's or a map's: those are sorted by key.
     */
    private static Prepared ofElements(ColumnMetadata c, String name) {
        boolean max = name.equals("maxwritetime");
        boolean ttl = name.equals("ttl");
        ListType list = CqlTypes.list(ttl ? CqlTypes.INT : CqlTypes.BIGINT, false);
        CqlType type = max ? CqlTypes.BIGINT : list;
        CqlType keys = max ? null : elementKeys(c.type());
        return new Prepared() {
            public CqlType type() { return type; }
            public String name() { return name + "(" + c.name() + ")"; }
            public boolean isAggregate() { return false; }
            public Evaluator evaluator(Bindings b) {
                return new FirstRow(row -> {
                    List<Cell> cells = row.cells(c);
                    if (cells.isEmpty()) return null;
                    if (keys != null) cells.sort((x, y) -> keys.compare(x.path(), y.path()));
                    if (max) {
                        long newest = Long.MIN_VALUE;
                        for (Cell cell : cells) newest = Math.max(newest, cell.timestamp());
                        return Functions.longValue(newest);
                    }
                    List<ByteBuffer> elements = new ArrayList<>(cells.size());
                    for (Cell cell : cells) elements.add(ttl ? remainingTtl(cell, row) : Functions.longValue(cell.timestamp()));
                    return list.packWithNulls(elements);
                });
            }
        };
    }

    /** The seconds a live cell has left before it expires, or null if it does not expire. */
    private static ByteBuffer remainingTtl(Cell cell, RowView row) {
        if (!cell.isExpiring()) return null;
        return ByteBuffer.allocate(4).putInt(0, Math.max(0, cell.localDeletionTime() - row.nowInSec()));
    }

    interface ScalarBody {
        ByteBuffer apply(List<ByteBuffer> args);
    }

    static Prepared scalar(String name, CqlType type, List<Prepared> args, ScalarBody body) {
        boolean agg = false;
        for (Prepared a : args) agg |= a.isAggregate();
        boolean aggregate = agg;
        return new Prepared() {
            public CqlType type() { return type; }
            public String name() { return name; }
            public boolean isAggregate() { return aggregate; }
            public Evaluator evaluator(Bindings b) {
                List<Evaluator> children = new ArrayList<>();
                for (Prepared a : args) children.add(a.evaluator(b));
                return new Evaluator() {
                    public void add(RowView row) { for (Evaluator e : children) e.add(row); }
                    public ByteBuffer get() {
                        List<ByteBuffer> values = new ArrayList<>(children.size());
                        for (Evaluator e : children) values.add(e.get());
                        return body.apply(values);
                    }
                    public void reset() { for (Evaluator e : children) e.reset(); }
                };
            }
        };
    }

    private static Prepared aggregate(String name, Prepared arg) {
        CqlType argType = arg.type();
        String display = "system." + name + "(" + arg.name() + ")";
        if (name.equals("count")) {
            return new Prepared() {
                public CqlType type() { return CqlTypes.BIGINT; }
                public String name() { return display; }
                public boolean isAggregate() { return true; }
                public Evaluator evaluator(Bindings b) {
                    Evaluator child = arg.evaluator(b);
                    return new Evaluator() {
                        long count;
                        public void add(RowView row) {
                            child.reset();
                            child.add(row);
                            if (child.get() != null) count++;
                        }
                        public ByteBuffer get() { return Functions.longValue(count); }
                        public void reset() { count = 0; }
                    };
                }
            };
        }
        if (name.equals("min") || name.equals("max")) {
            boolean max = name.equals("max");
            return new Prepared() {
                public CqlType type() { return argType; }
                public String name() { return display; }
                public boolean isAggregate() { return true; }
                public Evaluator evaluator(Bindings b) {
                    Evaluator child = arg.evaluator(b);
                    return new Evaluator() {
                        ByteBuffer best;
                        public void add(RowView row) {
                            child.reset();
                            child.add(row);
                            ByteBuffer v = child.get();
                            if (v == null) return;
                            if (best == null || (max ? argType.compare(v, best) > 0 : argType.compare(v, best) < 0)) best = v;
                        }
                        public ByteBuffer get() { return best; }
                        public void reset() { best = null; }
                    };
                }
            };
        }
        if (!isNumeric(argType)) {
            throw new InvalidRequestException("Invalid call to function " + name + ", none of its type signatures match (argument of type " + argType.cqlName() + ")");
        }
        boolean avg = name.equals("avg");
        CqlType resultType = NumericSum.resultType(argType);
        return new Prepared() {
            public CqlType type() { return resultType; }
            public String name() { return display; }
            public boolean isAggregate() { return true; }
            public Evaluator evaluator(Bindings b) {
                Evaluator child = arg.evaluator(b);
                NumericSum sum = new NumericSum(argType, avg);
                return new Evaluator() {
                    public void add(RowView row) {
                        child.reset();
                        child.add(row);
                        sum.add(child.get());
                    }
                    public ByteBuffer get() { return sum.result(); }
                    public void reset() { sum.reset(); }
                };
            }
        };
    }

    private static boolean isNumeric(CqlType type) {
        return Arithmetic.isNumeric(type);
    }

    /** A cast of a value to its own type is the value itself, named as it is, as in Cassandra. */
    private static Prepared cast(Prepared arg, CqlType target) {
        CqlType source = arg.type();
        if (Functions.sameType(source, target)) return arg;
        String name = "cast(" + arg.name() + " as " + target.cqlName() + ")";
        ScalarBody body = castBody(source, target);
        return scalar(name, target, List.of(arg), values -> source.orNoValue(values.get(0)) == null ? null : body.apply(values));
    }

    private static ScalarBody castBody(CqlType source, CqlType target) {
        CqlType.Kind to = target.kind();
        CqlType.Kind from = source.kind();
        if ((to == CqlType.Kind.TEXT || to == CqlType.Kind.ASCII) && castsToText(source)) {
            return v -> target.decompose(source.asString(v.get(0)));
        }
        if (isNumeric(source) && isNumeric(target) && to != CqlType.Kind.COUNTER) {
            return v -> {
                try {
                    return target.decompose(castNumber((Number) source.compose(v.get(0)), from, to));
                } catch (NumberFormatException e) { // NaN or an infinity to decimal
                    throw new FunctionFailureException("system", "castas" + target.cqlName(), List.of(source.cqlName()),
                            "execution of 'system.castas" + target.cqlName() + "[" + source.cqlName() + "]' failed: " + e);
                }
            };
        }
        if (from == CqlType.Kind.TIMEUUID && to == CqlType.Kind.TIMESTAMP) return Functions.resolve("totimestamp", List.of(source))::apply;
        if (from == CqlType.Kind.TIMEUUID && to == CqlType.Kind.DATE) return Functions.resolve("todate", List.of(source))::apply;
        if (from == CqlType.Kind.TIMESTAMP && to == CqlType.Kind.DATE) return Functions.resolve("todate", List.of(source))::apply;
        if (from == CqlType.Kind.DATE && to == CqlType.Kind.TIMESTAMP) return Functions.resolve("totimestamp", List.of(source))::apply;
        // Cassandra's casts also take the types whose bytes are a timestamp's (bigint) or a date's (int) as those:
        // a timestamp to bigint is its milliseconds, to varint likewise; a bigint to date is that of the timestamp
        // of those milliseconds, an int to timestamp that of the date of that serialized day number.
        if (from == CqlType.Kind.TIMESTAMP && to == CqlType.Kind.BIGINT) return v -> v.get(0).duplicate();
        if (from == CqlType.Kind.TIMESTAMP && to == CqlType.Kind.VARINT)
            return v -> target.decompose(BigInteger.valueOf(v.get(0).getLong(v.get(0).position())));
        if (from == CqlType.Kind.BIGINT && to == CqlType.Kind.DATE)
            return Functions.resolve("todate", List.of(CqlTypes.TIMESTAMP))::apply;
        if (from == CqlType.Kind.INT && to == CqlType.Kind.TIMESTAMP)
            return Functions.resolve("totimestamp", List.of(CqlTypes.DATE))::apply;
        throw new InvalidRequestException("Cannot cast value of type " + source.cqlName() + " to type " + target.cqlName());
    }

    /** The types Cassandra's CastFcts casts to text and ascii: numbers and a few scalars; no blob, duration or collection. */
    private static boolean castsToText(CqlType source) {
        return isNumeric(source) || switch (source.kind()) {
            case ASCII, BOOLEAN, INET, DATE, TIME, TIMESTAMP, TIMEUUID, UUID -> true;
            default -> false;
        };
    }

    /**
     * Cassandra's numeric casts (CastFcts): Java's primitive conversions (Number.intValue() and so on: wrapping, or
     * saturating from floating point, NaN to 0), a varint through the long value (BigInteger.valueOf), and a decimal
     * from a float's shortest decimal string, a double's (BigDecimal.valueOf), a varint exactly, or else the long value.
     */
    private static Object castNumber(Number n, CqlType.Kind from, CqlType.Kind to) {
        return switch (to) {
            case TINYINT -> n.byteValue();
            case SMALLINT -> n.shortValue();
            case INT -> n.intValue();
            case BIGINT -> n.longValue();
            case FLOAT -> n.floatValue();
            case DOUBLE -> n.doubleValue();
            case DECIMAL -> switch (from) {
                case FLOAT -> new BigDecimal(Float.toString(n.floatValue()));
                case DOUBLE -> BigDecimal.valueOf(n.doubleValue());
                case VARINT -> new BigDecimal((BigInteger) n);
                default -> BigDecimal.valueOf(n.longValue());
            };
            case VARINT -> BigInteger.valueOf(n.longValue());
            default -> throw new IllegalArgumentException(to + " is not a cast's numeric type");
        };
    }

    private static Prepared field(Prepared arg, String field) {
        if (!(arg.type() instanceof UserType udt)) {
            throw new InvalidRequestException("Invalid field selection: " + arg.name() + " of type " + arg.type().cqlName() + " is not a user type");
        }
        int index = udt.fieldIndex(field);
        if (index < 0) throw new InvalidRequestException(udt.name() + " has no field " + field);
        return scalar(arg.name() + "." + field, udt.fieldTypes().get(index), List.of(arg), values -> {
            if (values.get(0) == null) return null;
            List<ByteBuffer> fields = udt.unpack(values.get(0));
            return index < fields.size() ? fields.get(index) : null;
        });
    }

    /** Slices of a set or map are not implemented; of anything else, Cassandra refuses them too. */
    private static InvalidRequestException sliceRefusal(Prepared arg) {
        if (arg.type() instanceof ListType)
            return new InvalidRequestException("Slice selection is only allowed on sets and maps, but " + arg.name() + " is a list");
        if (!arg.type().isCollection())
            return new InvalidRequestException("Invalid slice selection: " + arg.name() + " of type " + arg.type().cqlName() + " is not a collection");
        return new InvalidRequestException("Ballot does not support collection slices in selections");
    }

    /** An element of a set or map, by value or key; a list's elements cannot be selected, as in Cassandra. */
    private static Prepared element(TableMetadata table, Prepared arg, Term key, Markers markers, UserTypeResolver types) {
        ElementKey k = elementKey(table, arg, key, markers, types);
        CqlType type = arg.type() instanceof MapType map ? map.values() : k.type();
        String name = elementName(arg, key);
        return new Prepared() {
            public CqlType type() { return type; }
            public String name() { return name; }
            public boolean isAggregate() { return arg.isAggregate(); }
            public Evaluator evaluator(Bindings b) {
                ByteBuffer wanted = k.value().bind(b);
                return scalar(name, type, List.of(arg), values ->
                        values.get(0) == null || wanted == null ? null : elementOf(arg.type(), values.get(0), wanted)).evaluator(b);
            }
        };
    }

    /** Cassandra's "%s[%s]" of the selector and the key as written. */
    private static String elementName(Prepared arg, Term key) {
        return arg.name() + "[" + Terms.describe(key) + "]";
    }

    /** What selects an element of a set or map: the type of its keys (a set's elements) and the key, prepared. */
    private record ElementKey(CqlType type, Value value) {}

    /** The key of an element of {@code arg}, refused where element selection is: on a list or what is no collection. */
    private static ElementKey elementKey(TableMetadata table, Prepared arg, Term key, Markers markers, UserTypeResolver types) {
        CqlType type = arg.type();
        if (type instanceof ListType)
            throw new InvalidRequestException("Element selection is only allowed on sets and maps, but " + arg.name() + " is a list");
        ColumnSpec spec = new ColumnSpec(table.keyspace(), table.name(), arg.name(), type);
        CqlType keys = elementKeys(type);
        if (keys == null)
            throw new InvalidRequestException("Invalid element selection: " + arg.name() + " is of type " + type.cqlName() + " is not a collection");
        String role = type instanceof MapType ? "key" : "value";
        return new ElementKey(keys, Terms.prepare(key, Terms.element(spec, role, keys), markers, types));
    }

    /** The type of what selects an element of a set or map (its elements, its keys), or null if it is neither. */
    private static CqlType elementKeys(CqlType type) {
        return type instanceof MapType map ? map.keys() : type instanceof SetType set ? set.elements() : null;
    }

    /** The value of a map's key {@code wanted}, or a set's element equal to it; null if it has none. */
    private static ByteBuffer elementOf(CqlType type, ByteBuffer collection, ByteBuffer wanted) {
        if (type instanceof MapType map) {
            for (Map.Entry<ByteBuffer, ByteBuffer> e : map.unpack(collection)) if (map.keys().compare(e.getKey(), wanted) == 0) return e.getValue();
            return null;
        }
        SetType set = (SetType) type;
        for (ByteBuffer e : set.unpack(collection)) if (set.elements().compare(e, wanted) == 0) return e;
        return null;
    }

    private static Prepared negation(TableMetadata table, Selector.Negation n, Markers markers, UserTypeResolver types) {
        CqlType type = Operators.resolveNegation(argument(table, n.selector(), markers, types), null);
        Prepared arg = prepare(table, n.selector(), type, markers, types);
        return scalar("-" + arg.name(), type, List.of(arg), values -> type.orNoValue(values.get(0)) == null ? null
                : Arithmetic.negate(type, values.get(0)));
    }

    private static Prepared arithmetic(TableMetadata table, Selector.Arithmetic a, Markers markers, UserTypeResolver types) {
        Operators.Signature signature = Operators.resolve(a.op(), argument(table, a.left(), markers, types),
                argument(table, a.right(), markers, types), null);
        Prepared left = prepare(table, a.left(), signature.left(), markers, types);
        Prepared right = prepare(table, a.right(), signature.right(), markers, types);
        return scalar(left.name() + " " + a.op() + " " + right.name(), signature.result(), List.of(left, right),
                values -> Operators.apply(signature, values.get(0), values.get(1)));
    }

}
