package ballot.cql.parse;

import java.util.List;

/** One expression of a SELECT clause. */
public sealed interface Selector {
    record Column(String name) implements Selector {}

    /** A function or aggregate call, including writetime(), ttl(), token(), count(x), toJson(). */
    record Function(String keyspace, String name, List<Selector> args) implements Selector {}

    record CountRows() implements Selector {}

    record Cast(Selector selector, String type) implements Selector {}

    record Value(Term term) implements Selector {}

    record Field(Selector selector, String field) implements Selector {}

    /** {@code sel[key]}, or a slice {@code sel[from..to]} when {@code isSlice}, {@code from} or {@code to} null when open. */
    record Element(Selector selector, Term key, Term to, boolean isSlice) implements Selector {}

    record Arithmetic(char op, Selector left, Selector right) implements Selector {}

    /** {@code -selector}. */
    record Negation(Selector selector) implements Selector {}

    /** {@code (type) selector}: the selector read as a value of {@code type}, which must suit it. */
    record TypeHint(String type, Selector selector) implements Selector {}

    /** {@code (a)}, a selector in parentheses, or {@code (a, b, ...)}, a tuple. */
    record Parenthesised(List<Selector> elements) implements Selector {}

    /** {@code [a, b, ...]}. */
    record ListLiteral(List<Selector> elements) implements Selector {}

    /** {@code {a, b, ...}}; {@code {}} is an empty set, or an empty map where a map is expected. */
    record SetLiteral(List<Selector> elements) implements Selector {}

    /** {@code {k: v, ...}}. */
    record MapLiteral(List<Selector> keys, List<Selector> values) implements Selector {}

    /** A selector with its optional alias (AS name). */
    record Aliased(Selector selector, String alias) {}
}
