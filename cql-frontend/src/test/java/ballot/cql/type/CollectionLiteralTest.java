package ballot.cql.type;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.InvalidRequestException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Packing literal elements into collection, tuple, UDT and vector values, unpacking them, and their Java forms. */
class CollectionLiteralTest {
    private static ByteBuffer i(int v) {
        return CqlTypes.INT.decompose(v);
    }

    private static ByteBuffer t(String v) {
        return CqlTypes.TEXT.decompose(v);
    }

    @Test
    void listsKeepOrderAndDuplicates() {
        ListType list = CqlTypes.list(CqlTypes.INT, false);
        ByteBuffer value = list.pack(List.of(i(3), i(1), i(3)));
        assertThat(Hex.encode(value)).isEqualTo("00000003" + "0000000400000003" + "0000000400000001" + "0000000400000003");
        assertThat(list.unpack(value)).containsExactly(i(3), i(1), i(3));
        assertThat(list.compose(value)).isEqualTo(List.of(3, 1, 3));
        assertThat(list.decompose(List.of(3, 1, 3))).isEqualTo(value);
        assertThat(Hex.encode(list.pack(List.of()))).isEqualTo("00000000");
    }

    @Test
    void setsAreSortedByElementOrderWithoutDuplicates() {
        SetType set = CqlTypes.set(CqlTypes.INT, true);
        ByteBuffer value = set.pack(List.of(i(3), i(-1), i(3), i(1)));
        assertThat(set.unpack(value)).containsExactly(i(-1), i(1), i(3));
        assertThat(set.compose(value)).isEqualTo(new LinkedHashSet<>(List.of(-1, 1, 3)));
        SetType decimals = CqlTypes.set(CqlTypes.DECIMAL, true);
        assertThat(decimals.unpack(decimals.pack(List.of(CqlTypes.DECIMAL.fromString("1.0"), CqlTypes.DECIMAL.fromString("1.00")))))
                .hasSize(1);
    }

    @Test
    void mapsAreSortedByKeyAndTheLastValueWins() {
        MapType map = CqlTypes.map(CqlTypes.TEXT, CqlTypes.INT, false);
        ByteBuffer value = map.pack(List.of(Map.entry(t("b"), i(1)), Map.entry(t("a"), i(2)), Map.entry(t("b"), i(3))));
        assertThat(map.unpack(value)).containsExactly(Map.entry(t("a"), i(2)), Map.entry(t("b"), i(3)));
        Map<Object, Object> expected = new LinkedHashMap<>();
        expected.put("a", 2);
        expected.put("b", 3);
        assertThat(map.compose(value)).isEqualTo(expected);
        assertThat(map.decompose(Map.of("b", 3, "a", 2))).isEqualTo(value);
    }

    @Test
    void collectionsRefuseNullsAndInvalidElements() {
        ListType list = CqlTypes.list(CqlTypes.INT, false);
        assertThatThrownBy(() -> list.pack(Arrays.asList(i(1), null)))
                .isInstanceOf(InvalidRequestException.class).hasMessage("null is not supported inside collections");
        assertThatThrownBy(() -> list.pack(List.of(ByteBuffer.allocate(3)))).hasMessage("Expected 4 or 0 byte int (3)");
        MapType map = CqlTypes.map(CqlTypes.TEXT, CqlTypes.INT, false);
        assertThatThrownBy(() -> map.pack(List.of(new java.util.AbstractMap.SimpleEntry<>(t("a"), null))))
                .hasMessage("null is not supported inside collections");
    }

    @Test
    void malformedCollectionsAreRejectedInCassandrasWords() {
        ListType list = CqlTypes.list(CqlTypes.INT, true);
        assertThatThrownBy(() -> list.validate(ByteBuffer.allocate(0))).hasMessage("Not enough bytes to read a list");
        assertThatThrownBy(() -> list.validate(ByteBuffer.wrap(new byte[] {0, 0, 0, 1, -1, -1, -1, -1})))
                .hasMessage("Null value read when not allowed");
        assertThatThrownBy(() -> list.validate(ByteBuffer.wrap(new byte[] {0, 0, 0, 0, 1})))
                .hasMessage("Unexpected extraneous bytes after list value");
        SetType set = CqlTypes.set(CqlTypes.INT, true);
        assertThatThrownBy(() -> set.validate(ByteBuffer.wrap(new byte[] {0, 0, 0, 1, 0, 0, 0, 4, 1})))
                .hasMessage("Not enough bytes to read a set");
        MapType map = CqlTypes.map(CqlTypes.INT, CqlTypes.INT, true);
        assertThatThrownBy(() -> map.validate(ByteBuffer.wrap(new byte[] {0, 0, 0, 1, 0, 0, 0, 0})))
                .hasMessage("Not enough bytes to read a map");
    }

