package ballot.cql.error;

/** Bad CQL: the statement could not be parsed. */
public final class SyntaxException extends CqlException {
    public SyntaxException(String message) {
        super(ErrorCode.SYNTAX_ERROR, message);
    }

    public SyntaxException(String message, Throwable cause) {
        super(ErrorCode.SYNTAX_ERROR, message, cause);
    }
}
