package ballot.cql.type;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Cassandra's comparators, case by case; random agreement with the key encoding is in {@link ComparableEncodingTest}. */
class CompareTest {
    private static ByteBuffer bytes(String hex) {
        return ByteBuffer.wrap(HexFormat.of().parseHex(hex));
    }

    /** Asserts {@code values} are in strictly ascending order under {@code type}, and every value equals itself. */
    private static void assertAscending(CqlType type, ByteBuffer... values) {
        for (int i = 0; i < values.length; i++) {
            assertThat(type.compare(values[i], values[i].duplicate())).isZero();
            for (int j = i + 1; j < values.length; j++) {
                assertThat(type.compare(values[i], values[j])).as("%s < %s", i, j).isNegative();
                assertThat(type.compare(values[j], values[i])).as("%s > %s", j, i).isPositive();
            }
        }
    }

    @Test
    void emptyValuesSortFirst() {
        ByteBuffer empty = ByteBuffer.allocate(0);
        assertAscending(CqlTypes.INT, empty, CqlTypes.INT.decompose(Integer.MIN_VALUE));
        assertAscending(CqlTypes.TEXT, empty, CqlTypes.TEXT.decompose("\u0000"));
        assertAscending(CqlTypes.BOOLEAN, empty, CqlTypes.BOOLEAN.decompose(false));
        TupleType tuple = CqlTypes.tuple(List.of(CqlTypes.INT));
        assertAscending(tuple, empty, tuple.pack(Arrays.asList((ByteBuffer) null)), tuple.pack(List.of(CqlTypes.INT.decompose(0))));
    }

    @Test
    void textAndBlobsCompareAsUnsignedBytes() {
        assertAscending(CqlTypes.TEXT, CqlTypes.TEXT.decompose("Z"), CqlTypes.TEXT.decompose("a"),
                CqlTypes.TEXT.decompose("ab"), CqlTypes.TEXT.decompose("\u00e9"), CqlTypes.TEXT.decompose("\ud83d\ude00"));
        assertAscending(CqlTypes.BLOB, bytes("00"), bytes("0000"), bytes("7f"), bytes("80"), bytes("ff"));
        assertAscending(CqlTypes.INET, bytes("01020304"), bytes("0a000001"), bytes("20010db8000000000000000000000001"),
                bytes("ff000000"));
    }

    @Test
    void numbersCompareNumerically() {
        assertAscending(CqlTypes.VARINT, bytes("ff7f"), bytes("80"), bytes("ff"), bytes("00"), bytes("01"), bytes("00ff"),
                bytes("0100"));
        assertThat(CqlTypes.VARINT.compare(bytes("0001"), bytes("01"))).isZero();
        assertAscending(CqlTypes.DECIMAL, CqlTypes.DECIMAL.fromString("-1E+3"), CqlTypes.DECIMAL.fromString("-1.5"),
                CqlTypes.DECIMAL.fromString("0"), CqlTypes.DECIMAL.fromString("0.001"), CqlTypes.DECIMAL.fromString("1.5"));
        assertThat(CqlTypes.DECIMAL.compare(CqlTypes.DECIMAL.fromString("1.0"), CqlTypes.DECIMAL.fromString("1.00"))).isZero();
        assertAscending(CqlTypes.DOUBLE, CqlTypes.DOUBLE.fromString("-Infinity"), CqlTypes.DOUBLE.fromString("-0.0"),
                CqlTypes.DOUBLE.fromString("0.0"), CqlTypes.DOUBLE.fromString("Infinity"), CqlTypes.DOUBLE.fromString("NaN"));
        assertAscending(CqlTypes.TINYINT, CqlTypes.TINYINT.decompose((byte) -128), CqlTypes.TINYINT.decompose((byte) 127));
        assertAscending(CqlTypes.BOOLEAN, bytes("00"), bytes("01"));
        assertThat(CqlTypes.BOOLEAN.compare(bytes("01"), bytes("ff"))).isZero();
    }

    @Test
    void datesAndTimesCompareUnsigned() {
        assertAscending(CqlTypes.DATE, CqlTypes.DATE.fromString("-0001-01-01"), CqlTypes.DATE.fromString("1969-12-31"),
                CqlTypes.DATE.fromString("1970-01-01"), CqlTypes.DATE.fromString("+10000-01-01"));
        assertAscending(CqlTypes.TIME, CqlTypes.TIME.fromString("0"), CqlTypes.TIME.fromString("23:59:59.999999999"));
        assertAscending(CqlTypes.TIMESTAMP, CqlTypes.TIMESTAMP.fromString("-1"), CqlTypes.TIMESTAMP.fromString("0"));
    }

