package ballot.cql.statement;

import ballot.cql.type.CqlType;
import java.util.function.Function;

/**
 * An argument of a function call or an operation as overload resolution sees it, before its own type is settled
 * (Cassandra's AssignmentTestable). {@code type} is the type a function factory infers for it (Cassandra's
 * getCompatibleTypeIfKnown: a typed value's own, a constant's preferred one, null for a marker or null);
 * {@code listLiteralSize} is a list literal's number of elements (a vector function takes it as a vector of that
 * dimension), else -1.
 */
record Argument(String text, CqlType type, Function<CqlType, Fit> fits, boolean isMarker, int listLiteralSize) {
    Fit fit(CqlType parameter) {
        return fits.apply(parameter);
    }

    /** A value of a known type. */
    static Argument typed(String text, CqlType type) {
        return new Argument(text, type, p -> Fit.of(type, p), false, -1);
    }

    /** A value whose fits are known but that gives a factory no type. */
    static Argument untyped(String text, Function<CqlType, Fit> fits) {
        return new Argument(text, null, fits, false, -1);
    }
}
