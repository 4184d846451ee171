package ballot.cql.auth;

import ballot.cql.error.AuthenticationException;
import ballot.cql.error.CqlException;
import ballot.cql.spi.Roles.Role;
import ballot.cql.transport.Authenticator;
import ballot.cql.transport.ClientState;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * Cassandra's PasswordAuthenticator: one SASL PLAIN token, checked against the role's bcrypt hash in
 * system_auth.roles. The check (a role read and about 50 ms of hashing) runs on {@code executor}, never on a
 * connection's event loop.
 */
public final class PasswordAuthenticator implements Authenticator {
    public static final String CLASS_NAME = "org.apache.cassandra.auth.PasswordAuthenticator";

    private final RoleStore roles;
    private final Executor executor;

    public PasswordAuthenticator(RoleStore roles, Executor executor) {
        this.roles = roles;
        this.executor = executor;
    }

    @Override
    public boolean requiresAuthentication() {
        return true;
    }

    @Override
    public String className() {
        return CLASS_NAME;
    }

    @Override
    public SaslNegotiator newNegotiator(ClientState client) {
        return new PlainNegotiator();
    }

    /** The role {@code credentials} log in as; AuthenticationException with Cassandra's messages if they may not. */
    Role authenticate(PlainCredentials credentials) {
        Role role;
        try {
            role = roles.cached(credentials.username());
        } catch (CqlException e) {
            throw new AuthenticationException("Unable to perform authentication: " + e.getMessage(), e);
        }
        if (role == null || !PasswordHash.matches(credentials.password(), role.saltedHash()))
            throw new AuthenticationException("Provided username " + credentials.username() + " and/or password are incorrect");
        if (!role.login()) throw new AuthenticationException(credentials.username() + " is not permitted to log in");
        return role;
    }

    /** PLAIN takes one token: the exchange is complete after the first response that passes. */
    private final class PlainNegotiator implements SaslNegotiator {
        private volatile String role;

        @Override
        public CompletionStage<ByteBuffer> evaluateResponse(ByteBuffer token) {
            PlainCredentials credentials;
            try {
                credentials = PlainCredentials.decode(token);
            } catch (AuthenticationException e) {
                return CompletableFuture.failedFuture(e);
            }
            return CompletableFuture.supplyAsync(() -> {
                role = authenticate(credentials).name();
                return null;
            }, executor);
        }

        @Override
        public boolean isComplete() {
            return role != null;
        }

        @Override
        public String role() {
            return role;
        }
    }
}
