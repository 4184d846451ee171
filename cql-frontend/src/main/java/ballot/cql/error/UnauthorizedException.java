package ballot.cql.error;

/** The logged-in user may not perform this operation. */
public final class UnauthorizedException extends CqlException {
    public UnauthorizedException(String message) {
        super(ErrorCode.UNAUTHORIZED, message);
    }

    /** Cassandra's answer to an anonymous client (no authentication) running a statement that manages roles or permissions. */
    public static UnauthorizedException anonymous() {
        return new UnauthorizedException("You have to be logged in and not anonymous to perform this request");
    }

    /** Cassandra's answer to a role that lacks {@code permission} on {@code resource} and on every resource above it. */
    public static UnauthorizedException missing(String role, Object permission, Object resource) {
        return new UnauthorizedException("User " + role + " has no " + permission + " permission on " + resource + " or any of its parents");
    }

    public UnauthorizedException(String message, Throwable cause) {
        super(ErrorCode.UNAUTHORIZED, message, cause);
    }
}
