package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.parse.Term;
import ballot.cql.protocol.message.ColumnSpec;
import ballot.cql.protocol.message.QueryOptions;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.ListType;
import ballot.cql.type.MapType;
import ballot.cql.type.SetType;
import ballot.cql.type.TupleType;
import ballot.cql.type.UserType;
import ballot.cql.type.UserTypeResolver;
import ballot.cql.type.VectorType;
import java.nio.ByteBuffer;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Binds parsed terms to a receiver (the column, element or option they are assigned to), as Cassandra does: a constant
 * must suit the receiver's type, a bind marker takes the receiver's type, collection literals bind their elements to
 * the element type.
 */
final class Terms {
    private Terms() {}

    static Value prepare(Term term, ColumnSpec receiver, Markers markers, UserTypeResolver types) {
        CqlType type = receiver.type();
        if (term instanceof Term.Constant c) {
            return Value.constant(type.fromConstant(c.kind(), c.text(), receiver.name()));
        }
        if (term instanceof Term.Null) return Value.constant(null);
        if (term instanceof Term.BindMarker m) {
            markers.bind(m.index(), m.name(), receiver);
            int index = m.index();
            // Client-sent sets and maps may be unsorted or hold duplicates.
            return b -> {
                ByteBuffer value = b.get(index);
                if (value == null || value == QueryOptions.UNSET) return value;
                type.validate(value);
                return type.normalized(value);
            };
        }
        if (term instanceof Term.ListLiteral l) return listLiteral(l, receiver, markers, types);
        if (term instanceof Term.SetLiteral s) return setLiteral(s.elements(), receiver, markers, types);
        if (term instanceof Term.MapLiteral m) return mapLiteral(m, receiver, markers, types);
        if (term instanceof Term.UdtLiteral u) return udtLiteral(u, receiver, markers, types);
        if (term instanceof Term.TupleLiteral t) return tupleLiteral(t.elements(), receiver, markers, types);
        if (term instanceof Term.FunctionCall f) return functionCall(f, receiver, markers, types);
        if (term instanceof Term.TypeHint h) {
            CqlType hinted = CqlTypes.parse(h.type(), types);
            if (!Functions.sameType(hinted, type) && !hinted.cqlName().equals(type.freeze().cqlName())) {
                throw new InvalidRequestException("Cannot assign value of type " + hinted.cqlName() + " to " + receiver.name()
                        + " of type " + type.cqlName());
            }
            return prepare(h.term(), receiver, markers, types);
        }
        if (term instanceof Term.Arithmetic a) return arithmetic(a, receiver, markers, types);
        if (term instanceof Term.Negation n) return negation(n, receiver, markers, types);
        throw new IllegalStateException("unknown term " + term);
    }

    /**
     * The candidates of an IN: a parenthesised list (each bound to the receiver) or one marker bound to list<type>; a
     * null candidate is refused with {@code nullCandidate}.
     */
    static InValues prepareIn(Term term, ColumnSpec receiver, String nullCandidate, Markers markers, UserTypeResolver types) {
        if (term instanceof Term.BindMarker m) {
            ListType listType = CqlTypes.list(receiver.type().freeze(), true);
            markers.bind(m.index(), m.name(), new ColumnSpec(receiver.keyspace(), receiver.table(), "in(" + receiver.name() + ")", listType));
            int index = m.index();
            return b -> {
                ByteBuffer value = b.get(index);
                if (value == null) throw new InvalidRequestException("Invalid null value for column " + receiver.name());
                if (value == QueryOptions.UNSET) throw new InvalidRequestException("Invalid unset value for column " + receiver.name());
                listType.validate(value);
                return listType.unpack(listType.normalized(value));
            };
        }
        List<Value> values = new ArrayList<>();
        for (Term t : ((Term.ListLiteral) term).elements()) values.add(prepare(t, receiver, markers, types));
        return b -> {
            List<ByteBuffer> out = new ArrayList<>(values.size());
            for (Value v : values) {
                ByteBuffer value = v.bind(b);
                if (value == null) throw new InvalidRequestException(nullCandidate);
                if (value == QueryOptions.UNSET) throw new InvalidRequestException("Invalid unset value in IN restriction on " + receiver.name());
                out.add(value);
            }
            return out;
        };
    }

    /** The bound candidate values of an IN. */
    @FunctionalInterface
    interface InValues {
        List<ByteBuffer> bind(Bindings bindings);
    }

