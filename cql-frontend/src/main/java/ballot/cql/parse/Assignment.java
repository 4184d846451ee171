package ballot.cql.parse;

/** One SET clause of an UPDATE. */
public sealed interface Assignment {
    String column();

    record SetValue(String column, Term value) implements Assignment {}

    record SetElement(String column, Term key, Term value) implements Assignment {}

    record SetField(String column, String field, Term value) implements Assignment {}

    /** {@code c = c + v}: append to a list, add to a set or map, increment a counter. */
    record Add(String column, Term value) implements Assignment {}

    /** {@code c = v + c}: prepend to a list. */
    record Prepend(String column, Term value) implements Assignment {}

    /** {@code c = c - v}: remove from a list, set or map (by keys), decrement a counter. */
    record Subtract(String column, Term value) implements Assignment {}
}
