package ballot.cql.transport;

import ballot.cql.error.AuthenticationException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletionStage;

/**
 * Decides whether clients must authenticate after STARTUP and runs the SASL exchange (native_protocol_v5.spec
 * §4.2.3). The default, {@link #NONE}, lets every client in: STARTUP is answered with READY.
 */
public interface Authenticator {
    Authenticator NONE = new Authenticator() {
        @Override
        public boolean requiresAuthentication() {
            return false;
        }

        @Override
        public String className() {
            return "org.apache.cassandra.auth.AllowAllAuthenticator";
        }

        @Override
        public SaslNegotiator newNegotiator(ClientState client) {
            throw new IllegalStateException("AllowAllAuthenticator does not negotiate");
        }
    };

    boolean requiresAuthentication();

    /** Sent in AUTHENTICATE; drivers pick their SASL mechanism from it. */
    String className();

    /** A fresh exchange for one connection. */
    SaslNegotiator newNegotiator(ClientState client);

    /** One connection's SASL exchange. */
    interface SaslNegotiator {
        /**
         * Evaluates the client's token, off the event loop if that takes time (a password check does).
         *
         * @return the challenge to send, or when {@link #isComplete()}, the final token for AUTH_SUCCESS (may be null);
         *     failed with {@link AuthenticationException} when the credentials are refused
         */
        CompletionStage<ByteBuffer> evaluateResponse(ByteBuffer token);

        boolean isComplete();

        /** The role that logged in; set once {@link #isComplete()}. */
        String role();
    }
}
