package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.parse.Selector;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.ListType;
import ballot.cql.type.MapType;
import ballot.cql.type.SetType;
import ballot.cql.type.TupleType;
import ballot.cql.type.VectorType;
import java.nio.ByteBuffer;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Collection and tuple literals in a selection, {@code [a, b]}, {@code {a, b}}, {@code {k: v}} and {@code (a, b)}, as
 * Cassandra 5.0 selects them: of the type where they are used (a type hint, an operator's or a function's parameter),
 * else of the type their elements give, a list's or set's from its first element whose type is known, a tuple's from
 * each of its elements (a map's never, as it might be a user type's value); else the type cannot be inferred. They are named as written, with their elements' names.
 */
final class CollectionSelectors {
    private CollectionSelectors() {}

    /**
     * What overload resolution knows of a literal: its text, that it suits the types of its own kind whose elements
     * its elements fit, and the type a function factory infers for it, from the types its elements give
     * ({@link #compatibleType}).
     */
    static Argument argument(Selector literal, Function<Selector, Argument> argumentOf) {
        // Each element's argument is made once: the text, the compatible type and every fit ask for it, and made anew
        // for each, an element nested n deep was made 2^n times (a tuple 22 deep took 1.8 s to prepare).
        Map<Selector, Argument> made = new IdentityHashMap<>();
        Function<Selector, Argument> elements = s -> made.computeIfAbsent(s, argumentOf);
        String text = text(literal, s -> elements.apply(s).text());
        return new Argument(text, compatibleType(literal, elements),
                parameter -> suits(literal, parameter) && elementsFit(literal, parameter, elements) ? Fit.WEAK : Fit.NONE, false,
                literal instanceof Selector.ListLiteral l ? l.elements().size() : -1);
    }

    /**
     * The type a function factory infers for a literal (Cassandra's compatible type): a list's or set's of the one
     * type its elements give (markers and nulls give none; two types, or none, give the literal none), a tuple's of
     * each element's type if all give one; never a map's, as it may be a user type's value.
     */
    private static CqlType compatibleType(Selector literal, Function<Selector, Argument> elements) {
        if (literal instanceof Selector.MapLiteral) return null;
        if (literal instanceof Selector.Parenthesised p) {
            List<CqlType> components = new ArrayList<>();
            for (Selector s : p.elements()) {
                CqlType type = elements.apply(s).type();
                if (type == null) return null;
                components.add(type);
            }
            return CqlTypes.tuple(components);
        }
        CqlType common = null;
        for (Selector s : elementsOf(literal)) {
            CqlType type = elements.apply(s).type();
            if (type == null) continue;
            if (common != null && !Functions.sameType(common, type)) return null;
            common = type;
        }
        if (common == null) return null;
        return literal instanceof Selector.ListLiteral ? CqlTypes.list(common, true) : CqlTypes.set(common, true);
    }

    /** True if each element of the literal fits its place in {@code type}, a type of the literal's kind. */
    private static boolean elementsFit(Selector literal, CqlType type, Function<Selector, Argument> elements) {
        if (literal instanceof Selector.MapLiteral m) {
            MapType map = (MapType) type;
            return allFit(m.keys(), map.keys(), elements) && allFit(m.values(), map.values(), elements);
        }
        if (literal instanceof Selector.Parenthesised p) {
            TupleType tuple = (TupleType) type;
            if (p.elements().size() > tuple.size()) return false;
            for (int i = 0; i < p.elements().size(); i++)
                if (elements.apply(p.elements().get(i)).fit(tuple.fieldTypes().get(i)) == Fit.NONE) return false;
            return true;
        }
        if (type instanceof MapType) return true; // {} as an empty map
        return allFit(elementsOf(literal), elementType(type), elements);
    }

    private static boolean allFit(List<Selector> selectors, CqlType type, Function<Selector, Argument> elements) {
        for (Selector s : selectors) if (elements.apply(s).fit(type) == Fit.NONE) return false;
        return true;
    }

    private static boolean suits(Selector literal, CqlType type) {
        if (literal instanceof Selector.ListLiteral) return type instanceof ListType || type instanceof VectorType;
        if (literal instanceof Selector.SetLiteral s) return type instanceof SetType || s.elements().isEmpty() && type instanceof MapType;
        if (literal instanceof Selector.MapLiteral) return type instanceof MapType;
        return type instanceof TupleType;
    }

