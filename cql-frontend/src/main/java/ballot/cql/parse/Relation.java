package ballot.cql.parse;

import java.util.List;

/** A WHERE clause restriction. For IN the value is a {@link Term.ListLiteral} of candidates or a single bind marker. */
public sealed interface Relation {
    /** {@code col op value}, or {@code col[key] op value} for a map element when {@code mapKey} is set. */
    record Single(String column, Term mapKey, Operator op, Term value) implements Relation {}

    /** {@code (c1, c2) op (v1, v2)}: value is a tuple literal, a list of them for IN, or a bind marker. */
    record Multi(List<String> columns, Operator op, Term value) implements Relation {}

    /** {@code token(k1, k2) op value}. */
    record TokenRange(List<String> columns, Operator op, Term value) implements Relation {}
}
