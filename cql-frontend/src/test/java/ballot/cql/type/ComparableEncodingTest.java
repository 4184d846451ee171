package ballot.cql.type;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.InvalidRequestException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The key encoding's contract, checked on seeded random values of every type allowed in a key: byte order is
 * {@code compare}'s order, no encoding is a prefix of another, decoding gives the canonical value, inverted bytes sort
 * in reverse, and concatenated components sort as tuples.
 */
class ComparableEncodingTest {
    private static final long SEED = 20261122L;
    private static final int VALUES = 160;
    private static final int PAIRS = 1200;

    static Stream<CqlType> keyTypes() {
        UserType address = CqlTypes.userType("ks", "Address", List.of("street", "zip"),
                List.of(CqlTypes.TEXT, CqlTypes.INT), true);
        return Stream.of(CqlTypes.ASCII, CqlTypes.BIGINT, CqlTypes.BLOB, CqlTypes.BOOLEAN, CqlTypes.DATE,
                CqlTypes.DECIMAL, CqlTypes.DOUBLE, CqlTypes.FLOAT, CqlTypes.INET, CqlTypes.INT, CqlTypes.SMALLINT,
                CqlTypes.TEXT, CqlTypes.TIME, CqlTypes.TIMESTAMP, CqlTypes.TIMEUUID, CqlTypes.TINYINT, CqlTypes.UUID,
                CqlTypes.VARINT,
                CqlTypes.list(CqlTypes.TEXT, true), CqlTypes.set(CqlTypes.DECIMAL, true),
                CqlTypes.map(CqlTypes.INT, CqlTypes.list(CqlTypes.BLOB, true), true),
                CqlTypes.tuple(List.of(CqlTypes.INT, CqlTypes.TEXT, CqlTypes.VARINT)),
                CqlTypes.tuple(List.of(CqlTypes.tuple(List.of(CqlTypes.BOOLEAN, CqlTypes.UUID)), CqlTypes.DOUBLE)),
                address, CqlTypes.vector(CqlTypes.FLOAT, 3), CqlTypes.vector(CqlTypes.TEXT, 2));
    }

    private static byte[] encode(CqlType type, ByteBuffer value) {
        ComparableBytesWriter out = new ComparableBytesWriter(8);
        type.encodeComparable(value, out);
        return out.toByteArray();
    }

    private static List<ByteBuffer> values(CqlType type, long seed) {
        RandomValues random = new RandomValues(seed);
        List<ByteBuffer> values = new ArrayList<>();
        for (int i = 0; i < VALUES; i++)
            values.add(random.next(type));
        return values;
    }

    @ParameterizedTest
    @MethodSource("keyTypes")
    void byteOrderIsCompareOrderAndNoEncodingIsAPrefixOfAnother(CqlType type) {
        List<ByteBuffer> values = values(type, SEED + type.cqlName().hashCode());
        Random pick = new Random(SEED);
        for (int i = 0; i < PAIRS; i++) {
            ByteBuffer a = values.get(pick.nextInt(values.size()));
            ByteBuffer b = pick.nextInt(8) == 0 ? a.duplicate() : values.get(pick.nextInt(values.size()));
            byte[] ea = encode(type, a);
            byte[] eb = encode(type, b);
            int expected = Integer.signum(type.compare(a, b));
            assertThat(Integer.signum(Arrays.compareUnsigned(ea, eb)))
                    .as("%s: %s vs %s", type, hex(a), hex(b)).isEqualTo(expected);
            if (ea.length != eb.length) {
                int n = Math.min(ea.length, eb.length);
                assertThat(Arrays.equals(ea, 0, n, eb, 0, n)).as("prefix: %s vs %s", hex(a), hex(b)).isFalse();
            }
            assertThat(Integer.signum(Arrays.compareUnsigned(inverted(ea), inverted(eb))))
                    .as("DESC %s vs %s", hex(a), hex(b)).isEqualTo(-expected);
        }
    }

    @ParameterizedTest
    @MethodSource("keyTypes")
    void decodingGivesTheCanonicalValue(CqlType type) {
        for (ByteBuffer value : values(type, SEED - type.cqlName().hashCode())) {
            byte[] encoded = encode(type, value);
            ComparableBytesReader in = new ComparableBytesReader(encoded);
            ByteBuffer decoded = type.decodeComparable(in);
            assertThat(in.hasRemaining()).as("%s left bytes", hex(value)).isFalse();
            assertThat(hex(decoded)).as("%s decoded", hex(value)).isEqualTo(hex(type.canonical(value)));
            if (type.hasOneForm()) assertThat(hex(decoded)).as("%s has one form", type).isEqualTo(hex(value));
            assertThat(type.compare(decoded, value)).isZero();
            assertThat(encode(type, decoded)).isEqualTo(encoded);
        }
    }