    @Test
    void tuplesPadMissingComponentsWithNulls() {
        TupleType tuple = CqlTypes.tuple(List.of(CqlTypes.INT, CqlTypes.TEXT, CqlTypes.BOOLEAN));
        ByteBuffer value = tuple.pack(Arrays.asList(i(1), null));
        assertThat(Hex.encode(value)).isEqualTo("0000000400000001" + "ffffffff" + "ffffffff");
        assertThat(tuple.unpack(value)).containsExactly(i(1), null, null);
        assertThat(tuple.compose(value)).isEqualTo(Arrays.asList(1, null, null));
        assertThat(tuple.decompose(Arrays.asList(1, null))).isEqualTo(value);
        assertThatThrownBy(() -> tuple.pack(List.of(i(1), t("x"), i(2), i(3))))
                .hasMessage("Invalid tuple literal: too many elements. Type frozen<tuple<int, text, boolean>> expects 3 but got 4");
        assertThatThrownBy(() -> tuple.pack(List.of(i(1), ByteBuffer.wrap(new byte[] {(byte) 0xff}))))
                .isInstanceOf(InvalidRequestException.class).hasMessage("String didn't validate.");
    }

    @Test
    void tupleValidationNamesTheComponent() {
        TupleType tuple = CqlTypes.tuple(List.of(CqlTypes.INT, CqlTypes.TEXT));
        assertThatThrownBy(() -> tuple.validate(ByteBuffer.wrap(new byte[] {0, 0, 0, 4, 0})))
                .hasMessage("Not enough bytes to read 0th component");
        assertThatThrownBy(() -> tuple.validate(ByteBuffer.wrap(new byte[] {0, 0, 0, 0, 0, 0})))
                .hasMessage("Not enough bytes to read size of 1th component");
        assertThatThrownBy(() -> tuple.validate(ByteBuffer.wrap(new byte[] {-1, -1, -1, -1, -1, -1, -1, -1, 7})))
                .hasMessage("Invalid remaining data after end of tuple value");
        tuple.validate(ByteBuffer.allocate(0));
        tuple.validate(ByteBuffer.wrap(new byte[] {0, 0, 0, 0}));
    }

    @Test
    void userTypesPackByFieldName() {
        UserType address = CqlTypes.userType("ks", "address", List.of("street", "Zip", "city"),
                List.of(CqlTypes.TEXT, CqlTypes.INT, CqlTypes.TEXT), true);
        ByteBuffer value = address.pack(Map.of("Zip", i(7), "street", t("main")));
        assertThat(address.unpack(value)).containsExactly(t("main"), i(7), null);
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("street", "main");
        expected.put("Zip", 7);
        expected.put("city", null);
        assertThat(address.compose(value)).isEqualTo(expected);
        assertThat(address.decompose(Map.of("street", "main", "Zip", 7))).isEqualTo(value);
        assertThat(address.decompose(Arrays.asList("main", 7))).isEqualTo(value);
        assertThat(address.fieldIndex("Zip")).isEqualTo(1);
        assertThat(address.fieldIndex("zip")).isEqualTo(-1);
        assertThatThrownBy(() -> address.pack(Map.of("zip", i(1))))
                .hasMessage("Unknown field 'zip' in value of user defined type address");
        assertThatThrownBy(() -> address.pack(Map.of("Zip", t("x"))))
                .hasMessage("Failure validating the 1th field Zip; Expected 4 or 0 byte int (1)");
        assertThatThrownBy(() -> address.validate(ByteBuffer.wrap(new byte[] {0, 0, 0, 9})))
                .hasMessage("Not enough bytes to read 0th field street");
    }

