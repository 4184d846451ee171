package ballot.net;

/**
 * Why an internode request failed: it got no answer in time ({@link Reason#TIMEOUT}), the peer could not be reached
 * ({@link Reason#UNREACHABLE}), this node's queue to the peer or the peer's handler queue was full
 * ({@link Reason#OVERLOADED}), the peer's handler failed ({@link Reason#REMOTE_ERROR}), or the peer refused the
 * connection at the handshake ({@link Reason#REFUSED}: another cluster, an unknown messaging version, a duplicate host
 * id or address; see docs/membership.md §1).
 */
public final class MessagingException extends RuntimeException {
    public enum Reason { TIMEOUT, UNREACHABLE, OVERLOADED, REMOTE_ERROR, REFUSED }

    private final Reason reason;

    public MessagingException(Reason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
