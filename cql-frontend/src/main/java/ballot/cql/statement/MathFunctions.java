package ballot.cql.statement;

import ballot.cql.error.ServerException;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import ch.obermuhlner.math.big.BigDecimalMath;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Cassandra 5.0's math functions {@code abs}, {@code exp}, {@code log}, {@code log10} and {@code round}, one overload
 * per numeric type, each returning its argument's type (a counter's is a counter). A fixed-size type computes in
 * double and converts back as Java's casts do, saturating or wrapping (exp(100) of an int is 2147483647, of a tinyint
 * 5 it is -108, log(0) of an int -2147483648, log(-1) 0); abs(-2147483648) stays negative; round of a float or double
 * is Math.round's (half up, NaN to 0, saturating to the int or long range) and of an integer the value itself. A
 * decimal is computed with big-math to max(32, its precision) digits, HALF_EVEN, and rounded HALF_UP to scale 0; a
 * varint goes through the decimal and is truncated. The log of a decimal or varint at most 0 fails as Cassandra's
 * does, with a server error "java.lang.ArithmeticException: Natural log of number zero or less".
 */
final class MathFunctions {
    private static final int DECIMAL_DIGITS_MIN = 32;
    private static final int DECIMAL_DIGITS_MAX = 10_000;

    private MathFunctions() {}

    /** A number's operation, on Java's boxed value of its CQL type. */
    private interface Op {
        Object apply(Number value);
    }

    static List<Functions.Function> overloads() {
        List<Functions.Function> out = new ArrayList<>();
        for (CqlType type : List.of(CqlTypes.TINYINT, CqlTypes.SMALLINT, CqlTypes.INT, CqlTypes.BIGINT, CqlTypes.FLOAT,
                CqlTypes.DOUBLE, CqlTypes.VARINT, CqlTypes.DECIMAL, CqlTypes.COUNTER)) {
            out.add(overload("abs", type, abs(type.kind())));
            out.add(overload("exp", type, fromDouble(type.kind(), Math::exp, MathFunctions::exp)));
            out.add(overload("log", type, fromDouble(type.kind(), Math::log, MathFunctions::log)));
            out.add(overload("log10", type, fromDouble(type.kind(), Math::log10, MathFunctions::log10)));
            out.add(overload("round", type, round(type.kind())));
        }
        return out;
    }

    private static Functions.Function overload(String name, CqlType type, Op op) {
        return new Functions.Function(name, List.of(type), type, args -> {
            try {
                return type.decompose(op.apply((Number) type.compose(args.get(0))));
            } catch (ArithmeticException e) {
                throw new ServerException(e.toString(), e);
            }
        }, Functions.Arguments.VALUES);
    }

    private static Op abs(CqlType.Kind kind) {
        return switch (kind) {
            case TINYINT -> v -> (byte) Math.abs(v.byteValue());
            case SMALLINT -> v -> (short) Math.abs(v.shortValue());
            case INT -> v -> Math.abs(v.intValue());
            case BIGINT, COUNTER -> v -> Math.abs(v.longValue());
            case FLOAT -> v -> Math.abs(v.floatValue());
            case DOUBLE -> v -> Math.abs(v.doubleValue());
            case VARINT -> v -> ((BigInteger) v).abs();
            case DECIMAL -> v -> ((BigDecimal) v).abs();
            default -> throw new IllegalArgumentException(kind + " is not numeric");
        };
    }

    /** {@code f} in double converted back to the type; a decimal's {@code exact}, and a varint's truncated. */
    private static Op fromDouble(CqlType.Kind kind, java.util.function.DoubleUnaryOperator f, UnaryOperator<BigDecimal> exact) {
        return switch (kind) {
            case TINYINT -> v -> (byte) f.applyAsDouble(v.doubleValue());
            case SMALLINT -> v -> (short) f.applyAsDouble(v.doubleValue());
            case INT -> v -> (int) f.applyAsDouble(v.doubleValue());
            case BIGINT, COUNTER -> v -> (long) f.applyAsDouble(v.doubleValue());
            case FLOAT -> v -> (float) f.applyAsDouble(v.floatValue());
            case DOUBLE -> v -> f.applyAsDouble(v.doubleValue());
            case VARINT -> v -> exact.apply(new BigDecimal((BigInteger) v)).toBigInteger();
            case DECIMAL -> v -> exact.apply((BigDecimal) v);
            default -> throw new IllegalArgumentException(kind + " is not numeric");
        };
    }

    private static Op round(CqlType.Kind kind) {
        return switch (kind) {
            case FLOAT -> v -> (float) Math.round(v.floatValue());
            case DOUBLE -> v -> (double) Math.round(v.doubleValue());
            case DECIMAL -> v -> ((BigDecimal) v).setScale(0, RoundingMode.HALF_UP);
            default -> v -> v;
        };
    }

    private static BigDecimal exp(BigDecimal x) {
        return BigDecimalMath.exp(x, context(x));
    }

    private static BigDecimal log(BigDecimal x) {
        if (x.signum() <= 0) throw new ArithmeticException("Natural log of number zero or less");
        return BigDecimalMath.log(x, context(x));
    }

    private static BigDecimal log10(BigDecimal x) {
        if (x.signum() <= 0) throw new ArithmeticException("Log10 of number zero or less");
        return BigDecimalMath.log10(x, context(x));
    }

    /** The digits a decimal's result keeps: its argument's precision, at least 32 and at most 10000. */
    private static MathContext context(BigDecimal x) {
        return new MathContext(Math.min(DECIMAL_DIGITS_MAX, Math.max(DECIMAL_DIGITS_MIN, x.precision())), RoundingMode.HALF_EVEN);
    }
}
