package ballot.net;

/** Why an internode request failed: {@link Reason#TIMEOUT}, the peer was {@link Reason#UNREACHABLE}, or it answered with an error. */
public final class MessagingException extends RuntimeException {
    public enum Reason { TIMEOUT, UNREACHABLE, OVERLOADED, REMOTE_ERROR }

    private final Reason reason;

    public MessagingException(Reason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