    static ColumnSpec element(ColumnSpec receiver, String role, CqlType type) {
        return new ColumnSpec(receiver.keyspace(), receiver.table(), role + "(" + receiver.name() + ")", type);
    }

    private static Value listLiteral(Term.ListLiteral literal, ColumnSpec receiver, Markers markers, UserTypeResolver types) {
        CqlType type = receiver.type();
        if (type instanceof VectorType vector) {
            if (literal.elements().size() != vector.dimension()) {
                throw new InvalidRequestException("Invalid vector literal for " + receiver.name() + " of type " + type.cqlName()
                        + "; expected " + vector.dimension() + " elements, but given " + literal.elements().size());
            }
            checkElements("vector", receiver, "value", literal.elements(), vector.elements(), types);
            List<Value> elements = elements(literal.elements(), element(receiver, "value", vector.elements()), markers, types);
            return b -> vector.pack(bindAll(elements, b, receiver));
        }
        if (!(type instanceof ListType list)) {
            if (type instanceof SetType && literal.elements().isEmpty()) return setLiteral(List.of(), receiver, markers, types);
            throw new InvalidRequestException("Unexpected receiver type '" + type.cqlName() + "'; only list and vector are expected");
        }
        checkElements("list", receiver, "value", literal.elements(), list.elements(), types);
        List<Value> elements = elements(literal.elements(), element(receiver, "value", list.elements()), markers, types);
        return b -> list.pack(bindAll(elements, b, receiver));
    }

    private static Value setLiteral(List<Term> terms, ColumnSpec receiver, Markers markers, UserTypeResolver types) {
        CqlType type = receiver.type();
        if (type instanceof MapType map && terms.isEmpty()) return b -> map.pack(List.of());
        if (!(type instanceof SetType set)) throw invalidLiteral("set", receiver);
        checkElements("set", receiver, "value", terms, set.elements(), types);
        List<Value> elements = elements(terms, element(receiver, "value", set.elements()), markers, types);
        return b -> set.pack(bindAll(elements, b, receiver));
    }

    private static Value mapLiteral(Term.MapLiteral literal, ColumnSpec receiver, Markers markers, UserTypeResolver types) {
        CqlType type = receiver.type();
        // {} is an empty set to Cassandra where no map is expected
        if (literal.keys().isEmpty() && !(type instanceof MapType)) return setLiteral(List.of(), receiver, markers, types);
        if (!(type instanceof MapType map)) throw invalidLiteral("map", receiver);
        for (int i = 0; i < literal.keys().size(); i++) {
            requireFit(literal.keys().get(i), map.keys(), "map", receiver, "key " + describe(literal.keys().get(i)), types);
            requireFit(literal.values().get(i), map.values(), "map", receiver, "value " + describe(literal.values().get(i)), types);
        }
        List<Value> keys = elements(literal.keys(), element(receiver, "key", map.keys()), markers, types);
        List<Value> values = elements(literal.values(), element(receiver, "value", map.values()), markers, types);
        return b -> {
            List<ByteBuffer> k = bindAll(keys, b, receiver);
            List<ByteBuffer> v = bindAll(values, b, receiver);
            List<Map.Entry<ByteBuffer, ByteBuffer>> entries = new ArrayList<>(k.size());
            for (int i = 0; i < k.size(); i++) entries.add(new AbstractMap.SimpleImmutableEntry<>(k.get(i), v.get(i)));
            return map.pack(entries);
        };
    }

    private static Value udtLiteral(Term.UdtLiteral literal, ColumnSpec receiver, Markers markers, UserTypeResolver types) {
        if (!(receiver.type() instanceof UserType udt)) throw invalidLiteral("user type", receiver);
        Map<String, Value> fields = new HashMap<>();
        for (int i = 0; i < literal.fields().size(); i++) {
            String field = literal.fields().get(i);
            int index = udt.fieldIndex(field);
            if (index < 0) {
                throw new InvalidRequestException("Unknown field '" + field + "' in value of user defined type " + udt.name());
            }
            requireFit(literal.values().get(i), udt.fieldTypes().get(index), "user type", receiver, "field " + field, types);
            ColumnSpec fieldReceiver = new ColumnSpec(receiver.keyspace(), receiver.table(), receiver.name() + "." + field,
                    udt.fieldTypes().get(index));
            if (fields.put(field, prepare(literal.values().get(i), fieldReceiver, markers, types)) != null) {
                throw new InvalidRequestException("Duplicate field '" + field + "' in value of user defined type " + udt.name());
            }
        }
        return b -> {
            Map<String, ByteBuffer> bound = new HashMap<>();
            for (Map.Entry<String, Value> e : fields.entrySet()) {
                ByteBuffer v = e.getValue().bind(b);
                if (v == QueryOptions.UNSET) v = null;
                bound.put(e.getKey(), v);
            }
            return udt.pack(bound);
        };
    }

