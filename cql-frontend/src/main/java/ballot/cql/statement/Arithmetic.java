package ballot.cql.statement;

import ballot.cql.error.FunctionFailureException;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * CQL's arithmetic on numbers, as Cassandra 5.0 computes it ({@code OperationFcts} and each {@code NumberType}): each
 * operation is done in its result type. The result is floating point if either operand is (float, double, decimal),
 * as wide as the wider operand (tinyint 1 byte, smallint 2, int and float 4, bigint, counter and double 8, varint and
 * decimal unbounded), so bigint + float is a double and varint + float a decimal. Fixed-size integers wrap on
 * overflow and fail on division by zero; float and double follow IEEE 754 (NaN, infinities, x / 0); varint is exact;
 * decimal is exact too, its quotients keep at least 32 digits, and a NaN or infinite operand cannot become one. A
 * failure is FUNCTION_FAILURE "the operation 'int / int' failed: / by zero".
 */
final class Arithmetic {
    /** Cassandra's DecimalType: digits kept in a quotient, bounds of its scale, precision of the other operations. */
    private static final int DECIMAL_QUOTIENT_DIGITS_MIN = 32;
    private static final int DECIMAL_SCALE_MAX = 1000;
    private static final MathContext DECIMAL_PRECISION = new MathContext(10_000);

    private Arithmetic() {}

    static boolean isNumeric(CqlType type) {
        return isNumeric(type.kind());
    }

    static boolean isNumeric(CqlType.Kind kind) {
        return switch (kind) {
            case TINYINT, SMALLINT, INT, BIGINT, COUNTER, VARINT, FLOAT, DOUBLE, DECIMAL -> true;
            default -> false;
        };
    }

    /** The type of {@code left op right}, both numeric. */
    static CqlType resultType(CqlType left, CqlType right) {
        int bytes = Math.max(bytes(left), bytes(right));
        if (isFloatingPoint(left) || isFloatingPoint(right))
            return bytes == 4 ? CqlTypes.FLOAT : bytes == 8 ? CqlTypes.DOUBLE : CqlTypes.DECIMAL;
        return switch (bytes) {
            case 1 -> CqlTypes.TINYINT;
            case 2 -> CqlTypes.SMALLINT;
            case 4 -> CqlTypes.INT;
            case 8 -> CqlTypes.BIGINT;
            default -> CqlTypes.VARINT;
        };
    }

    private static boolean isFloatingPoint(CqlType type) {
        return switch (type.kind()) {
            case FLOAT, DOUBLE, DECIMAL -> true;
            default -> false;
        };
    }

    /** Bytes of a value of {@code type}; unbounded is {@code Integer.MAX_VALUE}. */
    private static int bytes(CqlType type) {
        return switch (type.kind()) {
            case TINYINT -> 1;
            case SMALLINT -> 2;
            case INT, FLOAT -> 4;
            case BIGINT, COUNTER, DOUBLE -> 8;
            case VARINT, DECIMAL -> Integer.MAX_VALUE;
            default -> throw new IllegalArgumentException(type.cqlName() + " is not a number");
        };
    }

    /**
     * {@code left op right} as a value of {@code result} ({@link #resultType}, or a column's type when both operands
     * take it); the operands are non-empty values of their types.
     */
    static ByteBuffer apply(char op, CqlType leftType, ByteBuffer left, CqlType rightType, ByteBuffer right, CqlType result) {
        Number x = (Number) leftType.compose(left);
        Number y = (Number) rightType.compose(right);
        try {
            return switch (result.kind()) {
                // Narrower integers and floats are computed in long and double and narrowed: the same result, wrapped or
                // correctly rounded, as computing in their own width.
                case TINYINT -> result.decompose((byte) longs(op, x.byteValue(), y.byteValue()));
                case SMALLINT -> result.decompose((short) longs(op, x.shortValue(), y.shortValue()));
                case INT -> result.decompose((int) longs(op, x.intValue(), y.intValue()));
                case BIGINT, COUNTER -> result.decompose(longs(op, x.longValue(), y.longValue()));
                case FLOAT -> result.decompose((float) doubles(op, x.floatValue(), y.floatValue()));
                case DOUBLE -> result.decompose(doubles(op, x.doubleValue(), y.doubleValue()));
                case VARINT -> result.decompose(varints(op, varint(x), varint(y)));
                case DECIMAL -> result.decompose(decimals(op, decimal(x), decimal(y)));
                default -> throw new IllegalArgumentException(result.cqlName() + " is not a number");
            };
        } catch (ArithmeticException | NumberFormatException e) {
            throw failure(op, leftType, rightType, e.getMessage());
        }
    }

