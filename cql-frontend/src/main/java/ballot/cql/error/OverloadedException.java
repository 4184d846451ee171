package ballot.cql.error;

/** The coordinator is overloaded and rejected the request before doing any work. */
public final class OverloadedException extends CqlException {
    public OverloadedException(String message) {
        super(ErrorCode.OVERLOADED, message);
    }

    public OverloadedException(String message, Throwable cause) {
        super(ErrorCode.OVERLOADED, message, cause);
    }
}