    private static Value tupleLiteral(List<Term> terms, ColumnSpec receiver, Markers markers, UserTypeResolver types) {
        // (x) is x in parentheses unless a tuple is expected
        if (terms.size() == 1 && !(receiver.type() instanceof TupleType)) return prepare(terms.get(0), receiver, markers, types);
        if (!(receiver.type() instanceof TupleType tuple)) throw invalidLiteral("tuple", receiver);
        if (terms.size() > tuple.size()) {
            throw new InvalidRequestException("Invalid tuple literal for " + receiver.name() + ": too many elements. Type "
                    + tuple.cqlName() + " expects " + tuple.size() + " but got " + terms.size());
        }
        List<ColumnSpec> componentReceivers = new ArrayList<>();
        for (int i = 0; i < terms.size(); i++) {
            requireFit(terms.get(i), tuple.fieldTypes().get(i), "tuple", receiver, "component " + i, types);
            componentReceivers.add(new ColumnSpec(receiver.keyspace(), receiver.table(), receiver.name() + "[" + i + "]",
                    tuple.fieldTypes().get(i)));
        }
        return tuple(terms, componentReceivers, tuple, markers, types);
    }

    /**
     * A tuple of {@code terms}, each bound to its own receiver: a tuple column's component {@code t[0]}, or in a
     * multi-column relation {@code (c, d) > (?, ?)} the column itself.
     */
    static Value tuple(List<Term> terms, List<ColumnSpec> receivers, TupleType tuple, Markers markers, UserTypeResolver types) {
        List<Value> components = new ArrayList<>();
        for (int i = 0; i < terms.size(); i++) components.add(prepare(terms.get(i), receivers.get(i), markers, types));
        return b -> {
            List<ByteBuffer> bound = new ArrayList<>(components.size());
            for (Value v : components) {
                ByteBuffer value = v.bind(b);
                bound.add(value == QueryOptions.UNSET ? null : value);
            }
            return tuple.pack(bound);
        };
    }

    private static Value functionCall(Term.FunctionCall call, ColumnSpec receiver, Markers markers, UserTypeResolver types) {
        String name = call.name();
        if (!Functions.nativeKeyspace(call.keyspace()) || !isFromJson(name) && !Functions.exists(name))
            throw new InvalidRequestException("Unknown function " + Functions.shown(call.keyspace(), name) + " called");
        if (isFromJson(name)) {
            if (call.args().size() != 1) throw new InvalidRequestException("fromJson() takes exactly 1 argument");
            Value json = prepare(call.args().get(0), argument(receiver, 0, "system.fromjson", CqlTypes.TEXT), markers, types);
            CqlType type = receiver.type();
            return b -> {
                ByteBuffer text = json.bind(b);
                if (text == null) return null;
                return JsonText.fromJson(CqlTypes.TEXT.compose(text).toString(), type);
            };
        }
        Functions.Function function = Functions.resolve(name, arguments(call.args(), types), receiver.type());
        String qualified = Functions.qualified(name);
        // a function's collection is frozen, and so cannot be a non-frozen column's value
        if (Fit.of(function.returnType(), receiver.type()) == Fit.NONE
                || receiver.type().isMultiCell() && !function.returnType().isMultiCell()) {
            throw new InvalidRequestException("Type error: cannot assign result of function " + qualified + " (type "
                    + function.returnType().cqlName() + ") to " + receiver.name() + " (type " + receiver.type().cqlName() + ")");
        }
        List<Value> args = new ArrayList<>();
        for (int i = 0; i < call.args().size(); i++) {
            args.add(prepare(call.args().get(i), argument(receiver, i, qualified, function.argTypes().get(i)), markers, types));
        }
        return b -> {
            List<ByteBuffer> bound = new ArrayList<>(args.size());
            for (Value v : args) {
                ByteBuffer value = v.bind(b);
                bound.add(value == QueryOptions.UNSET ? null : value);
            }
            return function.apply(bound);
        };
    }

