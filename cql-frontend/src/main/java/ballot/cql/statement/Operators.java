package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import ballot.cql.type.ConstantKind;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

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
    /** How an operand fits a parameter type (Cassandra's AssignmentTestable.TestResult). */
    enum Fit { EXACT, WEAK, NONE }

    /** One signature of an operator's function. */
    record Signature(char op, CqlType left, CqlType right, CqlType result) {}

    /** What resolution knows of an operand before its type is settled. */
    interface Operand {
        Fit fit(CqlType parameter);

        /** The operand as messages show it. */
        String text();

        boolean isMarker();
    }

    /** In the order Cassandra lists them. */
    private static final List<CqlType> NUMBERS = List.of(CqlTypes.TINYINT, CqlTypes.SMALLINT, CqlTypes.INT, CqlTypes.BIGINT,
            CqlTypes.FLOAT, CqlTypes.DOUBLE, CqlTypes.DECIMAL, CqlTypes.VARINT, CqlTypes.COUNTER);

    private Operators() {}

    static List<Signature> signatures(char op) {
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
        return out;
    }

    /**
     * The signature of {@code left op right}; {@code receiver} is the type the result is assigned to in a term (only
     * signatures whose result suits it compete), null in a selection.
     */
    static Signature resolve(char op, Operand left, Operand right, CqlType receiver) {
        List<Signature> compatible = new ArrayList<>();
        for (Signature s : signatures(op)) {
            if (receiver != null && fit(s.result(), receiver) == Fit.NONE) continue;
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
    static CqlType resolveNegation(Operand arg, CqlType receiver) {
        List<CqlType> compatible = new ArrayList<>();
        for (CqlType type : NUMBERS) {
            if (receiver != null && fit(type, receiver) == Fit.NONE) continue;
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

    /** How a value of type {@code provided} fits {@code parameter}: exactly its type, or one whose values it reads. */
    static Fit fit(CqlType provided, CqlType parameter) {
        if (Functions.sameType(provided, parameter)) return Fit.EXACT;
        return readsValuesOf(parameter, provided) ? Fit.WEAK : Fit.NONE;
    }

    /** How a constant fits {@code parameter}: exactly its preferred type, or one that accepts it. */
    static Fit fit(ConstantKind kind, String text, CqlType parameter) {
        CqlType preferred = preferredType(kind, text);
        if (preferred != null && Functions.sameType(preferred, parameter)) return Fit.EXACT;
        return parameter.accepts(kind) ? Fit.WEAK : Fit.NONE;
    }

    /**
     * A constant's own type: the narrowest of int, bigint and varint holding an integer, double for a float its double
     * value keeps (else decimal), ascii for a string of ASCII characters (else text), boolean, duration.
     */
    static CqlType preferredType(ConstantKind kind, String text) {
        return switch (kind) {
            case INTEGER -> {
                BigInteger n = new BigInteger(text);
                yield n.bitLength() < 32 ? CqlTypes.INT : n.bitLength() < 64 ? CqlTypes.BIGINT : CqlTypes.VARINT;
            }
            case FLOAT -> {
                if (text.endsWith("NaN") || text.endsWith("Infinity")) yield CqlTypes.DOUBLE;
                BigDecimal d = new BigDecimal(text);
                yield d.compareTo(BigDecimal.valueOf(d.doubleValue())) == 0 ? CqlTypes.DOUBLE : CqlTypes.DECIMAL;
            }
            case STRING -> StandardCharsets.US_ASCII.newEncoder().canEncode(text) ? CqlTypes.ASCII : CqlTypes.TEXT;
            case BOOLEAN -> CqlTypes.BOOLEAN;
            case DURATION -> CqlTypes.DURATION;
            case UUID, HEX -> null;
        };
    }

    /** Cassandra's isValueCompatibleWith: the values of {@code provided} are valid values of {@code receiver}. */
    private static boolean readsValuesOf(CqlType receiver, CqlType provided) {
        CqlType.Kind from = provided.kind();
        return switch (receiver.kind()) {
            case BLOB -> !provided.isMultiCell();
            case TEXT -> from == CqlType.Kind.ASCII;
            case TIMESTAMP -> from == CqlType.Kind.BIGINT;
            case BIGINT -> from == CqlType.Kind.TIMESTAMP;
            case VARINT -> from == CqlType.Kind.INT || from == CqlType.Kind.BIGINT || from == CqlType.Kind.TIMESTAMP;
            case UUID -> from == CqlType.Kind.TIMEUUID;
            default -> false;
        };
    }
}
