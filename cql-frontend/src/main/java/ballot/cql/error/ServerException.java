package ballot.cql.error;

/** A bug or an unexpected failure on the node; the request failed but the node keeps serving. */
public final class ServerException extends CqlException {
    public ServerException(String message) {
        super(ErrorCode.SERVER_ERROR, message);
    }

    public ServerException(String message, Throwable cause) {
        super(ErrorCode.SERVER_ERROR, message, cause);
    }
}