    /**
     * A term as an argument of a function or an operator, suiting parameter types as Cassandra's terms do: a constant
     * exactly its preferred type ({@link Fit#preferredType}) and weakly any type it may be assigned to; a bind marker
     * weakly any type, null any but counter; a type hint exactly its type; parentheses around one term as that term;
     * a call or an operation as the type it resolves to for that parameter (weakly any type if it resolves to none,
     * so that preparing it tells what is wrong, and weakly any type a factory's function suits); a collection, tuple
     * or user type literal weakly the types of its shape.
     */
    static Argument argument(Term term, UserTypeResolver types) {
        String text = describe(term);
        if (term instanceof Term.Constant c) {
            CqlType preferred = Fit.preferredType(c.kind(), c.text());
            return new Argument(text, preferred, p -> Fit.ofConstant(c.kind(), preferred, p), false, -1);
        }
        if (term instanceof Term.BindMarker) return new Argument(text, null, p -> Fit.WEAK, true, -1);
        if (term instanceof Term.Null) return Argument.untyped(text, p -> p.kind() == CqlType.Kind.COUNTER ? Fit.NONE : Fit.WEAK);
        if (term instanceof Term.TypeHint h) return Argument.typed(text, CqlTypes.parse(h.type(), types));
        if (term instanceof Term.TupleLiteral t && t.elements().size() == 1) {
            Argument inner = argument(t.elements().get(0), types);
            return Argument.untyped(text, p -> p instanceof TupleType ? Fit.WEAK : inner.fit(p));
        }
        if (term instanceof Term.FunctionCall f && !isFromJson(f.name())) {
            List<Argument> args = arguments(f.args(), types);
            boolean factory = Functions.isFactory(f.name());
            return resolved(text, p -> Functions.resolve(f.name(), args, p).returnType(), factory);
        }
        if (term instanceof Term.Arithmetic a) {
            Argument left = argument(a.left(), types);
            Argument right = argument(a.right(), types);
            return resolved(text, p -> Operators.resolve(a.op(), left, right, p).result(), false);
        }
        if (term instanceof Term.Negation n) {
            Argument operand = argument(n.term(), types);
            return resolved(text, p -> Operators.resolveNegation(operand, p), false);
        }
        return new Argument(text, literalType(term, types), p -> literalFits(term, p, types) ? Fit.WEAK : Fit.NONE, false,
                term instanceof Term.ListLiteral l ? l.elements().size() : -1);
    }

    static List<Argument> arguments(List<Term> terms, UserTypeResolver types) {
        List<Argument> out = new ArrayList<>(terms.size());
        for (Term t : terms) out.add(argument(t, types));
        return out;
    }

    /**
     * A call or an operation (Cassandra's operators are functions too), whose type is what {@code resolve} gives for
     * a receiver type: it fits as that type, a factory's function weakly any, and weakly any if it resolves to
     * nothing for it, so that preparing it tells what is wrong. Its type of its own is what it resolves to without a
     * receiver, if anything.
     */
    private static Argument resolved(String text, java.util.function.Function<CqlType, CqlType> resolve, boolean factory) {
        // Each parameter type is resolved once: resolving an operation fits its operands to every signature, and
        // without this an operand nested n deep was resolved anew for each, a preparation time exponential in n.
        Map<CqlType, Fit> fits = new HashMap<>();
        return new Argument(text, resolvedOrNull(resolve, null), p -> {
            Fit known = fits.get(p);
            if (known != null) return known;
            CqlType type = resolvedOrNull(resolve, p);
            Fit fit = type == null || factory ? Fit.WEAK : Fit.of(type, p);
            fits.put(p, fit);
            return fit;
        }, false, -1);
    }

    private static CqlType resolvedOrNull(java.util.function.Function<CqlType, CqlType> resolve, CqlType receiver) {
        try {
            return resolve.apply(receiver);
        } catch (InvalidRequestException e) {
            return null;
        }
    }

    /**
     * The type a function factory infers for a literal (Cassandra's compatible type): a set's or a map's whose
     * elements (keys, values) give one type, a constant its preferred one; a tuple's whose elements all have an
     * exact type (a type hint's); never a list's (it may be a vector's value) or a user type's.
     */
    private static CqlType literalType(Term term, UserTypeResolver types) {
        if (term instanceof Term.SetLiteral set) {
            CqlType element = commonType(set.elements(), types);
            return element == null ? null : CqlTypes.set(element, true);
        }
        if (term instanceof Term.MapLiteral m) {
            CqlType keys = commonType(m.keys(), types);
            CqlType values = commonType(m.values(), types);
            return keys == null || values == null ? null : CqlTypes.map(keys, values, true);
        }
        if (term instanceof Term.TupleLiteral t) return exactTupleType(t, types);
        return null;
    }

