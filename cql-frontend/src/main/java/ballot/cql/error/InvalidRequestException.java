package ballot.cql.error;

/** The statement is well formed but invalid: unknown table or column, wrong type, unsupported combination. */
public final class InvalidRequestException extends CqlException {
    public InvalidRequestException(String message) {
        super(ErrorCode.INVALID, message);
    }

    public InvalidRequestException(String message, Throwable cause) {
        super(ErrorCode.INVALID, message, cause);
    }
}