    @Test
    void userTypesCarryTheirIdentity() {
        UserType a = CqlTypes.userType("ks", "t", List.of("x"), List.of(CqlTypes.INT), false);
        assertThat(a.isMultiCell()).isTrue();
        assertThat(a.freeze().isMultiCell()).isFalse();
        assertThat(a.freeze().unfreeze()).isEqualTo(a);
        assertThat(a).isNotEqualTo(a.freeze()).isNotEqualTo(CqlTypes.userType("other", "t", List.of("x"), List.of(CqlTypes.INT), false));
        assertThat(a.keyspace()).isEqualTo("ks");
        assertThatThrownBy(() -> CqlTypes.userType("ks", "t", List.of("x", "x"), List.of(CqlTypes.INT, CqlTypes.INT), true))
                .isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> CqlTypes.userType("ks", "t", List.of("x"), List.of(CqlTypes.COUNTER), true))
                .hasMessage("A user type cannot contain counters");
    }

    @Test
    void vectorsLayFixedElementsBackToBackAndPrefixOthersWithVints() {
        VectorType floats = CqlTypes.vector(CqlTypes.FLOAT, 3);
        ByteBuffer f = floats.decompose(List.of(1.0f, 2.5f, -0.0f));
        assertThat(Hex.encode(f)).isEqualTo("3f800000" + "40200000" + "80000000");
        assertThat(floats.compose(f)).isEqualTo(List.of(1.0f, 2.5f, -0.0f));
        VectorType texts = CqlTypes.vector(CqlTypes.TEXT, 2);
        ByteBuffer s = texts.pack(List.of(t("a"), t("")));
        assertThat(Hex.encode(s)).isEqualTo("0161" + "00");
        ByteBuffer longText = texts.pack(List.of(t("x".repeat(200)), t("y")));
        assertThat(Hex.encode(longText)).startsWith("80c8"); // 200 as an unsigned vint
        assertThat(texts.unpack(longText)).containsExactly(t("x".repeat(200)), t("y"));
        VectorType smallints = CqlTypes.vector(CqlTypes.SMALLINT, 2);
        assertThat(Hex.encode(smallints.decompose(List.of((short) 1, (short) 2)))).isEqualTo("020001" + "020002");
        VectorType counters = CqlTypes.vector(CqlTypes.COUNTER, 2); // as gocql sends it to Cassandra 5.0
        assertThat(Hex.encode(counters.decompose(List.of(5L, -1L)))).isEqualTo("08" + "0000000000000005" + "08" + "ffffffffffffffff");
        assertThatThrownBy(() -> floats.pack(List.of(CqlTypes.FLOAT.decompose(1f)))).hasMessage("Required 3 elements, but saw 1");
        assertThatThrownBy(() -> floats.validate(ByteBuffer.allocate(8))).hasMessage("Not enough bytes to read a vector<float, 3>");
        assertThatThrownBy(() -> floats.validate(ByteBuffer.allocate(13))).hasMessage("Unexpected extraneous bytes after vector value");
        assertThatThrownBy(() -> floats.validate(ByteBuffer.allocate(0))).hasMessage("Invalid empty vector value");
    }

    @Test
    void typeFactoriesEnforceCassandrasRules() {
        assertThatThrownBy(() -> CqlTypes.list(CqlTypes.list(CqlTypes.INT, false), false))
                .hasMessage("Non-frozen collections are not allowed inside collections: list<list<int>>");
        assertThat(CqlTypes.list(CqlTypes.list(CqlTypes.INT, false), true).cqlName()).isEqualTo("frozen<list<frozen<list<int>>>>");
        assertThatThrownBy(() -> CqlTypes.set(CqlTypes.DURATION, true)).hasMessage("Durations are not allowed inside sets: set<duration>");
        assertThatThrownBy(() -> CqlTypes.map(CqlTypes.COUNTER, CqlTypes.INT, true))
                .hasMessage("Counters are not allowed inside collections: map<counter, int>");
        assertThatThrownBy(() -> CqlTypes.vector(CqlTypes.FLOAT, 0)).hasMessage("vectors may only have positive dimensions; given 0");
        assertThatThrownBy(() -> CqlTypes.tuple(List.of())).isInstanceOf(InvalidRequestException.class);
        assertThat(CqlTypes.tuple(List.of(CqlTypes.set(CqlTypes.INT, false))).fieldTypes().get(0).isMultiCell()).isFalse();
        assertThat(CqlTypes.list(CqlTypes.INT, false).freeze()).isEqualTo(CqlTypes.list(CqlTypes.INT, true));
        assertThat(CqlTypes.map(CqlTypes.INT, CqlTypes.DURATION, false).referencesDuration()).isTrue();
    }
}