    /** The one type {@code terms} give as arguments (a marker or null gives none), or null (none, or two). */
    private static CqlType commonType(List<Term> terms, UserTypeResolver types) {
        CqlType common = null;
        for (Term t : terms) {
            CqlType type = argument(t, types).type();
            if (type == null) continue;
            if (common != null && !Functions.sameType(type, common)) return null;
            common = type;
        }
        return common;
    }

    private static CqlType exactTupleType(Term.TupleLiteral tuple, UserTypeResolver types) {
        List<CqlType> components = new ArrayList<>();
        for (Term e : tuple.elements()) {
            CqlType type = e instanceof Term.TypeHint h ? CqlTypes.parse(h.type(), types)
                    : e instanceof Term.TupleLiteral t && t.elements().size() > 1 ? exactTupleType(t, types) : null;
            if (type == null) return null;
            components.add(type);
        }
        return CqlTypes.tuple(components);
    }

    /**
     * Whether a collection, tuple or user type literal may be assigned to {@code type} (Cassandra's testAssignment of
     * literals): a type of its shape whose elements, keys, values, components or fields its own each fit.
     */
    private static boolean literalFits(Term term, CqlType type, UserTypeResolver types) {
        if (term instanceof Term.ListLiteral l) {
            if (type instanceof ListType list) return allFit(l.elements(), list.elements(), types);
            if (type instanceof VectorType vector) return allFit(l.elements(), vector.elements(), types);
            return type instanceof SetType && l.elements().isEmpty();
        }
        if (term instanceof Term.SetLiteral set) return type instanceof SetType st && allFit(set.elements(), st.elements(), types);
        if (term instanceof Term.MapLiteral m) {
            if (m.keys().isEmpty()) return type instanceof MapType || type instanceof SetType;
            return type instanceof MapType map && allFit(m.keys(), map.keys(), types) && allFit(m.values(), map.values(), types);
        }
        if (term instanceof Term.TupleLiteral t) {
            if (!(type instanceof TupleType tuple) || t.elements().size() > tuple.size()) return false;
            for (int i = 0; i < t.elements().size(); i++) {
                if (!fits(t.elements().get(i), tuple.fieldTypes().get(i), types)) return false;
            }
            return true;
        }
        if (term instanceof Term.UdtLiteral u) {
            if (!(type instanceof UserType udt)) return false;
            for (int i = 0; i < u.fields().size(); i++) {
                int index = udt.fieldIndex(u.fields().get(i));
                if (index < 0 || !fits(u.values().get(i), udt.fieldTypes().get(index), types)) return false;
            }
            return true;
        }
        return true; // fromJson
    }

    private static boolean allFit(List<Term> terms, CqlType type, UserTypeResolver types) {
        for (Term t : terms) if (!fits(t, type, types)) return false;
        return true;
    }

    /** Whether a term may be assigned to a type (Cassandra's testAssignment): it fits it as an argument, if weakly. */
    private static boolean fits(Term term, CqlType type, UserTypeResolver types) {
        return argument(term, types).fit(type) != Fit.NONE;
    }

    /** Each element of a collection literal (its values, or a map's keys or values in {@code role}) must fit its place. */
    private static void checkElements(String literal, ColumnSpec receiver, String role, List<Term> terms, CqlType type,
            UserTypeResolver types) {
        for (Term t : terms) requireFit(t, type, literal, receiver, role + " " + describe(t), types);
    }

    /**
     * Cassandra's check of a part of a literal before it is prepared: the part (an element, field or component) must
     * be assignable to its place, else {@code Invalid list literal for l: value 'a' is not of type int}.
     */
    private static void requireFit(Term term, CqlType type, String literal, ColumnSpec receiver, String part, UserTypeResolver types) {
        if (!fits(term, type, types)) {
            throw new InvalidRequestException("Invalid " + literal + " literal for " + receiver.name() + ": " + part
                    + " is not of type " + type.cqlName());
        }
    }

    private static boolean isFromJson(String name) {
        return name.equals("fromjson") || name.equals("from_json");
    }

    private static String describeAll(List<Term> terms) {
        List<String> out = new ArrayList<>();
        for (Term t : terms) out.add(describe(t));
        return String.join(", ", out);
    }

