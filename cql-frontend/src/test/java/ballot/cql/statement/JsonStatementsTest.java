package ballot.cql.statement;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.cql.error.ErrorCode;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** INSERT JSON and from_json() as Cassandra 5.0.9 answers them: the values stored, and the refusals. */
class JsonStatementsTest {
    private final CasFixture db = new CasFixture(
            "CREATE TABLE j (k int PRIMARY KEY, de decimal, d double, l list<decimal>, dt date, vi varint)");

    private Map<String, Object> row(int k) {
        return CasFixture.rows(db.execute("SELECT * FROM j WHERE k = " + k)).get(0);
    }

    /** Jackson reads a JSON number with a fraction or exponent as a double in Cassandra, and so in Ballot. */
    @Test
    void fractionalJsonNumbersAreReadAsDoubles() {
        db.execute("INSERT INTO j JSON '{\"k\": 1, \"de\": 1.50, \"l\": [1.50, 2], \"d\": 0.1}'");
        db.execute("INSERT INTO j JSON '{\"k\": 2, \"de\": 0.1000000000000000055511151231257827}'");
        db.execute("INSERT INTO j JSON '{\"k\": 3, \"de\": 1.0E+2, \"vi\": 12345678901234567890123}'");
        db.execute("INSERT INTO j JSON '{\"k\": 4, \"de\": \"1.50\"}'");
        db.execute("INSERT INTO j (k, de, l) VALUES (5, from_json('1.50'), fromJson('[1.50]'))");

        assertThat(row(1)).containsEntry("de", new BigDecimal("1.5")).containsEntry("d", 0.1)
                .containsEntry("l", List.of(new BigDecimal("1.5"), new BigDecimal("2")));
        assertThat(row(2)).containsEntry("de", new BigDecimal("0.1"));
        assertThat(row(3)).containsEntry("de", new BigDecimal("100.0"))
                .containsEntry("vi", new java.math.BigInteger("12345678901234567890123"));
        assertThat(row(4)).as("a string keeps its digits").containsEntry("de", new BigDecimal("1.50"));
        assertThat(row(5)).containsEntry("de", new BigDecimal("1.5")).containsEntry("l", List.of(new BigDecimal("1.5")));
        db.assertRefused("INSERT INTO j JSON '{\"k\": 6, \"de\": 1e400}'", ErrorCode.INVALID,
                "Error decoding JSON value for de: Value 'Infinity' is not a valid representation of a decimal value");
        db.assertRefused("INSERT INTO j JSON '{\"k\": 6, \"vi\": 1e3}'", ErrorCode.INVALID,
                "Error decoding JSON value for vi: Value '1000.0' is not a valid representation of a varint value");
    }

    @Test
    void insertJsonOfNoObjectIsRefusedAsCassandraRefusesIt() {
        db.assertRefused("INSERT INTO j JSON 'null'", ErrorCode.INVALID, "Got null for INSERT JSON values");
        db.assertRefused("INSERT INTO j JSON '[1]'", ErrorCode.INVALID, "Could not decode JSON string as a map: "
                + "com.fasterxml.jackson.databind.exc.MismatchedInputException: Cannot deserialize value of type "
                + "`java.util.LinkedHashMap<java.lang.Object,java.lang.Object>` from Array value (token `JsonToken.START_ARRAY`)\n"
                + " at [Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 1]."
                + " (String was: [1])");
        db.assertRefused("INSERT INTO j JSON '{\"k\": 1, \"de\": }'", ErrorCode.INVALID, "Could not decode JSON string as a map: "
                + "com.fasterxml.jackson.core.JsonParseException: Unexpected character ('}' (code 125)): expected a valid value "
                + "(JSON String, Number, Array, Object or token 'null', 'true' or 'false')\n"
                + " at [Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 16]."
                + " (String was: {\"k\": 1, \"de\": })");
    }

    /** from_json fails as a function fails: FUNCTION_FAILURE, by its 5.0 name however it is called. */
    @Test
    void fromJsonFailuresAreFunctionFailures() {
        db.assertRefused("INSERT INTO j (k, de) VALUES (1, fromJson('nope'))", ErrorCode.FUNCTION_FAILURE,
                "execution of 'system.from_json[text]' failed: Could not decode JSON string 'nope': "
                        + "com.fasterxml.jackson.core.JsonParseException: Unrecognized token 'nope': was expecting "
                        + "(JSON String, Number, Array, Object or token 'null', 'true' or 'false')\n"
                        + " at [Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 5]");
        db.assertRefused("INSERT INTO j (k, dt) VALUES (1, from_json('18262'))", ErrorCode.FUNCTION_FAILURE,
                "org.apache.cassandra.serializers.MarshalException: Expected a string representation of a date value, "
                        + "but got a Integer: 18262");
    }
}
