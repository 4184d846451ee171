package ballot.cql.auth;

import ballot.cql.error.AuthenticationException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The credentials of a SASL PLAIN token (RFC 4616): {@code [authzid] NUL authcid NUL passwd}, UTF-8. Drivers send
 * an empty authzid. The authorization identity is ignored, as in Cassandra.
 */
record PlainCredentials(String username, String password) {
    static PlainCredentials decode(ByteBuffer token) {
        if (token == null) throw new AuthenticationException("Authentication ID must not be null");
        byte[] bytes = new byte[token.remaining()];
        token.duplicate().get(bytes);
        int secondNul = lastNul(bytes, bytes.length);
        if (secondNul < 0) throw new AuthenticationException("Password must not be null");
        int firstNul = lastNul(bytes, secondNul);
        if (firstNul < 0) throw new AuthenticationException("Authentication ID must not be null");
        String username = new String(bytes, firstNul + 1, secondNul - firstNul - 1, StandardCharsets.UTF_8);
        String password = new String(bytes, secondNul + 1, bytes.length - secondNul - 1, StandardCharsets.UTF_8);
        if (username.isEmpty()) throw new AuthenticationException("Authentication ID must not be null");
        if (password.isEmpty()) throw new AuthenticationException("Password must not be null");
        return new PlainCredentials(username, password);
    }

    /** The index of the last NUL before {@code end}, or -1. */
    private static int lastNul(byte[] bytes, int end) {
        for (int i = end - 1; i >= 0; i--) if (bytes[i] == 0) return i;
        return -1;
    }

    @Override
    public String toString() {
        return "PlainCredentials[username=" + username + "]";
    }
}
