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
        throw new IllegalStateException("unknown term " + term);
    }

    /** The candidates of an IN: a parenthesised list (each bound to the receiver) or one marker bound to list<type>. */
    static InValues prepareIn(Term term, ColumnSpec receiver, Markers markers, UserTypeResolver types) {
        if (term instanceof Term.BindMarker m) {
            ListType listType = CqlTypes.list(receiver.type().freeze(), true);
            markers.bind(m.index(), m.name(), new ColumnSpec(receiver.keyspace(), receiver.table(), "in(" + receiver.name() + ")", listType));
            int index = m.index();
            return b -> {
                ByteBuffer value = b.get(index);
                if (value == null) throw new InvalidRequestException("Invalid null value for IN restriction on " + receiver.name());
                if (value == QueryOptions.UNSET) throw new InvalidRequestException("Invalid unset value for IN restriction on " + receiver.name());
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
                if (value == null) throw new InvalidRequestException("Invalid null value in IN restriction on " + receiver.name());
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
            List<Value> elements = elements(literal.elements(), element(receiver, "value", vector.elements()), markers, types);
            return b -> vector.pack(bindAll(elements, b, receiver));
        }
        if (!(type instanceof ListType list)) {
            if (type instanceof SetType && literal.elements().isEmpty()) return setLiteral(List.of(), receiver, markers, types);
            throw invalidLiteral("list", receiver);
        }
        List<Value> elements = elements(literal.elements(), element(receiver, "value", list.elements()), markers, types);
        return b -> list.pack(bindAll(elements, b, receiver));
    }

    private static Value setLiteral(List<Term> terms, ColumnSpec receiver, Markers markers, UserTypeResolver types) {
        CqlType type = receiver.type();
        if (type instanceof MapType map && terms.isEmpty()) return b -> map.pack(List.of());
        if (!(type instanceof SetType set)) throw invalidLiteral("set", receiver);
        List<Value> elements = elements(terms, element(receiver, "value", set.elements()), markers, types);
        return b -> set.pack(bindAll(elements, b, receiver));
    }

    private static Value mapLiteral(Term.MapLiteral literal, ColumnSpec receiver, Markers markers, UserTypeResolver types) {
        CqlType type = receiver.type();
        if (literal.keys().isEmpty() && type instanceof SetType) return setLiteral(List.of(), receiver, markers, types);
        if (!(type instanceof MapType map)) throw invalidLiteral("map", receiver);
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
        if (!(receiver.type() instanceof TupleType tuple)) throw invalidLiteral("tuple", receiver);
        if (terms.size() > tuple.size()) {
            throw new InvalidRequestException("Invalid tuple literal for " + receiver.name() + ": too many elements. Type "
                    + tuple.cqlName() + " expects " + tuple.size() + " but got " + terms.size());
        }
        List<Value> components = new ArrayList<>();
        for (int i = 0; i < terms.size(); i++) {
            ColumnSpec componentReceiver = new ColumnSpec(receiver.keyspace(), receiver.table(),
                    "component(" + receiver.name() + ", " + i + ")", tuple.fieldTypes().get(i));
            components.add(prepare(terms.get(i), componentReceiver, markers, types));
        }
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
        if (name.equals("fromjson") || name.equals("from_json")) {
            if (call.args().size() != 1) throw new InvalidRequestException("fromJson() takes exactly 1 argument");
            Value json = prepare(call.args().get(0), element(receiver, "json", CqlTypes.TEXT), markers, types);
            CqlType type = receiver.type();
            return b -> {
                ByteBuffer text = json.bind(b);
                if (text == null) return null;
                return type.fromJson(JsonText.parse(CqlTypes.TEXT.compose(text).toString()));
            };
        }
        Functions.Function function = chooseOverload(call, receiver);
        List<Value> args = new ArrayList<>();
        for (int i = 0; i < call.args().size(); i++) {
            ColumnSpec argReceiver = new ColumnSpec(receiver.keyspace(), receiver.table(), "arg" + i + "(" + name + ")",
                    function.argTypes().get(i));
            args.add(prepare(call.args().get(i), argReceiver, markers, types));
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

    /** Picks the overload returning the receiver's type whose arguments the call's terms can take. */
    private static Functions.Function chooseOverload(Term.FunctionCall call, ColumnSpec receiver) {
        List<Functions.Function> candidates = new ArrayList<>();
        for (Functions.Function f : Functions.overloads(call.name())) {
            if (f.argTypes().size() == call.args().size()) candidates.add(f);
        }
        if (candidates.isEmpty()) {
            throw new InvalidRequestException("Invalid number of arguments in call to function " + call.name() + ": "
                    + Functions.overloads(call.name()).get(0).argTypes().size() + " required but " + call.args().size() + " provided");
        }
        Functions.Function chosen = null;
        for (Functions.Function f : candidates) {
            if (!argumentsFit(call, f)) continue;
            if (chosen == null || assignable(f.returnType(), receiver.type()) && !assignable(chosen.returnType(), receiver.type())) chosen = f;
        }
        if (chosen == null) {
            throw new InvalidRequestException("Invalid call to function " + call.name() + ", none of its type signatures match");
        }
        if (!assignable(chosen.returnType(), receiver.type())) {
            throw new InvalidRequestException("Type error: cannot assign result of function system." + call.name() + " (type "
                    + chosen.returnType().cqlName() + ") to " + receiver.name() + " (type " + receiver.type().cqlName() + ")");
        }
        return chosen;
    }

    private static boolean argumentsFit(Term.FunctionCall call, Functions.Function f) {
        for (int i = 0; i < call.args().size(); i++) {
            Term arg = call.args().get(i);
            CqlType expected = f.argTypes().get(i);
            if (arg instanceof Term.Constant c && !expected.accepts(c.kind())) return false;
            if (arg instanceof Term.FunctionCall nested && Functions.exists(nested.name())) {
                boolean any = false;
                for (Functions.Function g : Functions.overloads(nested.name())) any |= assignable(g.returnType(), expected);
                if (!any) return false;
            }
        }
        return true;
    }

    private static boolean assignable(CqlType from, CqlType to) {
        if (Functions.sameType(from, to)) return true;
        // timeuuid values are valid uuids, text is valid blob content only through conversion functions
        return from.kind() == CqlType.Kind.TIMEUUID && to.kind() == CqlType.Kind.UUID
                || from.kind() == CqlType.Kind.ASCII && to.kind() == CqlType.Kind.TEXT;
    }

    /** Both operands take the receiver's type, and so does the result. */
    private static Value arithmetic(Term.Arithmetic a, ColumnSpec receiver, Markers markers, UserTypeResolver types) {
        CqlType type = receiver.type();
        if (!Arithmetic.isNumeric(type)) {
            throw new InvalidRequestException("Arithmetic operation " + a.op() + " is not supported for " + receiver.name()
                    + " of type " + type.cqlName());
        }
        Value left = prepare(a.left(), receiver, markers, types);
        Value right = prepare(a.right(), receiver, markers, types);
        return b -> {
            ByteBuffer l = left.bind(b);
            ByteBuffer r = right.bind(b);
            if (l == QueryOptions.UNSET || r == QueryOptions.UNSET) return null;
            if (type.orNoValue(l) == null || type.orNoValue(r) == null) return null;
            return Arithmetic.apply(a.op(), type, l, type, r, type);
        };
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
