package ballot.cql.parse;

import ballot.cql.type.ConstantKind;
import java.util.List;

/** A value expression as written in a statement, before it is bound to a receiver type. */
public sealed interface Term {
    /** A constant; numeric text may carry a leading minus, and NaN/Infinity are FLOAT. */
    record Constant(ConstantKind kind, String text) implements Term {}

    record Null() implements Term {}

    /** {@code ?} (name null) or {@code :name}; {@code index} is the marker's position among all markers of the statement. */
    record BindMarker(int index, String name) implements Term {}

    record ListLiteral(List<Term> elements) implements Term {}

    record SetLiteral(List<Term> elements) implements Term {}

    /** {@code {k: v, ...}}; the empty literal {@code {}} is an empty map that binds to an empty set or map too. */
    record MapLiteral(List<Term> keys, List<Term> values) implements Term {}

    record UdtLiteral(List<String> fields, List<Term> values) implements Term {}

    record TupleLiteral(List<Term> elements) implements Term {}

    record FunctionCall(String keyspace, String name, List<Term> args) implements Term {}

    /** {@code (type) term}: gives a bind marker or constant an explicit type. */
    record TypeHint(String type, Term term) implements Term {}

    /** {@code left op right} with op one of + - * / %. */
    record Arithmetic(char op, Term left, Term right) implements Term {}

    /** {@code -term}, for a term that is not a number constant. */
    record Negation(Term term) implements Term {}

    /**
     * {@code name.column} in a value of a transaction's update: the column of the row a LET read (docs/txn.md §11.2).
     * The parser makes one only inside {@code BEGIN TRANSACTION}, and only in the values an update writes.
     */
    record LetReference(String let, String column) implements Term {}
}