    @ParameterizedTest
    @MethodSource("keyTypes")
    void valuesBuiltByThisPackageAreTheirOwnCanonicalForm(CqlType type) {
        RandomValues random = new RandomValues(SEED);
        for (int i = 0; i < 50; i++) {
            ByteBuffer canonical = type.canonical(random.next(type));
            assertThat(hex(type.canonical(canonical))).isEqualTo(hex(canonical));
            assertThat(hex(type.decodeComparable(new ComparableBytesReader(encode(type, canonical))))).isEqualTo(hex(canonical));
        }
    }

    /** Two components per key, the second DESC: keys sort as (a asc, b desc) and decode component by component. */
    @Test
    void concatenatedComponentsSortAsTuplesWithDescendingComponentsInverted() {
        CqlType first = CqlTypes.TEXT;
        CqlType second = CqlTypes.VARINT;
        List<ByteBuffer> as = values(first, 1);
        List<ByteBuffer> bs = values(second, 2);
        Random pick = new Random(3);
        for (int i = 0; i < 2000; i++) {
            ByteBuffer a1 = as.get(pick.nextInt(as.size())), a2 = as.get(pick.nextInt(as.size()));
            ByteBuffer b1 = bs.get(pick.nextInt(bs.size())), b2 = bs.get(pick.nextInt(bs.size()));
            byte[] k1 = key(first, a1, second, b1);
            byte[] k2 = key(first, a2, second, b2);
            int c = first.compare(a1, a2);
            int expected = Integer.signum(c != 0 ? c : -second.compare(b1, b2));
            assertThat(Integer.signum(Arrays.compareUnsigned(k1, k2))).isEqualTo(expected);

            ComparableBytesReader in = new ComparableBytesReader(k1);
            assertThat(first.decodeComparable(in)).isEqualTo(first.canonical(a1));
            in.inverted(true);
            assertThat(second.decodeComparable(in)).isEqualTo(second.canonical(b1));
            assertThat(in.hasRemaining()).isFalse();
        }
    }

    private static byte[] key(CqlType first, ByteBuffer a, CqlType second, ByteBuffer b) {
        ComparableBytesWriter out = new ComparableBytesWriter();
        first.encodeComparable(a, out);
        int start = out.length();
        second.encodeComparable(b, out);
        out.invert(start, out.length());
        return out.toByteArray();
    }

    @Test
    void encodingsAreCompactAndDocumented() {
        assertThat(hexEncoding(CqlTypes.INT, CqlTypes.INT.decompose(1))).isEqualTo("0180000001");
        assertThat(hexEncoding(CqlTypes.INT, ByteBuffer.allocate(0))).isEqualTo("00");
        assertThat(hexEncoding(CqlTypes.SMALLINT, CqlTypes.SMALLINT.decompose((short) -1))).isEqualTo("7fff");
        assertThat(hexEncoding(CqlTypes.BOOLEAN, CqlTypes.BOOLEAN.decompose(true))).isEqualTo("02");
        assertThat(hexEncoding(CqlTypes.TEXT, CqlTypes.TEXT.decompose("a\u0000b"))).isEqualTo("0161010162" + "00");
        assertThat(hexEncoding(CqlTypes.VARINT, CqlTypes.VARINT.fromString("255"))).isEqualTo("018100ff");
        assertThat(hexEncoding(CqlTypes.VARINT, CqlTypes.VARINT.fromString("-1"))).isEqualTo("017fff");
        // decimal: sign header, exponent as an ordered long, digit pairs plus one, terminator; inverted when negative
        assertThat(hexEncoding(CqlTypes.DECIMAL, CqlTypes.DECIMAL.fromString("1.5"))).isEqualTo("01" + "c0" + "81" + "10" + "00");
        assertThat(hexEncoding(CqlTypes.DECIMAL, CqlTypes.DECIMAL.fromString("-1.5"))).isEqualTo("01" + "40" + "7f" + "ef" + "ff");
        assertThat(hexEncoding(CqlTypes.DECIMAL, CqlTypes.DECIMAL.fromString("0.00"))).isEqualTo("0180");
        // timeuuid: time_hi (with version), time_mid, time_low, then the low 8 bytes with each sign bit flipped
        assertThat(hexEncoding(CqlTypes.TIMEUUID, CqlTypes.TIMEUUID.fromString("2a92d750-d8dc-11e6-a2de-cf8ecd4cf053")))
                .isEqualTo("01" + "11e6d8dc2a92d750" + "225e4f0e4dcc70d3");
        assertThat(hexEncoding(CqlTypes.UUID, CqlTypes.UUID.fromString("cc520882-9507-44fb-8fc9-b349ecdee658")))
                .isEqualTo("01" + "4cc52088295074fb" + "8fc9b349ecdee658");
    }