    /**
     * A term as Cassandra's Term.Raw.getText() writes it, in column names and messages: a string unescaped in quotes,
     * any marker {@code ?}, a call by its name as written.
     */
    static String describe(Term term) {
        if (term instanceof Term.Constant c) return c.kind() == ballot.cql.type.ConstantKind.STRING ? "'" + c.text() + "'" : c.text();
        if (term instanceof Term.BindMarker) return "?";
        if (term instanceof Term.FunctionCall f) {
            return (f.keyspace() == null ? "" : f.keyspace() + ".") + f.name() + "(" + describeAll(f.args()) + ")";
        }
        if (term instanceof Term.TypeHint h) return "(" + h.type() + ")" + describe(h.term());
        if (term instanceof Term.Null) return "NULL";
        if (term instanceof Term.ListLiteral l) return "[" + describeAll(l.elements()) + "]";
        if (term instanceof Term.SetLiteral set) return "{" + describeAll(set.elements()) + "}";
        if (term instanceof Term.TupleLiteral t) return "(" + describeAll(t.elements()) + ")";
        if (term instanceof Term.MapLiteral m) {
            List<String> entries = new ArrayList<>();
            for (int i = 0; i < m.keys().size(); i++) entries.add(describe(m.keys().get(i)) + ": " + describe(m.values().get(i)));
            return "{" + String.join(", ", entries) + "}";
        }
        if (term instanceof Term.UdtLiteral u) {
            List<String> fields = new ArrayList<>();
            for (int i = 0; i < u.fields().size(); i++) fields.add(u.fields().get(i) + ": " + describe(u.values().get(i)));
            return "{" + String.join(", ", fields) + "}";
        }
        if (term instanceof Term.Arithmetic a) return describe(a.left()) + " " + a.op() + " " + describe(a.right());
        if (term instanceof Term.Negation n) return "-" + describe(n.term());
        return term.toString();
    }

    /** {@code left op right} by the operator signature its operands and the receiver select ({@link Operators}). */
    private static Value arithmetic(Term.Arithmetic a, ColumnSpec receiver, Markers markers, UserTypeResolver types) {
        Operators.Signature signature = Operators.resolve(a.op(), argument(a.left(), types), argument(a.right(), types), receiver.type());
        String function = Functions.qualified(Arithmetic.functionName(a.op()));
        Value left = prepare(a.left(), argument(receiver, 0, function, signature.left()), markers, types);
        Value right = prepare(a.right(), argument(receiver, 1, function, signature.right()), markers, types);
        return b -> {
            ByteBuffer l = left.bind(b);
            ByteBuffer r = right.bind(b);
            if (l == QueryOptions.UNSET || r == QueryOptions.UNSET) return null;
            return Operators.apply(signature, l, r);
        };
    }

    private static Value negation(Term.Negation n, ColumnSpec receiver, Markers markers, UserTypeResolver types) {
        CqlType type = Operators.resolveNegation(argument(n.term(), types), receiver.type());
        Value arg = prepare(n.term(), argument(receiver, 0, "system._negate", type), markers, types);
        return b -> {
            ByteBuffer v = arg.bind(b);
            if (v == QueryOptions.UNSET || type.orNoValue(v) == null) return null;
            return Arithmetic.negate(type, v);
        };
    }

    /** Cassandra's receiver of an operator's argument: {@code arg0(system._add)}. */
    private static ColumnSpec argument(ColumnSpec receiver, int index, String function, CqlType type) {
        return new ColumnSpec(receiver.keyspace(), receiver.table(), "arg" + index + "(" + function + ")", type);
    }

    private static List<Value> elements(List<Term> terms, ColumnSpec receiver, Markers markers, UserTypeResolver types) {
        List<Value> values = new ArrayList<>(terms.size());
        for (Term t : terms) values.add(prepare(t, receiver, markers, types));
        return values;
    }

    private static List<ByteBuffer> bindAll(List<Value> values, Bindings b, ColumnSpec receiver) {
        List<ByteBuffer> out = new ArrayList<>(values.size());
        for (Value v : values) {
            ByteBuffer value = v.bind(b);
            if (value == null) throw new InvalidRequestException("null is not supported inside collections");
            if (value == QueryOptions.UNSET) throw new InvalidRequestException("unset value is not supported inside collections");
            out.add(value);
        }
        return out;
    }

    private static InvalidRequestException invalidLiteral(String literal, ColumnSpec receiver) {
        return new InvalidRequestException("Invalid " + literal + " literal for " + receiver.name() + " of type "
                + receiver.type().cqlName());
    }
}
