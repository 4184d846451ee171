package ballot.cql.type;

import ballot.cql.error.InvalidRequestException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The JSON text primitives Cassandra's JSON support is built on. */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {}

    /** {@code s} as a JSON string literal, quotes included. */
    static String quote(String s) {
        return '"' + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + '"';
    }

    /** Parses JSON text into String, Number, Boolean, List, Map or null, as collection types do with string input. */
    static Object decode(String json) {
        try {
            return MAPPER.readValue(json, Object.class);
        } catch (JsonProcessingException e) {
            throw new InvalidRequestException("Error decoding JSON string: " + e.getOriginalMessage(), e);
        }
    }

    /** The "a Boolean: true" part of Cassandra's "Expected ..., but got a Boolean: true". */
    static String describe(Object parsed) {
        return parsed.getClass().getSimpleName() + ": " + parsed;
    }
}