    @Test
    void equalValuesShareOneEncoding() {
        assertThat(hexEncoding(CqlTypes.DECIMAL, CqlTypes.DECIMAL.fromString("1.50")))
                .isEqualTo(hexEncoding(CqlTypes.DECIMAL, CqlTypes.DECIMAL.fromString("1.5")));
        assertThat(hexEncoding(CqlTypes.VARINT, ByteBuffer.wrap(new byte[] {0, 0, 5})))
                .isEqualTo(hexEncoding(CqlTypes.VARINT, ByteBuffer.wrap(new byte[] {5})));
        assertThat(hexEncoding(CqlTypes.BOOLEAN, ByteBuffer.wrap(new byte[] {7})))
                .isEqualTo(hexEncoding(CqlTypes.BOOLEAN, ByteBuffer.wrap(new byte[] {1})));
        TupleType tuple = CqlTypes.tuple(List.of(CqlTypes.INT, CqlTypes.TEXT));
        ByteBuffer shortForm = ByteBuffer.wrap(HexFormat.of().parseHex("0000000400000001"));
        assertThat(hexEncoding(tuple, shortForm))
                .isEqualTo(hexEncoding(tuple, tuple.pack(Arrays.asList(CqlTypes.INT.decompose(1), null))));
        assertThat(hex(tuple.canonical(shortForm))).isEqualTo("0000000400000001ffffffff");
    }

    @Test
    void decimalCanonicalFormDropsTrailingZerosAndKeepsSmallIntegersPlain() {
        assertThat(CqlTypes.DECIMAL.compose(CqlTypes.DECIMAL.canonical(CqlTypes.DECIMAL.fromString("100.00"))))
                .hasToString("100");
        assertThat(CqlTypes.DECIMAL.compose(CqlTypes.DECIMAL.canonical(CqlTypes.DECIMAL.fromString("1.2300"))))
                .hasToString("1.23");
        assertThat(CqlTypes.DECIMAL.compose(CqlTypes.DECIMAL.canonical(CqlTypes.DECIMAL.fromString("1E+40"))))
                .hasToString("1E+40");
        assertThat(CqlTypes.DECIMAL.compose(CqlTypes.DECIMAL.canonical(CqlTypes.DECIMAL.fromString("-0.000"))))
                .hasToString("0");
    }

    @Test
    void typesOutsideKeysRefuseToEncode() {
        ComparableBytesWriter out = new ComparableBytesWriter();
        assertThatThrownBy(() -> CqlTypes.COUNTER.encodeComparable(CqlTypes.COUNTER.decompose(1L), out))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("counter");
        assertThatThrownBy(() -> CqlTypes.DURATION.encodeComparable(CqlTypes.DURATION.fromString("1h"), out))
                .isInstanceOf(InvalidRequestException.class);
        ListType nonFrozen = CqlTypes.list(CqlTypes.INT, false);
        assertThatThrownBy(() -> nonFrozen.encodeComparable(nonFrozen.pack(List.of()), out))
                .isInstanceOf(InvalidRequestException.class).hasMessageContaining("list<int>");
        TupleType withDuration = CqlTypes.tuple(List.of(CqlTypes.DURATION));
        assertThat(withDuration.isAllowedInPrimaryKey()).isFalse();
        assertThat(CqlTypes.INT.isAllowedInPrimaryKey()).isTrue();
    }

    @Test
    void invalidValuesAreRejectedBeforeEncoding() {
        assertThatThrownBy(() -> CqlTypes.INT.encodeComparable(ByteBuffer.allocate(3), new ComparableBytesWriter()))
                .isInstanceOf(InvalidRequestException.class).hasMessage("Expected 4 or 0 byte int (3)");
    }

    @Test
    void truncatedOrForeignBytesFailToDecode() {
        assertThatThrownBy(() -> CqlTypes.INT.decodeComparable(new ComparableBytesReader(new byte[] {1, (byte) 0x80})))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unexpected end");
        assertThatThrownBy(() -> CqlTypes.INT.decodeComparable(new ComparableBytesReader(new byte[] {5})))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("presence");
    }

    @Test
    void orderedLongsSortNumericallyAndRoundTrip() {
        long[] samples = {Long.MIN_VALUE, -(1L << 40), -257, -256, -255, -65, -64, -1, 0, 1, 63, 64, 255, 256,
                1L << 40, Long.MAX_VALUE};
        byte[] previous = null;
        for (long v : samples) {
            ComparableBytesWriter out = new ComparableBytesWriter();
            out.writeOrderedLong(v);
            byte[] encoded = out.toByteArray();
            assertThat(new ComparableBytesReader(encoded).readOrderedLong()).isEqualTo(v);
            if (previous != null)
                assertThat(Arrays.compareUnsigned(previous, encoded)).as("%d", v).isNegative();
            previous = encoded;
        }
    }

    private static byte[] inverted(byte[] bytes) {
        byte[] out = bytes.clone();
        for (int i = 0; i < out.length; i++)
            out[i] = (byte) ~out[i];
        return out;
    }

    private static String hexEncoding(CqlType type, ByteBuffer value) {
        return HexFormat.of().formatHex(encode(type, value));
    }

    static String hex(ByteBuffer value) {
        return value == null ? "null" : Hex.encode(value);
    }
}
