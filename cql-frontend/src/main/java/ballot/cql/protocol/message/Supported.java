package ballot.cql.protocol.message;

import java.util.List;
import java.util.Map;

/** The STARTUP options the server supports, with their allowed values, answering OPTIONS. */
public record Supported(Map<String, List<String>> options) implements Response {
    public Supported {
        options = Map.copyOf(options);
    }
}