    /**
     * The literal as a result column of type {@code expected}, or of its elements' type if null: {@code prepare}
     * prepares an element for a type, {@code typed} on its own (null if it has no type of its own).
     */
    static Selection.Prepared prepare(Selector literal, CqlType expected, String text, BiFunction<Selector, CqlType, Selection.Prepared> prepare,
            Function<Selector, Selection.Prepared> typed) {
        CqlType type = expected != null ? expected : ownType(literal, typed);
        if (type == null) throw Selection.cannotInfer(text);
        if (!suits(literal, type)) throw new InvalidRequestException(text + " is not of the expected type: " + type.cqlName());
        if (literal instanceof Selector.ListLiteral l && type instanceof VectorType vector) {
            // a vector function's argument, whose dimension the function checked
            List<Selection.Prepared> elements = each(l.elements(), vector.elements(), prepare);
            return Selection.scalar(text(literal, elements), type, elements, values -> vector.pack(noNulls(values)));
        }
        if (literal instanceof Selector.ListLiteral l) {
            ListType list = (ListType) type;
            List<Selection.Prepared> elements = each(l.elements(), list.elements(), prepare);
            return Selection.scalar(text(literal, elements), type, elements, values -> list.pack(noNulls(values)));
        }
        if (literal instanceof Selector.SetLiteral s && type instanceof MapType map) {
            return Selection.scalar("{}", type, List.of(), values -> map.pack(List.of()));
        }
        if (literal instanceof Selector.SetLiteral s) {
            SetType set = (SetType) type;
            List<Selection.Prepared> elements = each(s.elements(), set.elements(), prepare);
            return Selection.scalar(text(literal, elements), type, elements, values -> set.pack(noNulls(values)));
        }
        if (literal instanceof Selector.MapLiteral m) {
            MapType map = (MapType) type;
            List<Selection.Prepared> entries = new ArrayList<>();
            for (int i = 0; i < m.keys().size(); i++) {
                entries.add(prepare.apply(m.keys().get(i), map.keys()));
                entries.add(prepare.apply(m.values().get(i), map.values()));
            }
            return Selection.scalar(text(literal, entries), type, entries, values -> {
                List<ByteBuffer> all = noNulls(values);
                List<Map.Entry<ByteBuffer, ByteBuffer>> pairs = new ArrayList<>();
                for (int i = 0; i < all.size(); i += 2) pairs.add(new AbstractMap.SimpleImmutableEntry<>(all.get(i), all.get(i + 1)));
                return map.pack(pairs);
            });
        }
        TupleType tuple = (TupleType) type;
        List<Selector> components = ((Selector.Parenthesised) literal).elements();
        if (components.size() > tuple.size()) {
            throw new InvalidRequestException("Invalid tuple literal " + text + ": too many elements. Type " + tuple.cqlName()
                    + " expects " + tuple.size() + " but got " + components.size());
        }
        List<Selection.Prepared> elements = new ArrayList<>();
        for (int i = 0; i < components.size(); i++) elements.add(prepare.apply(components.get(i), tuple.fieldTypes().get(i)));
        return Selection.scalar(text(literal, elements), type, elements, tuple::pack);
    }

    /** The type the literal's elements give it, or null. */
    static CqlType ownType(Selector literal, Function<Selector, Selection.Prepared> typed) {
        if (literal instanceof Selector.ListLiteral l) {
            CqlType element = firstType(l.elements(), typed);
            return element == null ? null : CqlTypes.list(element, true);
        }
        if (literal instanceof Selector.SetLiteral s) {
            CqlType element = firstType(s.elements(), typed);
            return element == null ? null : CqlTypes.set(element, true);
        }
        // {k: v} may as well be a user type's value: it takes its type only from where it is used
        if (literal instanceof Selector.MapLiteral) return null;
        List<CqlType> components = new ArrayList<>();
        for (Selector s : ((Selector.Parenthesised) literal).elements()) {
            Selection.Prepared p = typed.apply(s);
            if (p == null) return null;
            components.add(p.type());
        }
        return CqlTypes.tuple(components);
    }

    private static CqlType firstType(List<Selector> elements, Function<Selector, Selection.Prepared> typed) {
        for (Selector s : elements) {
            Selection.Prepared p = typed.apply(s);
            if (p != null) return p.type();
        }
        return null;
    }

    private static List<Selection.Prepared> each(List<Selector> elements, CqlType type, BiFunction<Selector, CqlType, Selection.Prepared> prepare) {
        List<Selection.Prepared> out = new ArrayList<>();
        for (Selector s : elements) {
            Selection.Prepared p = prepare.apply(s, type);
            if (Fit.of(p.type(), type) == Fit.NONE)
                throw new InvalidRequestException(p.name() + " is not of the expected type: " + type.cqlName());
            out.add(p);
        }
        return out;
    }

    private static List<ByteBuffer> noNulls(List<ByteBuffer> values) {
        for (ByteBuffer v : values) if (v == null) throw new InvalidRequestException("null is not supported inside collections");
        return values;
    }

    /** The literal as written, each element by {@code name}. */
    private static String text(Selector literal, Function<Selector, String> name) {
        List<String> parts = new ArrayList<>();
        if (literal instanceof Selector.MapLiteral m) {
            for (int i = 0; i < m.keys().size(); i++) parts.add(name.apply(m.keys().get(i)) + ": " + name.apply(m.values().get(i)));
        } else {
            for (Selector s : elementsOf(literal)) parts.add(name.apply(s));
        }
        return wrap(literal, String.join(", ", parts));
    }

    private static String text(Selector literal, List<Selection.Prepared> prepared) {
        List<String> parts = new ArrayList<>();
        if (literal instanceof Selector.MapLiteral) {
            for (int i = 0; i < prepared.size(); i += 2) parts.add(prepared.get(i).name() + ": " + prepared.get(i + 1).name());
        } else {
            for (Selection.Prepared p : prepared) parts.add(p.name());
        }
        return wrap(literal, String.join(", ", parts));
    }

    private static CqlType elementType(CqlType listSetOrVector) {
        if (listSetOrVector instanceof ListType list) return list.elements();
        if (listSetOrVector instanceof VectorType vector) return vector.elements();
        return ((SetType) listSetOrVector).elements();
    }

    private static List<Selector> elementsOf(Selector literal) {
        if (literal instanceof Selector.ListLiteral l) return l.elements();
        if (literal instanceof Selector.SetLiteral s) return s.elements();
        return ((Selector.Parenthesised) literal).elements();
    }

    private static String wrap(Selector literal, String inside) {
        if (literal instanceof Selector.ListLiteral) return "[" + inside + "]";
        if (literal instanceof Selector.Parenthesised) return "(" + inside + ")";
        return "{" + inside + "}";
    }
}
