package ballot.cql.error;

/** The client broke the native protocol: a malformed frame or message; the connection is closed after the error is sent. */
public final class ProtocolException extends CqlException {
    public ProtocolException(String message) {
        super(ErrorCode.PROTOCOL_ERROR, message);
    }

    public ProtocolException(String message, Throwable cause) {
        super(ErrorCode.PROTOCOL_ERROR, message, cause);
    }
}