    @Test
    void timeuuidsCompareByTimestampThenSignedBytes() {
        // same node/clock sequence, later timestamp: time_low is larger in the first but time_hi decides
        ByteBuffer early = CqlTypes.TIMEUUID.fromString("ffffffff-ffff-11e0-8000-000000000000");
        ByteBuffer late = CqlTypes.TIMEUUID.fromString("00000000-0000-11e1-8000-000000000000");
        assertAscending(CqlTypes.TIMEUUID, early, late);
        // equal timestamps: the low bytes compare signed, so 0x80 sorts before 0x7f
        assertAscending(CqlTypes.TIMEUUID, CqlTypes.TIMEUUID.fromString("00000000-0000-1000-8000-000000000000"),
                CqlTypes.TIMEUUID.fromString("00000000-0000-1000-7f00-000000000000"));
    }

    @Test
    void uuidsCompareByVersionThenTimeOrBitsThenUnsignedLowBytes() {
        ByteBuffer nil = CqlTypes.UUID.fromString("00000000-0000-0000-0000-000000000000");
        ByteBuffer v1Late = CqlTypes.UUID.fromString("00000000-0000-11e1-8000-000000000000");
        ByteBuffer v1Early = CqlTypes.UUID.fromString("ffffffff-ffff-11e0-8000-000000000000");
        ByteBuffer v4Small = CqlTypes.UUID.fromString("00000000-0000-4000-0000-000000000000");
        ByteBuffer v4Big = CqlTypes.UUID.fromString("ffffffff-0000-4000-0000-000000000000");
        assertAscending(CqlTypes.UUID, nil, v1Early, v1Late, v4Small, v4Big);
        // unlike timeuuid, uuid compares the low bytes unsigned
        assertAscending(CqlTypes.UUID, CqlTypes.UUID.fromString("00000000-0000-1000-7f00-000000000000"),
                CqlTypes.UUID.fromString("00000000-0000-1000-8000-000000000000"));
    }

    @Test
    void frozenCollectionsCompareElementByElementThenBySize() {
        ListType list = CqlTypes.list(CqlTypes.INT, true);
        assertAscending(list, list.pack(List.of()), list.pack(List.of(CqlTypes.INT.decompose(-1))),
                list.pack(List.of(CqlTypes.INT.decompose(1))),
                list.pack(List.of(CqlTypes.INT.decompose(1), CqlTypes.INT.decompose(0))),
                list.pack(List.of(CqlTypes.INT.decompose(2))));
        MapType map = CqlTypes.map(CqlTypes.TEXT, CqlTypes.INT, true);
        assertAscending(map, map.pack(List.of(java.util.Map.entry(CqlTypes.TEXT.decompose("a"), CqlTypes.INT.decompose(2)))),
                map.pack(List.of(java.util.Map.entry(CqlTypes.TEXT.decompose("a"), CqlTypes.INT.decompose(3)))),
                map.pack(List.of(java.util.Map.entry(CqlTypes.TEXT.decompose("b"), CqlTypes.INT.decompose(0)))));
    }

    @Test
    void tuplesTreatMissingFieldsAsNullAndNullFirst() {
        TupleType tuple = CqlTypes.tuple(List.of(CqlTypes.INT, CqlTypes.TEXT));
        ByteBuffer oneOnly = bytes("0000000400000001");
        ByteBuffer oneAndNull = bytes("0000000400000001ffffffff");
        ByteBuffer oneAndText = tuple.pack(List.of(CqlTypes.INT.decompose(1), CqlTypes.TEXT.decompose("")));
        ByteBuffer nullFirst = tuple.pack(Arrays.asList(null, CqlTypes.TEXT.decompose("z")));
        assertThat(tuple.compare(oneOnly, oneAndNull)).isZero();
        assertAscending(tuple, nullFirst, oneAndNull, oneAndText);
    }

    @Test
    void durationsCompareAsBytes() {
        List<ByteBuffer> values = new ArrayList<>(List.of(CqlTypes.DURATION.fromString("1d"), CqlTypes.DURATION.fromString("1h")));
        values.sort(CqlTypes.DURATION::compare);
        assertThat(values.get(0)).isEqualTo(CqlTypes.DURATION.fromString("1h"));
    }
}
