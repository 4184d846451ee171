package ballot.cql.statement;

import ballot.cql.error.FunctionFailureException;
import ballot.cql.error.InvalidRequestException;
import ballot.cql.type.CqlType;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

/**
 * Parses JSON text for INSERT JSON and fromJson() into the plain values {@code CqlType.fromJson} takes. As in
 * Cassandra, a number with a fraction or an exponent is read as a double, so a decimal {@code 1.50} is stored as
 * {@code 1.5} and {@code 1E+2} as {@code 100.0}; integers are read exactly.
 */
final class JsonText {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String FROM_JSON = "from_json";

    private JsonText() {}

    /** The object of an INSERT JSON, by JSON key; refusals are Cassandra's, Jackson's exception named. */
    static Map<?, ?> parseObject(String text) {
        Map<?, ?> object;
        try {
            object = MAPPER.readValue(text, Map.class);
        } catch (JsonProcessingException e) {
            throw new InvalidRequestException(
                    "Could not decode JSON string as a map: " + e + ". (String was: " + text + ")");
        }
        if (object == null) throw new InvalidRequestException("Got null for INSERT JSON values");
        return object;
    }

    /**
     * fromJson(text) for a receiver of {@code type}. Its failures are FUNCTION_FAILURE of system.from_json (by either
     * name), as Cassandra's: the text that is no JSON, and the value that is none of the type, in the words of
     * Cassandra's MarshalException.
     */
    static ByteBuffer fromJson(String text, CqlType type) {
        Object parsed;
        try {
            parsed = MAPPER.readValue(text, Object.class);
        } catch (JsonProcessingException e) {
            throw new FunctionFailureException("system", FROM_JSON, List.of("text"), "execution of 'system."
                    + FROM_JSON + "[text]' failed: Could not decode JSON string '" + text + "': " + e);
        }
        try {
            return type.fromJson(parsed);
        } catch (InvalidRequestException e) {
            throw new FunctionFailureException("system", FROM_JSON, List.of("text"),
                    "org.apache.cassandra.serializers.MarshalException: " + e.getMessage());
        }
    }
}
