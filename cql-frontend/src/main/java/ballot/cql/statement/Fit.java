package ballot.cql.statement;

import ballot.cql.type.ConstantKind;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import ballot.cql.type.TypeCompatibility;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * How a value suits a parameter's type when a call or an operation picks its overload: Cassandra's
 * AssignmentTestable.TestResult. The one rule for typed values and for constants, used by functions and operators.
 */
enum Fit {
    EXACT, WEAK, NONE;

    /** The weaker of two fits. */
    Fit and(Fit other) {
        return ordinal() >= other.ordinal() ? this : other;
    }

    /** A value of type {@code provided}: exactly its own type, weakly a type that reads its values. */
    static Fit of(CqlType provided, CqlType parameter) {
        if (Functions.sameType(provided, parameter)) return EXACT;
        return TypeCompatibility.isValueCompatibleWith(parameter, provided) ? WEAK : NONE;
    }

    /** A constant of {@code kind}: exactly its {@link #preferredType}, weakly any type it may be assigned to. */
    static Fit ofConstant(ConstantKind kind, CqlType preferred, CqlType parameter) {
        if (Functions.sameType(preferred, parameter)) return EXACT;
        return parameter.accepts(kind) ? WEAK : NONE;
    }

    /**
     * The type Cassandra gives a constant by itself: an integer the narrowest of int, bigint and varint it fits, a
     * float a double if a double holds it exactly (0.1 as written is the double 0.1) and else a decimal, a string
     * ascii if all its characters are.
     */
    static CqlType preferredType(ConstantKind kind, String text) {
        return switch (kind) {
            case INTEGER -> {
                int bits = new BigInteger(text).bitLength();
                yield bits < 32 ? CqlTypes.INT : bits < 64 ? CqlTypes.BIGINT : CqlTypes.VARINT;
            }
            case FLOAT -> isExactDouble(text) ? CqlTypes.DOUBLE : CqlTypes.DECIMAL;
            case STRING -> text.chars().allMatch(ch -> ch < 128) ? CqlTypes.ASCII : CqlTypes.TEXT;
            case BOOLEAN -> CqlTypes.BOOLEAN;
            case UUID -> CqlTypes.UUID;
            case HEX -> CqlTypes.BLOB;
            case DURATION -> CqlTypes.DURATION;
        };
    }

    private static boolean isExactDouble(String text) {
        if (text.endsWith("NaN") || text.endsWith("Infinity")) return true;
        double d = Double.parseDouble(text);
        return Double.isFinite(d) && new BigDecimal(text).compareTo(BigDecimal.valueOf(d)) == 0;
    }
}
