package ballot.cql.parse;

/**
 * An IF condition of a conditional update: {@code col op value}, {@code col[key] op value} or {@code col.field op value}.
 * For IN the value is a {@link Term.ListLiteral} or a bind marker.
 */
public record Condition(String column, Term elementKey, String field, Operator op, Term value) {}
