package ballot.cql.statement;

import ballot.cql.error.InvalidRequestException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Parses JSON text for INSERT JSON and fromJson() into the plain values {@code CqlType.fromJson} takes. */
final class JsonText {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private JsonText() {}

    static Object parse(String text) {
        try {
            return MAPPER.readValue(text, Object.class);
        } catch (JsonProcessingException e) {
            throw new InvalidRequestException("Could not decode JSON string as a map: " + e.getOriginalMessage());
        }
    }
}
