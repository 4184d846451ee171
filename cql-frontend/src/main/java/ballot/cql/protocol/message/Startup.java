package ballot.cql.protocol.message;

import java.util.Map;

/** Opens the connection: CQL_VERSION (required), COMPRESSION, DRIVER_NAME, DRIVER_VERSION, ... Keys are upper case. */
public record Startup(Map<String, String> options) implements Request {
    public static final String CQL_VERSION = "CQL_VERSION";
    public static final String COMPRESSION = "COMPRESSION";
    public static final String DRIVER_NAME = "DRIVER_NAME";
    public static final String DRIVER_VERSION = "DRIVER_VERSION";
    public static final String PROTOCOL_VERSIONS = "PROTOCOL_VERSIONS";

    public Startup {
        options = Map.copyOf(options);
    }
}
