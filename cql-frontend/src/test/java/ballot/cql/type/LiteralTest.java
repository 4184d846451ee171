package ballot.cql.type;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ballot.cql.error.InvalidRequestException;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Constants bound to receivers, and the CQL-literal and text forms, as Cassandra 5.0.9 produces and accepts them. */
class LiteralTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "2011-02-03                       | 1296691200000",
            "2011-02-03 04:05                 | 1296705900000",
            "2011-02-03 04:05:00              | 1296705900000",
            "2011-02-03 04:05:00.1            | 1296705900100",
            "2011-02-03 04:05:00.123456789    | 1296705900123",
            "2011-02-03T04:05:00Z             | 1296705900000",
            "2011-02-03T04:05:00+0100         | 1296702300000",
            "2011-02-03T04:05:00+01:00        | 1296702300000",
            "2011-02-03 04:05:00 +0100        | 1296702300000",
            "2011-02-03 04:05 +01             | 1296702300000",
            "2011-02-03 04:05:00 UTC          | 1296705900000",
            "2011-02-03 04:05:00 PST          | 1296734700000",
            "2011-02-03 04:05:00 Europe/Paris | 1296702300000",
            "2011-02-03 04:05:00.000+0000     | 1296705900000",
            "2011-02-03+0100                  | 1296687600000",
            "2011-2-3 4:5                     | 1296705900000",
            "2011-02-03T04:05                 | 1296705900000",
            "1234                             | 1234",
            "-1234                            | -1234"})
    void timestampsAcceptCassandrasFormats(String literal, long expected) {
        Instant parsed = (Instant) CqlTypes.TIMESTAMP.compose(CqlTypes.TIMESTAMP.fromConstant(ConstantKind.STRING, literal, "ts"));
        assertThat(parsed.toEpochMilli()).isEqualTo(expected);
    }

    @Test
    void timestampsTakeIntegersAndNow() {
        assertThat(CqlTypes.TIMESTAMP.fromConstant(ConstantKind.INTEGER, "1296705900000", "ts"))
                .isEqualTo(CqlTypes.TIMESTAMP.decompose(1296705900000L));
        CqlType fixed = CqlTypes.timestamp(Clock.fixed(Instant.ofEpochMilli(42), ZoneOffset.UTC));
        assertThat(fixed.fromConstant(ConstantKind.STRING, "NOW", "ts")).isEqualTo(CqlTypes.TIMESTAMP.decompose(42L));
        assertThat(fixed).isEqualTo(CqlTypes.TIMESTAMP).hasSameHashCodeAs(CqlTypes.TIMESTAMP);
        assertThatThrownBy(() -> CqlTypes.TIMESTAMP.fromConstant(ConstantKind.STRING, "abcd", "ts"))
                .isInstanceOf(InvalidRequestException.class).hasMessage("Unable to parse a date/time from 'abcd'");
        assertThatThrownBy(() -> CqlTypes.TIMESTAMP.fromConstant(ConstantKind.STRING, "2011-02-03 24:05", "ts"))
                .hasMessage("Unable to parse a date/time from '2011-02-03 24:05'");
        assertThatThrownBy(() -> CqlTypes.TIMESTAMP.fromConstant(ConstantKind.STRING, "99999999999999999999", "ts"))
                .hasMessage("Unable to make long (for date) from: '99999999999999999999'");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "2011-02-03    | 80003aa0 | 2011-02-03",
            "1970-01-01    | 80000000 | 1970-01-01",
            "-0001-01-01   | 7ff503eb | -0001-01-01",
            "+10000-01-01  | 802cc0a1 | +10000-01-01",
            "2147483648    | 80000000 | 1970-01-01",
            "0             | 00000000 | -5877641-06-23",
            "4294967295    | ffffffff | +5881580-07-11"})
    void datesAcceptIsoDatesAndRawDayNumbers(String literal, String hex, String text) {
        ByteBuffer value = CqlTypes.DATE.fromConstant(literal.matches("\\d+") ? ConstantKind.INTEGER : ConstantKind.STRING, literal, "d");
        assertThat(Hex.encode(value)).isEqualTo(hex);
        assertThat(CqlTypes.DATE.toCqlLiteral(value)).isEqualTo("'" + text + "'");
        assertThat(CqlTypes.DATE.asString(value)).isEqualTo(text);
    }

    @Test
    void datesRejectWhatCassandraRejects() {
        assertThatThrownBy(() -> CqlTypes.DATE.fromString("2011-02-30")).hasMessage("Unable to coerce '2011-02-30' to a formatted date (long)");
        assertThatThrownBy(() -> CqlTypes.DATE.fromString("2011-2-3")).hasMessage("Unable to coerce '2011-2-3' to a formatted date (long)");
        assertThatThrownBy(() -> CqlTypes.DATE.fromString("4294967296")).hasMessage("Unable to make unsigned int (for date) from: '4294967296'");
        assertThatThrownBy(() -> CqlTypes.DATE.fromString("-5877641-06-22"))
                .hasMessageStartingWith("Input date -5877641-06-22 is less than min supported date");
        assertThat(CqlTypes.DATE.compose(CqlTypes.DATE.fromString("2024-02-29"))).isEqualTo(LocalDate.of(2024, 2, 29));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "08:12:54             | 08:12:54.000000000",
            "08:12:54.123         | 08:12:54.123000000",
            "08:12:54.123456789   | 08:12:54.123456789",
            "8:12:54              | 08:12:54.000000000",
            "' 08:12:54 '         | 08:12:54.000000000",
            "123                  | 00:00:00.000000123",
            "86399999999999       | 23:59:59.999999999"})
    void timesAcceptClockTextAndNanoseconds(String literal, String text) {
        ByteBuffer value = CqlTypes.TIME.fromString(literal);
        assertThat(CqlTypes.TIME.asString(value)).isEqualTo(text);
        assertThat(CqlTypes.TIME.toCqlLiteral(value)).isEqualTo("'" + text + "'");
        assertThat(CqlTypes.TIME.compose(value)).isEqualTo(LocalTime.parse(text));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "08:12:54.1234567891 | (TimeType) Unable to coerce '08:12:54.1234567891' to a formatted time (long)",
            "24:00:00            | (TimeType) Unable to coerce '24:00:00' to a formatted time (long)",
            "08:60:00            | (TimeType) Unable to coerce '08:60:00' to a formatted time (long)",
            "08:12               | (TimeType) Unable to coerce '08:12' to a formatted time (long)",
            "08:12:54.           | (TimeType) Unable to coerce '08:12:54.' to a formatted time (long)",
            "86400000000000      | Unable to make long (for time) from: '86400000000000'",
            "-1                  | Unable to make long (for time) from: '-1'"})
    void timesRejectWhatCassandraRejects(String literal, String message) {
        assertThatThrownBy(() -> CqlTypes.TIME.fromString(literal)).isInstanceOf(InvalidRequestException.class).hasMessage(message);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "1h30m              | 0000fc09d29229e000 | 1h30m",
            "2y3mo              | 360000             | 2y3mo",
            "P1Y2M3DT4H5M6S     | 1c06fc1ac003cfe800 | 1y2mo3d4h5m6s",
            "P2W                | 001c00             | 14d",
            "P0001-02-03T04:05:06 | 1c06fc1ac003cfe800 | 1y2mo3d4h5m6s",
            "-1h                | 0000fc068c61713fff | -1h",
            "1µs                | 000087d0           | 1us",
            "1us2ns             | 000087d4           | 1us2ns",
            "1Y1MO              | 1a0000             | 1y1mo",
            "89w                | 0084de00           | 623d",
            "3mo2w              | 061c00             | 3mo14d",
            "-P1D               | 000100             | -1d",
            "PT0S               | 000000             | 0s"})
    void durationsAcceptUnitsAndIso8601(String literal, String hex, String cqlLiteral) {
        ByteBuffer value = CqlTypes.DURATION.fromConstant(ConstantKind.DURATION, literal, "d");
        assertThat(Hex.encode(value)).isEqualTo(hex);
        assertThat(CqlTypes.DURATION.toCqlLiteral(value)).isEqualTo(cqlLiteral);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "1h1h  | Invalid duration. The hours are specified multiple times",
            "1m1h  | Invalid duration. The minutes should be after hours",
            "12    | Unable to convert '12' to a duration",
            "-12   | Unable to convert '12' to a duration",
            "1x    | Unable to convert '1x' to a duration",
            "99999999999y | Invalid duration. The total number of months must be less or equal to 2147483647"})
    void durationsRejectWhatCassandraRejects(String literal, String message) {
        assertThatThrownBy(() -> CqlTypes.DURATION.fromConstant(ConstantKind.DURATION, literal, "d"))
                .isInstanceOf(InvalidRequestException.class).hasMessage(message);
    }

    @Test
    void numbersFromIntegerAndFloatConstants() {
        assertThat(CqlTypes.INT.fromConstant(ConstantKind.INTEGER, "-5", "v")).isEqualTo(CqlTypes.INT.decompose(-5));
        assertThat(CqlTypes.INT.fromConstant(ConstantKind.INTEGER, "+5", "v")).isEqualTo(CqlTypes.INT.decompose(5));
        assertThat(CqlTypes.BIGINT.fromConstant(ConstantKind.INTEGER, "9223372036854775807", "v"))
                .isEqualTo(CqlTypes.BIGINT.decompose(Long.MAX_VALUE));
        assertThat(CqlTypes.COUNTER.fromConstant(ConstantKind.INTEGER, "3", "c")).isEqualTo(CqlTypes.COUNTER.decompose(3L));
        assertThat(CqlTypes.DOUBLE.fromConstant(ConstantKind.INTEGER, "3", "v")).isEqualTo(CqlTypes.DOUBLE.decompose(3.0));
        assertThat(CqlTypes.DECIMAL.fromConstant(ConstantKind.FLOAT, "1.50", "v")).isEqualTo(CqlTypes.DECIMAL.fromString("1.50"));
        assertThat(CqlTypes.VARINT.fromConstant(ConstantKind.INTEGER, "-99999999999999999999", "v"))
                .isEqualTo(CqlTypes.VARINT.decompose(new java.math.BigInteger("-99999999999999999999")));
        assertThat((Float) CqlTypes.FLOAT.compose(CqlTypes.FLOAT.fromConstant(ConstantKind.FLOAT, "NaN", "v"))).isNaN();
        assertThat(CqlTypes.DOUBLE.compose(CqlTypes.DOUBLE.fromConstant(ConstantKind.FLOAT, "-Infinity", "v")))
                .isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(CqlTypes.DOUBLE.compose(CqlTypes.DOUBLE.fromConstant(ConstantKind.FLOAT, "infinity", "v")))
                .isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(CqlTypes.FLOAT.compose(CqlTypes.FLOAT.fromConstant(ConstantKind.FLOAT, "-2.5e3", "v"))).isEqualTo(-2500f);
        assertThatThrownBy(() -> CqlTypes.INT.fromConstant(ConstantKind.INTEGER, "2147483648", "v"))
                .hasMessage("Unable to make int from '2147483648'");
        assertThatThrownBy(() -> CqlTypes.SMALLINT.fromConstant(ConstantKind.INTEGER, "32768", "v"))
                .hasMessage("Unable to make short from '32768'");
        assertThatThrownBy(() -> CqlTypes.TINYINT.fromConstant(ConstantKind.INTEGER, "128", "v"))
                .hasMessage("Unable to make byte from '128'");
        assertThatThrownBy(() -> CqlTypes.DECIMAL.fromConstant(ConstantKind.FLOAT, "NaN", "v"))
                .hasMessage("unable to make BigDecimal from 'NaN'");
    }

    @Test
    void otherNativeConstants() {
        assertThat(CqlTypes.BLOB.fromConstant(ConstantKind.HEX, "0xCAFE", "b")).isEqualTo(ByteBuffer.wrap(new byte[] {(byte) 0xca, (byte) 0xfe}));
        assertThat(CqlTypes.BLOB.fromConstant(ConstantKind.HEX, "0x", "b")).isEqualTo(ByteBuffer.allocate(0));
        assertThatThrownBy(() -> CqlTypes.BLOB.fromConstant(ConstantKind.HEX, "0xCAF", "b")).hasMessage("cannot parse 'CAF' as hex bytes");
        assertThat(CqlTypes.BOOLEAN.fromConstant(ConstantKind.BOOLEAN, "TRUE", "b")).isEqualTo(CqlTypes.BOOLEAN.decompose(true));
        assertThat(CqlTypes.UUID.fromConstant(ConstantKind.UUID, "6BDDC89A-5644-11E4-97FC-56847AFE9799", "u"))
                .isEqualTo(CqlTypes.UUID.decompose(java.util.UUID.fromString("6bddc89a-5644-11e4-97fc-56847afe9799")));
        assertThatThrownBy(() -> CqlTypes.TIMEUUID.fromConstant(ConstantKind.UUID, "6bddc89a-5644-41e4-97fc-56847afe9799", "u"))
                .hasMessage("TimeUUID supports only version 1 UUIDs");
        assertThat(Hex.encode(CqlTypes.INET.fromConstant(ConstantKind.STRING, "::ffff:1.2.3.4", "i"))).isEqualTo("01020304");
        assertThat(Hex.encode(CqlTypes.INET.fromConstant(ConstantKind.STRING, "1.2.3", "i"))).isEqualTo("01020003");
        assertThat(Hex.encode(CqlTypes.INET.fromConstant(ConstantKind.STRING, "fe80::1%eth0", "i")))
                .isEqualTo("fe800000000000000000000000000001");
        assertThat(Hex.encode(CqlTypes.INET.fromConstant(ConstantKind.STRING, "[::1]", "i")))
                .isEqualTo("00000000000000000000000000000001");
        assertThatThrownBy(() -> CqlTypes.INET.fromConstant(ConstantKind.STRING, "1.2.3.256", "i"))
                .hasMessage("Unable to make inet address from '1.2.3.256'");
        assertThatThrownBy(() -> CqlTypes.INET.fromConstant(ConstantKind.STRING, "localhost", "i"))
                .hasMessage("Unable to make inet address from 'localhost'");
        assertThat(CqlTypes.TEXT.fromConstant(ConstantKind.STRING, "it's", "t")).isEqualTo(CqlTypes.TEXT.decompose("it's"));
        assertThatThrownBy(() -> CqlTypes.ASCII.fromConstant(ConstantKind.STRING, "\u00e9", "a"))
                .hasMessageStartingWith("Invalid ASCII character in string literal: ");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "STRING  | abc  | int       | Invalid STRING constant (abc) for \"v\" of type int",
            "INTEGER | 1    | text      | Invalid INTEGER constant (1) for \"v\" of type text",
            "HEX     | 0x01 | int       | Invalid HEX constant (0x01) for \"v\" of type int",
            "STRING  | 0x01 | blob      | Invalid STRING constant (0x01) for \"v\" of type blob",
            "FLOAT   | 1.5  | int       | Invalid FLOAT constant (1.5) for \"v\" of type int",
            "STRING  | 1h   | duration  | Invalid STRING constant (1h) for \"v\" of type duration",
            "STRING  | true | boolean   | Invalid STRING constant (true) for \"v\" of type boolean",
            "UUID    | 6bddc89a-5644-11e4-97fc-56847afe9799 | text | Invalid UUID constant (6bddc89a-5644-11e4-97fc-56847afe9799) for \"v\" of type text",
            "STRING  | x    | list<int> | Invalid STRING constant (x) for \"v\" of type list<int>"})
    void constantsOfTheWrongKindAreRejectedAsCassandraWordsIt(ConstantKind kind, String text, String type, String message) {
        CqlType receiver = CqlTypes.parse(type, UserTypeResolver.NONE);
        assertThatThrownBy(() -> receiver.fromConstant(kind, text, "v")).isInstanceOf(InvalidRequestException.class).hasMessage(message);
        assertThat(receiver.accepts(kind)).isFalse();
    }

    @Test
    void literalsQuoteAndEscapeAsCql() {
        assertThat(CqlTypes.TEXT.toCqlLiteral(CqlTypes.TEXT.decompose("it's"))).isEqualTo("'it''s'");
        assertThat(CqlTypes.TEXT.toCqlLiteral(ByteBuffer.allocate(0))).isEqualTo("''");
        assertThat(CqlTypes.BLOB.toCqlLiteral(ByteBuffer.wrap(new byte[] {(byte) 0xca, (byte) 0xfe}))).isEqualTo("0xcafe");
        assertThat(CqlTypes.BLOB.toCqlLiteral(ByteBuffer.allocate(0))).isEqualTo("0x");
        assertThat(CqlTypes.TIMESTAMP.toCqlLiteral(CqlTypes.TIMESTAMP.decompose(1296705900000L))).isEqualTo("'2011-02-03T04:05:00.000Z'");
        assertThat(CqlTypes.INET.toCqlLiteral(CqlTypes.INET.fromString("::1"))).isEqualTo("'0:0:0:0:0:0:0:1'");
        assertThat(CqlTypes.FLOAT.toCqlLiteral(CqlTypes.FLOAT.fromString("1e10"))).isEqualTo("1.0E10");
        assertThat(CqlTypes.DOUBLE.toCqlLiteral(CqlTypes.DOUBLE.fromString("NaN"))).isEqualTo("NaN");
        assertThat(CqlTypes.DECIMAL.toCqlLiteral(CqlTypes.DECIMAL.fromString("1E+2"))).isEqualTo("1E+2");
        assertThat(CqlTypes.UUID.toCqlLiteral(CqlTypes.UUID.fromString("6BDDC89A-5644-11E4-97FC-56847AFE9799")))
                .isEqualTo("6bddc89a-5644-11e4-97fc-56847afe9799");
        assertThat(CqlTypes.BOOLEAN.toCqlLiteral(ByteBuffer.wrap(new byte[] {2}))).isEqualTo("true");
        assertThat(CqlTypes.INT.toCqlLiteral(null)).isEqualTo("null");

        MapType map = CqlTypes.map(CqlTypes.TEXT, CqlTypes.INT, true);
        assertThat(map.toCqlLiteral(map.pack(List.of(java.util.Map.entry(CqlTypes.TEXT.decompose("a'b"), CqlTypes.INT.decompose(1))))))
                .isEqualTo("{'a''b': 1}");
        SetType set = CqlTypes.set(CqlTypes.INT, false);
        assertThat(set.toCqlLiteral(set.pack(List.of(CqlTypes.INT.decompose(2), CqlTypes.INT.decompose(1))))).isEqualTo("{1, 2}");
        TupleType tuple = CqlTypes.tuple(List.of(CqlTypes.INT, CqlTypes.INT, CqlTypes.TEXT));
        ByteBuffer t = tuple.pack(java.util.Arrays.asList(CqlTypes.INT.decompose(1), null, CqlTypes.TEXT.decompose("x:y@z")));
        assertThat(tuple.toCqlLiteral(t)).isEqualTo("(1, null, 'x:y@z')");
        assertThat(tuple.toCqlLiteral(ByteBuffer.allocate(0))).isEqualTo("()");
        UserType address = CqlTypes.userType("ks", "Addr", List.of("street", "Zip", "tags"),
                List.of(CqlTypes.TEXT, CqlTypes.INT, CqlTypes.set(CqlTypes.TEXT, true)), true);
        ByteBuffer a = address.pack(java.util.Map.of("street", CqlTypes.TEXT.decompose("main"), "Zip", CqlTypes.INT.decompose(7)));
        assertThat(address.toCqlLiteral(a)).isEqualTo("{street: 'main', \"Zip\": 7, tags: null}");
        VectorType vector = CqlTypes.vector(CqlTypes.FLOAT, 2);
        assertThat(vector.toCqlLiteral(vector.decompose(List.of(1.5f, Float.NaN)))).isEqualTo("[1.5, NaN]");
    }

    @Test
    void textFormsRoundTripThroughFromString() {
        TupleType tuple = CqlTypes.tuple(List.of(CqlTypes.INT, CqlTypes.INT, CqlTypes.TEXT));
        ByteBuffer t = tuple.pack(java.util.Arrays.asList(CqlTypes.INT.decompose(1), null, CqlTypes.TEXT.decompose("x:y@z")));
        assertThat(tuple.asString(t)).isEqualTo("1:@:x\\:y\\@z");
        assertThat(tuple.fromString("1:@:x\\:y\\@z")).isEqualTo(t);
        assertThatThrownBy(() -> tuple.fromString("1:2:3:4"))
                .hasMessage("Invalid tuple literal: too many elements. Type frozen<tuple<int, int, text>> expects 3 but got 4");
        ListType list = CqlTypes.list(CqlTypes.INT, true);
        ByteBuffer l = list.pack(List.of(CqlTypes.INT.decompose(1)));
        assertThat(list.asString(l)).isEqualTo("000000010000000400000001");
        assertThat(list.fromString("000000010000000400000001")).isEqualTo(l);
        assertThat(CqlTypes.TIMESTAMP.asString(CqlTypes.TIMESTAMP.decompose(0L))).isEqualTo("1970-01-01T00:00:00.000Z");
        assertThat(CqlTypes.BLOB.asString(ByteBuffer.wrap(new byte[] {1}))).isEqualTo("01");
        assertThat(CqlTypes.BLOB.fromString("01")).isEqualTo(ByteBuffer.wrap(new byte[] {1}));
        assertThat(CqlTypes.INT.fromString("")).isEqualTo(ByteBuffer.allocate(0));
        assertThat(CqlTypes.BOOLEAN.fromString("")).isEqualTo(CqlTypes.BOOLEAN.decompose(false));
        assertThatThrownBy(() -> CqlTypes.VARINT.fromString("1.0")).hasMessage("unable to make int from '1.0'");
    }
}