    /** The failure of an operation: FUNCTION_FAILURE "the operation 'int / int' failed: / by zero". */
    static FunctionFailureException failure(char op, CqlType leftType, CqlType rightType, String reason) {
        return new FunctionFailureException("system", functionName(op), List.of(leftType.cqlName(), rightType.cqlName()),
                "the operation '" + leftType.cqlName() + " " + op + " " + rightType.cqlName() + "' failed: " + reason);
    }

    /** {@code -value} in its own type; a fixed-size integer's smallest value is its own negation, as in Java. */
    static ByteBuffer negate(CqlType type, ByteBuffer value) {
        Number x = (Number) type.compose(value);
        return switch (type.kind()) {
            case TINYINT -> type.decompose((byte) -x.byteValue());
            case SMALLINT -> type.decompose((short) -x.shortValue());
            case INT -> type.decompose(-x.intValue());
            case BIGINT, COUNTER -> type.decompose(-x.longValue());
            case FLOAT -> type.decompose(-x.floatValue());
            case DOUBLE -> type.decompose(-x.doubleValue());
            case VARINT -> type.decompose(((BigInteger) x).negate());
            case DECIMAL -> type.decompose(((BigDecimal) x).negate());
            default -> throw new IllegalArgumentException(type.cqlName() + " is not a number");
        };
    }

    /** Cassandra's names of the operator functions (sic: {@code _substract}). */
    static String functionName(char op) {
        return switch (op) {
            case '+' -> "_add";
            case '-' -> "_substract";
            case '*' -> "_multiply";
            case '/' -> "_divide";
            case '%' -> "_modulo";
            default -> throw new IllegalArgumentException("operator " + op);
        };
    }

    private static long longs(char op, long x, long y) {
        return switch (op) {
            case '+' -> x + y;
            case '-' -> x - y;
            case '*' -> x * y;
            case '/' -> x / y;
            case '%' -> x % y;
            default -> throw new IllegalArgumentException("operator " + op);
        };
    }

    private static double doubles(char op, double x, double y) {
        return switch (op) {
            case '+' -> x + y;
            case '-' -> x - y;
            case '*' -> x * y;
            case '/' -> x / y;
            case '%' -> x % y;
            default -> throw new IllegalArgumentException("operator " + op);
        };
    }

    private static BigInteger varints(char op, BigInteger x, BigInteger y) {
        return switch (op) {
            case '+' -> x.add(y);
            case '-' -> x.subtract(y);
            case '*' -> x.multiply(y);
            case '/' -> x.divide(y);
            case '%' -> x.remainder(y);
            default -> throw new IllegalArgumentException("operator " + op);
        };
    }

    private static BigDecimal decimals(char op, BigDecimal x, BigDecimal y) {
        return switch (op) {
            case '+' -> x.add(y, DECIMAL_PRECISION);
            case '-' -> x.subtract(y, DECIMAL_PRECISION);
            case '*' -> x.multiply(y, DECIMAL_PRECISION);
            case '/' -> quotient(x, y);
            case '%' -> x.remainder(y);
            default -> throw new IllegalArgumentException("operator " + op);
        };
    }

    /**
     * {@code x / y} with at least {@value #DECIMAL_QUOTIENT_DIGITS_MIN} digits after the quotient's first one (judged
     * from the operands' magnitudes), at least their scales, at most {@value #DECIMAL_SCALE_MAX}, trailing zeros
     * stripped: Cassandra's DecimalType.divide.
     */
    private static BigDecimal quotient(BigDecimal x, BigDecimal y) {
        int firstDigit = (x.precision() - x.scale()) - (y.precision() - y.scale());
        int scale = Math.max(DECIMAL_QUOTIENT_DIGITS_MIN - firstDigit, Math.max(x.scale(), y.scale()));
        scale = Math.min(Math.max(scale, DECIMAL_QUOTIENT_DIGITS_MIN), DECIMAL_SCALE_MAX);
        return x.divide(y, scale, RoundingMode.HALF_UP).stripTrailingZeros();
    }

    /** An integer operand of a varint operation. */
    private static BigInteger varint(Number n) {
        return n instanceof BigInteger big ? big : BigInteger.valueOf(n.longValue());
    }

    /** An operand of a decimal operation: other numbers go through their double value, so 1 is 1.0. */
    private static BigDecimal decimal(Number n) {
        if (n instanceof BigDecimal d) return d;
        if (n instanceof BigInteger big) return new BigDecimal(big);
        double d = n.doubleValue();
        if (Double.isNaN(d)) throw new NumberFormatException("A NaN cannot be converted into a decimal");
        if (Double.isInfinite(d)) throw new NumberFormatException("An infinite number cannot be converted into a decimal");
        return BigDecimal.valueOf(d);
    }
}
