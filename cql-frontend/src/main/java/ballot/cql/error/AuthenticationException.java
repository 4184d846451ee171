package ballot.cql.error;

/** Authentication failed. */
public final class AuthenticationException extends CqlException {
    public AuthenticationException(String message) {
        super(ErrorCode.AUTHENTICATION_ERROR, message);
    }

    public AuthenticationException(String message, Throwable cause) {
        super(ErrorCode.AUTHENTICATION_ERROR, message, cause);
    }
}
