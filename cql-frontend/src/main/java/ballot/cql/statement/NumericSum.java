package ballot.cql.statement;

import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.ByteBuffer;

/**
 * The running sum and mean of numbers of one type, as Cassandra's sum and avg compute them (the aggregates and
 * collection_sum and collection_avg): in the numbers' type, a counter's as a bigint; fixed-size integer sums wrap, their
 * mean is the exact sum's quotient truncated; floats and doubles add in double; a decimal sum keeps the largest scale
 * and a decimal mean is a running mean; the mean of no numbers is 0.
 */
final class NumericSum {
    private final CqlType argType;
    private final CqlType resultType;
    /** Whether the mean is asked for, not the sum: a decimal mean costs a division per number, a sum none. */
    private final boolean mean;
    private BigDecimal sum = BigDecimal.ZERO;
    private BigDecimal decimalMean = BigDecimal.ZERO;
    private double floatingSum;
    private long count;

    NumericSum(CqlType argType, boolean mean) {
        this.argType = argType;
        this.resultType = resultType(argType);
        this.mean = mean;
    }

    /** The type of the sum or mean of numbers of {@code argType}. */
    static CqlType resultType(CqlType argType) {
        return argType.kind() == CqlType.Kind.COUNTER ? CqlTypes.BIGINT : argType;
    }

    /** Adds a number; null and empty values are no numbers. */
    void add(ByteBuffer value) {
        ByteBuffer v = argType.orNoValue(value);
        if (v == null) return;
        count++;
        if (isFloating()) {
            floatingSum += Double.parseDouble(argType.asString(v));
        } else if (resultType.kind() == CqlType.Kind.DECIMAL) {
            // Cassandra's decimal avg is a running mean, each step's quotient rounded HALF_EVEN to the scale of
            // (value - mean): 0.10, 9, 10 average to 6.37
            BigDecimal x = (BigDecimal) argType.compose(v);
            if (mean) decimalMean = decimalMean.add(x.subtract(decimalMean).divide(BigDecimal.valueOf(count), RoundingMode.HALF_EVEN));
            else sum = sum.add(x);
        } else {
            sum = sum.add(new BigDecimal(argType.asString(v)));
        }
    }

    /** The sum, or the mean if that was asked for. */
    ByteBuffer result() {
        return mean ? mean() : sum();
    }

    private ByteBuffer sum() {
        if (isFloating()) return resultType.fromString(Double.toString(floatingSum));
        // a decimal sum is BigDecimal.add's, keeping the largest scale (0.10 + 9 + 10 is 19.10)
        if (resultType.kind() == CqlType.Kind.DECIMAL) return resultType.decompose(sum);
        return integral(sum.toBigInteger());
    }

    private ByteBuffer mean() {
        if (isFloating()) return resultType.fromString(Double.toString(count == 0 ? 0 : floatingSum / count));
        if (resultType.kind() == CqlType.Kind.DECIMAL) return resultType.decompose(decimalMean);
        return integral(count == 0 ? BigInteger.ZERO : sum.divide(BigDecimal.valueOf(count), MathContext.DECIMAL128).toBigInteger());
    }

    void reset() {
        sum = BigDecimal.ZERO;
        decimalMean = BigDecimal.ZERO;
        floatingSum = 0;
        count = 0;
    }

    private boolean isFloating() {
        return resultType.kind() == CqlType.Kind.FLOAT || resultType.kind() == CqlType.Kind.DOUBLE;
    }

    /** An integral value of the result type, wrapping on overflow as Cassandra's fixed-size sums do. */
    private ByteBuffer integral(BigInteger value) {
        return switch (resultType.kind()) {
            case TINYINT -> ByteBuffer.allocate(1).put(0, value.byteValue());
            case SMALLINT -> ByteBuffer.allocate(2).putShort(0, value.shortValue());
            case INT -> ByteBuffer.allocate(4).putInt(0, value.intValue());
            case BIGINT -> ByteBuffer.allocate(8).putLong(0, value.longValue());
            default -> resultType.fromString(value.toString());
        };
    }
}
