package ballot.cql.error;

/** The logged-in user may not perform this operation. */
public final class UnauthorizedException extends CqlException {
    public UnauthorizedException(String message) {
        super(ErrorCode.UNAUTHORIZED, message);
    }

    public UnauthorizedException(String message, Throwable cause) {
        super(ErrorCode.UNAUTHORIZED, message, cause);
    }
}
