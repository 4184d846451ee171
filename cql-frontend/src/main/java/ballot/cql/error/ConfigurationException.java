package ballot.cql.error;

/** A schema statement that is well formed but would create an invalid configuration (for example bad replication options). */
public final class ConfigurationException extends CqlException {
    public ConfigurationException(String message) {
        super(ErrorCode.CONFIG_ERROR, message);
    }

    public ConfigurationException(String message, Throwable cause) {
        super(ErrorCode.CONFIG_ERROR, message, cause);
    }
}
