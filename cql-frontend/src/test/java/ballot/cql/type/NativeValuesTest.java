package ballot.cql.type;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.InvalidRequestException;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.HexFormat;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Native types: serialized forms (golden bytes, and agreement with the DataStax driver's codecs), validation, Java forms. */
class NativeValuesTest {
    static Stream<Arguments> goldenValues() throws Exception {
        return Stream.of(
                Arguments.of(CqlTypes.ASCII, "abc", "616263"),
                Arguments.of(CqlTypes.TEXT, "h\u00e9", "68c3a9"),
                Arguments.of(CqlTypes.BIGINT, -2L, "fffffffffffffffe"),
                Arguments.of(CqlTypes.COUNTER, 1L, "0000000000000001"),
                Arguments.of(CqlTypes.BLOB, ByteBuffer.wrap(new byte[] {(byte) 0xca, (byte) 0xfe}), "cafe"),
                Arguments.of(CqlTypes.BOOLEAN, true, "01"),
                Arguments.of(CqlTypes.BOOLEAN, false, "00"),
                Arguments.of(CqlTypes.DATE, LocalDate.of(1970, 1, 1), "80000000"),
                Arguments.of(CqlTypes.DATE, LocalDate.of(2011, 2, 3), "80003aa0"),
                Arguments.of(CqlTypes.DECIMAL, new BigDecimal("1.50"), "00000002" + "0096"),
                Arguments.of(CqlTypes.DECIMAL, new BigDecimal("1E+2"), "fffffffe" + "01"),
                Arguments.of(CqlTypes.DOUBLE, 1.5, "3ff8000000000000"),
                Arguments.of(CqlTypes.FLOAT, 1.5f, "3fc00000"),
                Arguments.of(CqlTypes.DURATION, new CqlDuration(0, 0, 5_400_000_000_000L), "00" + "00" + "fc09d29229e000"),
                Arguments.of(CqlTypes.DURATION, new CqlDuration(14, 3, 0), "1c" + "06" + "00"),
                Arguments.of(CqlTypes.DURATION, new CqlDuration(0, -1, 0), "00" + "01" + "00"),
                Arguments.of(CqlTypes.INET, InetAddress.getByName("127.0.0.1"), "7f000001"),
                Arguments.of(CqlTypes.INET, InetAddress.getByName("::1"), "00000000000000000000000000000001"),
                Arguments.of(CqlTypes.INT, -1, "ffffffff"),
                Arguments.of(CqlTypes.SMALLINT, (short) 300, "012c"),
                Arguments.of(CqlTypes.TINYINT, (byte) -128, "80"),
                Arguments.of(CqlTypes.TIME, LocalTime.of(8, 12, 54), "00001ae5bbc3bc00"),
                Arguments.of(CqlTypes.TIMESTAMP, Instant.ofEpochMilli(1296705900000L), "0000012de9b1cde0"),
                Arguments.of(CqlTypes.UUID, UUID.fromString("cc520882-9507-44fb-8fc9-b349ecdee658"), "cc520882950744fb8fc9b349ecdee658"),
                Arguments.of(CqlTypes.TIMEUUID, UUID.fromString("6bddc89a-5644-11e4-97fc-56847afe9799"), "6bddc89a564411e497fc56847afe9799"),
                Arguments.of(CqlTypes.VARINT, BigInteger.valueOf(255), "00ff"),
                Arguments.of(CqlTypes.VARINT, BigInteger.valueOf(-256), "ff00"));
    }

    @ParameterizedTest
    @MethodSource("goldenValues")
    void serializesToGoldenBytesAndComposesBack(CqlType type, Object value, String hex) {
        ByteBuffer serialized = type.decompose(value);
        assertThat(Hex.encode(serialized)).isEqualTo(hex);
        type.validate(serialized);
        Object composed = type.compose(serialized);
        if (value instanceof ByteBuffer)
            assertThat((ByteBuffer) composed).isEqualTo(value);
        else
            assertThat(composed).isEqualTo(value);
    }

    static Stream<Arguments> driverCodecs() throws Exception {
        return Stream.of(
                Arguments.of(CqlTypes.ASCII, TypeCodecs.ASCII, "ascii"),
                Arguments.of(CqlTypes.TEXT, TypeCodecs.TEXT, "\u00e9t\u00e9 \ud83d\ude00"),
                Arguments.of(CqlTypes.BIGINT, TypeCodecs.BIGINT, Long.MIN_VALUE),
                Arguments.of(CqlTypes.INT, TypeCodecs.INT, 123456),
                Arguments.of(CqlTypes.SMALLINT, TypeCodecs.SMALLINT, (short) -5),
                Arguments.of(CqlTypes.TINYINT, TypeCodecs.TINYINT, (byte) 7),
                Arguments.of(CqlTypes.DOUBLE, TypeCodecs.DOUBLE, -0.0),
                Arguments.of(CqlTypes.FLOAT, TypeCodecs.FLOAT, Float.NaN),
                Arguments.of(CqlTypes.DECIMAL, TypeCodecs.DECIMAL, new BigDecimal("-123456789012345678901234567890.000001")),
                Arguments.of(CqlTypes.VARINT, TypeCodecs.VARINT, new BigInteger("-98765432109876543210")),
                Arguments.of(CqlTypes.DATE, TypeCodecs.DATE, LocalDate.of(-3, 12, 31)),
                Arguments.of(CqlTypes.TIME, TypeCodecs.TIME, LocalTime.of(23, 59, 59, 999_999_999)),
                Arguments.of(CqlTypes.TIMESTAMP, TypeCodecs.TIMESTAMP, Instant.parse("1969-07-20T20:17:40.123Z")),
                Arguments.of(CqlTypes.UUID, TypeCodecs.UUID, UUID.fromString("00000000-0000-4000-8000-000000000001")),
                Arguments.of(CqlTypes.TIMEUUID, TypeCodecs.TIMEUUID, UUID.fromString("2a92d750-d8dc-11e6-a2de-cf8ecd4cf053")),
                Arguments.of(CqlTypes.INET, TypeCodecs.INET, InetAddress.getByName("2001:db8::ff00:42:8329")),
                Arguments.of(CqlTypes.BOOLEAN, TypeCodecs.BOOLEAN, true));
    }

    @ParameterizedTest
    @MethodSource("driverCodecs")
    <T> void agreesWithTheDriverCodec(CqlType type, TypeCodec<T> codec, T value) {
        ByteBuffer expected = codec.encode(value, ProtocolVersion.V5);
        assertThat(Hex.encode(type.decompose(value))).isEqualTo(Hex.encode(expected));
        assertThat(type.compose(expected)).isEqualTo(codec.decode(expected, ProtocolVersion.V5));
    }

    @Test
    void durationAgreesWithTheDriverCodec() {
        com.datastax.oss.driver.api.core.data.CqlDuration driver =
                com.datastax.oss.driver.api.core.data.CqlDuration.newInstance(-13, -2, -3_000_000_007L);
        ByteBuffer expected = TypeCodecs.DURATION.encode(driver, ProtocolVersion.V5);
        assertThat(Hex.encode(CqlTypes.DURATION.decompose(new CqlDuration(-13, -2, -3_000_000_007L))))
                .isEqualTo(Hex.encode(expected));
    }

    static Stream<Arguments> badSizes() {
        return Stream.of(
                Arguments.of(CqlTypes.INT, 3, "Expected 4 or 0 byte int (3)"),
                Arguments.of(CqlTypes.BIGINT, 4, "Expected 8 or 0 byte long (4)"),
                Arguments.of(CqlTypes.COUNTER, 1, "Expected 8 or 0 byte long (1)"),
                Arguments.of(CqlTypes.SMALLINT, 0, "Expected 2 bytes for a smallint (0)"),
                Arguments.of(CqlTypes.TINYINT, 2, "Expected 1 byte for a tinyint (2)"),
                Arguments.of(CqlTypes.FLOAT, 8, "Expected 4 or 0 byte value for a float (8)"),
                Arguments.of(CqlTypes.DOUBLE, 4, "Expected 8 or 0 byte value for a double (4)"),
                Arguments.of(CqlTypes.BOOLEAN, 2, "Expected 1 or 0 byte value (2)"),
                Arguments.of(CqlTypes.DATE, 0, "Expected 4 byte long for date (0)"),
                Arguments.of(CqlTypes.TIME, 4, "Expected 8 byte long for time (4)"),
                Arguments.of(CqlTypes.TIMESTAMP, 4, "Expected 8 or 0 byte long for date (4)"),
                Arguments.of(CqlTypes.UUID, 15, "UUID should be 16 or 0 bytes (15)"),
                Arguments.of(CqlTypes.DECIMAL, 3, "Expected 0 or at least 4 bytes (3)"),
                Arguments.of(CqlTypes.DURATION, 0, "Expected at least 3 bytes for a duration (0)"),
                Arguments.of(CqlTypes.INET, 3, "Expected 4 or 16 byte inetaddress; got 000000"));
    }

    @ParameterizedTest
    @MethodSource("badSizes")
    void rejectsValuesOfTheWrongSizeInCassandrasWords(CqlType type, int size, String message) {
        assertThatThrownBy(() -> type.validate(ByteBuffer.allocate(size)))
                .isInstanceOf(InvalidRequestException.class).hasMessage(message);
    }

    @Test
    void rejectsMalformedContent() {
        assertThatThrownBy(() -> CqlTypes.TEXT.validate(ByteBuffer.wrap(new byte[] {(byte) 0xff})))
                .hasMessage("String didn't validate.");
        assertThatThrownBy(() -> CqlTypes.ASCII.validate(ByteBuffer.wrap(new byte[] {(byte) 0xff})))
                .hasMessage("Invalid byte for ascii: -1");
        assertThatThrownBy(() -> CqlTypes.TIMEUUID.validate(CqlTypes.UUID.fromString("6bddc89a-5644-41e4-97fc-56847afe9799")))
                .hasMessage("Invalid version for TimeUUID type: 0x4");
        assertThatThrownBy(() -> CqlTypes.DURATION.validate(ByteBuffer.wrap(HexFormat.of().parseHex("010203"))))
                .hasMessage("The duration months, days and nanoseconds must be all of the same sign (-1, 1, -2)");
    }

    @Test
    void textValidationIsJavasStrictUtf8() {
        java.util.Random random = new java.util.Random(11);
        for (int i = 0; i < 100_000; i++) {
            byte[] bytes = new byte[1 + random.nextInt(5)];
            for (int j = 0; j < bytes.length; j++)
                bytes[j] = (byte) (random.nextInt(3) == 0 ? 0x80 + random.nextInt(64) : random.nextInt(256));
            boolean decodes;
            try {
                StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes));
                decodes = true;
            } catch (CharacterCodingException e) {
                decodes = false;
            }
            assertThat(TextType.isUtf8(ByteBuffer.wrap(bytes))).as(Hex.encode(ByteBuffer.wrap(bytes))).isEqualTo(decodes);
        }
    }

    @Test
    void emptyValuesAreLegalExactlyWhereCassandraAllowsThem() {
        for (CqlType allowing : new CqlType[] {CqlTypes.ASCII, CqlTypes.BIGINT, CqlTypes.BLOB, CqlTypes.BOOLEAN,
                CqlTypes.COUNTER, CqlTypes.DECIMAL, CqlTypes.DOUBLE, CqlTypes.FLOAT, CqlTypes.INET, CqlTypes.INT,
                CqlTypes.TEXT, CqlTypes.TIMESTAMP, CqlTypes.TIMEUUID, CqlTypes.UUID, CqlTypes.VARINT}) {
            assertThat(allowing.allowsEmpty()).as(allowing.cqlName()).isTrue();
            allowing.validate(ByteBuffer.allocate(0));
        }
        for (CqlType refusing : new CqlType[] {CqlTypes.DATE, CqlTypes.TIME, CqlTypes.SMALLINT, CqlTypes.TINYINT,
                CqlTypes.DURATION, CqlTypes.list(CqlTypes.INT, true), CqlTypes.vector(CqlTypes.FLOAT, 2)}) {
            assertThat(refusing.allowsEmpty()).as(refusing.cqlName()).isFalse();
            assertThatThrownBy(() -> refusing.validate(ByteBuffer.allocate(0))).isInstanceOf(InvalidRequestException.class);
        }
    }

    @Test
    void emptyIsNotNull() {
        assertThat(CqlTypes.INT.compose(ByteBuffer.allocate(0))).isNull();
        assertThat(CqlTypes.TEXT.compose(ByteBuffer.allocate(0))).isEqualTo("");
        assertThat(CqlTypes.INT.toCqlLiteral(ByteBuffer.allocate(0))).isEqualTo("null");
        assertThat(CqlTypes.INT.toJson(ByteBuffer.allocate(0))).isEqualTo("\"\"");
        assertThat(CqlTypes.INT.toJson(null)).isEqualTo("null");
        assertThat(CqlTypes.INT.compare(ByteBuffer.allocate(0), CqlTypes.INT.decompose(Integer.MIN_VALUE))).isNegative();
        assertThat(CqlTypes.INT.decompose(null)).isNull();
    }

    @Test
    void decomposeChecksRangesAndClasses() {
        assertThatThrownBy(() -> CqlTypes.SMALLINT.decompose(40_000)).hasMessage("Value 40000 is out of range for smallint");
        assertThatThrownBy(() -> CqlTypes.INT.decompose("1")).isInstanceOf(InvalidRequestException.class);
        assertThat(CqlTypes.DATE.decompose(Integer.MIN_VALUE)).isEqualTo(CqlTypes.DATE.decompose(LocalDate.EPOCH));
        assertThat(CqlTypes.TIME.decompose(123L)).isEqualTo(CqlTypes.TIME.decompose(LocalTime.ofNanoOfDay(123)));
        assertThat(CqlTypes.TIMESTAMP.decompose(5L)).isEqualTo(CqlTypes.TIMESTAMP.decompose(Instant.ofEpochMilli(5)));
        assertThat(CqlTypes.BLOB.decompose(new byte[] {1})).isEqualTo(ByteBuffer.wrap(new byte[] {1}));
    }

    @Test
    void typeFlags() {
        assertThat(CqlTypes.VARCHAR).isSameAs(CqlTypes.TEXT);
        assertThat(CqlTypes.TEXT.cqlName()).isEqualTo("text");
        assertThat(CqlTypes.COUNTER.isAllowedInPrimaryKey()).isFalse();
        assertThat(CqlTypes.DURATION.referencesDuration()).isTrue();
        assertThat(CqlTypes.nativeType("varchar")).isSameAs(CqlTypes.TEXT);
        assertThat(CqlTypes.nativeType("list")).isNull();
        assertThat(CqlTypes.INT.kind()).isEqualTo(CqlType.Kind.INT);
        assertThat(CqlTypes.INT.freeze()).isSameAs(CqlTypes.INT);
    }
}
