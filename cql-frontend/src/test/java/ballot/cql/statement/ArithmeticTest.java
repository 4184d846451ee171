package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.ErrorCode;
import ballot.cql.error.FunctionFailureException;
import ballot.cql.type.CqlType;
import ballot.cql.type.CqlTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** Arithmetic as Cassandra 5.0 computes it (its OperationFctsTest's cases): result types, IEEE floats, exact decimals. */
class ArithmeticTest {
    @Test
    void theResultIsFloatingIfAnOperandIsAndAsWideAsTheWiderOperand() {
        assertThat(Arithmetic.resultType(CqlTypes.TINYINT, CqlTypes.TINYINT)).isEqualTo(CqlTypes.TINYINT);
        assertThat(Arithmetic.resultType(CqlTypes.SMALLINT, CqlTypes.TINYINT)).isEqualTo(CqlTypes.SMALLINT);
        assertThat(Arithmetic.resultType(CqlTypes.TINYINT, CqlTypes.FLOAT)).isEqualTo(CqlTypes.FLOAT);
        assertThat(Arithmetic.resultType(CqlTypes.INT, CqlTypes.FLOAT)).isEqualTo(CqlTypes.FLOAT);
        assertThat(Arithmetic.resultType(CqlTypes.BIGINT, CqlTypes.FLOAT)).as("8 bytes, floating").isEqualTo(CqlTypes.DOUBLE);
        assertThat(Arithmetic.resultType(CqlTypes.VARINT, CqlTypes.FLOAT)).as("unbounded, floating").isEqualTo(CqlTypes.DECIMAL);
        assertThat(Arithmetic.resultType(CqlTypes.VARINT, CqlTypes.BIGINT)).isEqualTo(CqlTypes.VARINT);
        assertThat(Arithmetic.resultType(CqlTypes.COUNTER, CqlTypes.INT)).isEqualTo(CqlTypes.BIGINT);
        assertThat(Arithmetic.resultType(CqlTypes.COUNTER, CqlTypes.FLOAT)).isEqualTo(CqlTypes.DOUBLE);
        assertThat(Arithmetic.resultType(CqlTypes.DOUBLE, CqlTypes.DECIMAL)).isEqualTo(CqlTypes.DECIMAL);
    }

    @Test
    void floatsAndDoublesFollowIeee754() {
        assertThat(apply(Float.NaN, '+', 1)).isEqualTo(Float.NaN);
        assertThat(apply(Double.POSITIVE_INFINITY, '-', 1)).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(apply(5.5f, '/', (byte) 0)).isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(apply(6.5, '/', (byte) 0)).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(apply(6.5, '%', 0)).isEqualTo(Double.NaN);
        assertThat(apply(1, '/', 3f)).isEqualTo(1f / 3f);
        assertThat(apply(4L, '+', 5.5f)).isEqualTo(9.5);
        assertThat(negate(Float.NaN)).isEqualTo(Float.NaN);
        assertThat(negate(Double.NEGATIVE_INFINITY)).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(negate(-0.0)).isEqualTo(0.0);
    }

    @Test
    void fixedSizeIntegersWrapOnOverflow() {
        assertThat(apply(Integer.MAX_VALUE, '+', 1)).isEqualTo(Integer.MIN_VALUE);
        assertThat(apply(Byte.MAX_VALUE, '+', (byte) 1)).isEqualTo(Byte.MIN_VALUE);
        assertThat(apply(Short.MAX_VALUE, '+', (short) 1)).isEqualTo(Short.MIN_VALUE);
        assertThat(apply(Long.MIN_VALUE, '/', -1L)).isEqualTo(Long.MIN_VALUE);
        assertThat(apply(7, '%', -2)).isEqualTo(1);
        assertThat(apply(-7, '/', 2)).isEqualTo(-3);
        assertThat(negate(Integer.MIN_VALUE)).isEqualTo(Integer.MIN_VALUE);
        assertThat(negate((byte) 5)).isEqualTo((byte) -5);
    }

    @Test
    void varintsAndDecimalsAreExact() {
        assertThat(apply(BigInteger.valueOf(7), '/', (byte) 2)).isEqualTo(BigInteger.valueOf(3));
        assertThat(apply(new BigDecimal("8.5"), '*', (byte) 1)).as("1 becomes 1.0").isEqualTo(new BigDecimal("8.50"));
        assertThat(apply(new BigDecimal("8.5"), '/', 3)).isEqualTo(new BigDecimal("2.83333333333333333333333333333333"));
        assertThat(apply(new BigDecimal("10000"), '/', new BigDecimal("3"))).isEqualTo(new BigDecimal("3333.33333333333333333333333333333333"));
        assertThat(apply(new BigDecimal("8.5"), '/', new BigDecimal("200000000000000000000000000000000000")))
                .isEqualTo(new BigDecimal("0.0000000000000000000000000000000000425"));
        assertThat(apply(new BigDecimal("8.5"), '/', new BigDecimal("8.5"))).isEqualTo(new BigDecimal("1"));
        assertThat(apply(1, '%', new BigDecimal("8.5"))).isEqualTo(new BigDecimal("1.0"));
        assertThat(apply(BigInteger.valueOf(7), '%', new BigDecimal("8.5"))).isEqualTo(new BigDecimal("7"));
        assertThat(apply(BigInteger.valueOf(7), '+', 5.5f)).isEqualTo(new BigDecimal("12.5"));
        assertThat(negate(new BigDecimal("8.5"))).isEqualTo(new BigDecimal("-8.5"));
    }

    @Test
    void failuresAreFunctionFailuresNamingTheOperation() {
        assertFails(new BigDecimal("1"), '+', Double.NaN, "_add", "the operation 'decimal + double' failed: A NaN cannot be converted into a decimal");
        assertFails(new BigDecimal("1"), '-', Float.NEGATIVE_INFINITY, "_substract",
                "the operation 'decimal - float' failed: An infinite number cannot be converted into a decimal");
        assertFails(3, '/', (byte) 0, "_divide", "the operation 'int / tinyint' failed: / by zero");
        assertFails((byte) 3, '%', (byte) 0, "_modulo", "the operation 'tinyint % tinyint' failed: / by zero");
        assertFails(BigInteger.valueOf(7), '/', (byte) 0, "_divide", "the operation 'varint / tinyint' failed: BigInteger divide by zero");
        assertFails(new BigDecimal("8.5"), '/', (byte) 0, "_divide", "the operation 'decimal / tinyint' failed: BigInteger divide by zero");
    }

    private static void assertFails(Object left, char op, Object right, String function, String message) {
        assertThatThrownBy(() -> apply(left, op, right)).isInstanceOfSatisfying(FunctionFailureException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.FUNCTION_FAILURE);
            assertThat(e.getMessage()).isEqualTo(message);
            assertThat(e.keyspace()).isEqualTo("system");
            assertThat(e.function()).isEqualTo(function);
            assertThat(e.argumentTypes()).containsExactly(typeOf(left).cqlName(), typeOf(right).cqlName());
        });
    }

    /** {@code left op right} on values of the Java types' CQL types, in Cassandra's result type. */
    private static Object apply(Object left, char op, Object right) {
        CqlType l = typeOf(left);
        CqlType r = typeOf(right);
        CqlType result = Arithmetic.resultType(l, r);
        return result.compose(Arithmetic.apply(op, l, l.decompose(left), r, r.decompose(right), result));
    }

    private static Object negate(Object value) {
        CqlType type = typeOf(value);
        return type.compose(Arithmetic.negate(type, type.decompose(value)));
    }

    private static CqlType typeOf(Object value) {
        if (value instanceof Byte) return CqlTypes.TINYINT;
        if (value instanceof Short) return CqlTypes.SMALLINT;
        if (value instanceof Integer) return CqlTypes.INT;
        if (value instanceof Long) return CqlTypes.BIGINT;
        if (value instanceof Float) return CqlTypes.FLOAT;
        if (value instanceof Double) return CqlTypes.DOUBLE;
        if (value instanceof BigInteger) return CqlTypes.VARINT;
        if (value instanceof BigDecimal) return CqlTypes.DECIMAL;
        throw new IllegalArgumentException("not a CQL number: " + value);
    }
}
