package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * CQL's operators as Cassandra 5.0 resolves them (OperationFcts, FunctionResolver): each of + - * / % is a set of
 * native functions, one per signature, and an operation takes the signature its operands fit. The signatures: every
 * pair of numbers (result as {@link Arithmetic#resultType}); timestamp or date plus or minus a duration; and + on text
 * and ascii, concatenation, ascii only of two ascii. A signature all of whose parameters an operand fits exactly is
 * taken at once; else the only one they fit at all, and where they fit several, in a term, the one whose parameters
 * are the receiver's type when no operand is a bind marker; otherwise the operation is ambiguous. Negation has one
 * signature per number type.
 */
final class Operators {
    /** One signature of an operator's function. */
    record Signature(char op, CqlType left, CqlType right, CqlType result) {}

    /** In the order Cassandra lists them. */
    private static final List<CqlType> NUMBERS = List.of(CqlTypes.TINYINT, CqlTypes.SMALLINT, CqlTypes.INT, CqlTypes.BIGINT,
            CqlTypes.FLOAT, CqlTypes.DOUBLE, CqlTypes.DECIMAL, CqlTypes.VARINT, CqlTypes.COUNTER);

    private Operators() {}

    /** Each operator's signatures, built once (resolution runs at every preparation). */
    private static final Map<Character, List<Signature>> SIGNATURES = Map.of('+', build('+'), '-', build('-'), '*', build('*'),
            '/', build('/'), '%', build('%'));

    static List<Signature> signatures(char op) {
        return SIGNATURES.get(op);
    }

    private static List<Signature> build(char op) {
        List<Signature> out = new ArrayList<>();
        for (CqlType left : NUMBERS)
            for (CqlType right : NUMBERS) out.add(new Signature(op, left, right, Arithmetic.resultType(left, right)));
        if (op == '+' || op == '-') {
            out.add(new Signature(op, CqlTypes.TIMESTAMP, CqlTypes.DURATION, CqlTypes.TIMESTAMP));
            out.add(new Signature(op, CqlTypes.DATE, CqlTypes.DURATION, CqlTypes.DATE));
        }
        if (op == '+') {
            out.add(new Signature(op, CqlTypes.TEXT, CqlTypes.TEXT, CqlTypes.TEXT));
            out.add(new Signature(op, CqlTypes.ASCII, CqlTypes.ASCII, CqlTypes.ASCII));
            out.add(new Signature(op, CqlTypes.ASCII, CqlTypes.TEXT, CqlTypes.TEXT));
            out.add(new Signature(op, CqlTypes.TEXT, CqlTypes.ASCII, CqlTypes.TEXT));
        }
        return List.copyOf(out);
    }

    /**
     * The signature of {@code left op right}; {@code receiver} is the type the result is assigned to in a term (only
     * signatures whose result suits it compete), null in a selection.
     */
    static Signature resolve(char op, Argument left, Argument right, CqlType receiver) {
        List<Signature> compatible = new ArrayList<>();
        for (Signature s : signatures(op)) {
            if (receiver != null && Fit.of(s.result(), receiver) == Fit.NONE) continue;
            Fit l = left.fit(s.left());
            Fit r = right.fit(s.right());
            if (l == Fit.NONE || r == Fit.NONE) continue;
            if (l == Fit.EXACT && r == Fit.EXACT) return s;
            compatible.add(s);
        }
        if (compatible.isEmpty()) {
            throw new InvalidRequestException("the '" + op + "' operation is not supported between " + left.text() + " and " + right.text());
        }
        if (compatible.size() == 1) return compatible.get(0);
        if (receiver != null && !left.isMarker() && !right.isMarker()) {
            for (Signature s : compatible) if (s.left().equals(receiver) && s.right().equals(receiver)) return s;
        }
        throw new InvalidRequestException("Ambiguous '" + op + "' operation with args " + left.text() + " and " + right.text()
                + ": use type hint to disambiguate, example '(int) ?'");
    }

    /** The number type {@code -arg} is computed in. */
    static CqlType resolveNegation(Argument arg, CqlType receiver) {
        List<CqlType> compatible = new ArrayList<>();
        for (CqlType type : NUMBERS) {
            if (receiver != null && Fit.of(type, receiver) == Fit.NONE) continue;
            Fit f = arg.fit(type);
            if (f == Fit.EXACT) return type;
            if (f == Fit.WEAK) compatible.add(type);
        }
        if (compatible.isEmpty()) {
            throw new InvalidRequestException("Invalid call to function system._negate, none of its type signatures match (known type "
                    + "signatures: system.\"_negate\" : (decimal) -> decimal, system.\"_negate\" : (smallint) -> smallint, "
                    + "system.\"_negate\" : (float) -> float, system.\"_negate\" : (tinyint) -> tinyint, system.\"_negate\" : "
                    + "(counter) -> counter, system.\"_negate\" : (varint) -> varint, system.\"_negate\" : (int) -> int, "
                    + "system.\"_negate\" : (double) -> double, system.\"_negate\" : (bigint) -> bigint)");
        }
        if (compatible.size() > 1) throw new InvalidRequestException("Ambiguous negation: use type casts to disambiguate");
        return compatible.get(0);
    }

    /** {@code left op right} by signature {@code s}; null if an operand is null or, but for strings, empty. */
    static ByteBuffer apply(Signature s, ByteBuffer left, ByteBuffer right) {
        if (s.left().orNoValue(left) == null || s.right().orNoValue(right) == null) return null;
        return switch (s.left().kind()) {
            case TEXT, ASCII -> concatenation(left, right);
            case TIMESTAMP, DATE -> DurationArithmetic.apply(s.op(), s.left(), left, right);
            default -> Arithmetic.apply(s.op(), s.left(), left, s.right(), right, s.result());
        };
    }

    private static ByteBuffer concatenation(ByteBuffer left, ByteBuffer right) {
        ByteBuffer out = ByteBuffer.allocate(left.remaining() + right.remaining());
        out.put(left.duplicate()).put(right.duplicate());
        return out.flip();
    }
}
