package ballot.cql.error;

/** A TRUNCATE could not complete. */
public final class TruncateException extends CqlException {
    public TruncateException(String message) {
        super(ErrorCode.TRUNCATE_ERROR, message);
    }

    public TruncateException(String message, Throwable cause) {
        super(ErrorCode.TRUNCATE_ERROR, message, cause);
    }
}
