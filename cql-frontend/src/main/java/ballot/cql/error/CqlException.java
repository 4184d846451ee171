package ballot.cql.error;

/**
 * An error that reaches the client as a native-protocol ERROR message. Each subclass maps to exactly one
 * {@link ErrorCode}; the transport encodes the code-specific payload from the subclass's fields.
 */
public abstract class CqlException extends RuntimeException {
    private final ErrorCode code;

    protected CqlException(ErrorCode code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    protected CqlException(ErrorCode code, String message, Throwable cause) {
        super(message, cause, false, true);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }
}
