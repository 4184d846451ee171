package ballot.metrics;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Optional;

/**
 * Who may use the metrics port (docs/metrics.md, "Protecting the endpoint"): anyone ({@code metrics_authentication:
 * none}), a client sending the configured user and password as HTTP basic credentials ({@code basic}), or one sending
 * the configured token as {@code Authorization: Bearer} ({@code bearer}). Secrets are compared through their SHA-256
 * digests with {@link MessageDigest#isEqual}, so the time a check takes tells a client nothing about how close its
 * guess was, not even the secret's length.
 */
public final class MetricsAuthentication {
    /** What the metrics_authentication setting names. */
    public enum Kind { NONE, BASIC, BEARER }

    private static final String REALM = "ballot";

    private final Kind kind;
    private final byte[] userDigest;
    private final byte[] secretDigest;
    /** What this node sends to its peers, whose endpoints share its settings; null with none. */
    private final String authorization;

    private MetricsAuthentication(Kind kind, String user, String secret, String authorization) {
        this.kind = kind;
        this.userDigest = user == null ? null : digest(user);
        this.secretDigest = secret == null ? null : digest(secret);
        this.authorization = authorization;
    }

    public static MetricsAuthentication none() {
        return new MetricsAuthentication(Kind.NONE, null, null, null);
    }

    public static MetricsAuthentication basic(String user, String password) {
        String credentials = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        return new MetricsAuthentication(Kind.BASIC, user, password, "Basic " + credentials);
    }

    public static MetricsAuthentication bearer(String token) {
        return new MetricsAuthentication(Kind.BEARER, null, token, "Bearer " + token);
    }

    public Kind kind() {
        return kind;
    }

    /** Whether a request carrying this {@code Authorization} header (null: none) may be served. */
    public boolean admits(String authorization) {
        return switch (kind) {
            case NONE -> true;
            case BASIC -> admitsBasic(credentials(authorization, "Basic"));
            case BEARER -> {
                String token = credentials(authorization, "Bearer");
                yield token != null && MessageDigest.isEqual(digest(token), secretDigest);
            }
        };
    }

    private boolean admitsBasic(String encoded) {
        if (encoded == null) return false;
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return false;
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) return false;
        // Both compared, always: which of the two was wrong is not for the client to time.
        boolean user = MessageDigest.isEqual(digest(decoded.substring(0, colon)), userDigest);
        boolean password = MessageDigest.isEqual(digest(decoded.substring(colon + 1)), secretDigest);
        return user & password;
    }

    /** The credentials after {@code scheme} (case-insensitive, as RFC 9110 says), or null if the header has another. */
    private static String credentials(String authorization, String scheme) {
        if (authorization == null || authorization.length() <= scheme.length()
                || !authorization.regionMatches(true, 0, scheme + " ", 0, scheme.length() + 1)) return null;
        return authorization.substring(scheme.length() + 1).strip();
    }

    /** The {@code WWW-Authenticate} value a refused request is answered with. */
    public String challenge() {
        return switch (kind) {
            case NONE -> throw new IllegalStateException("no challenge without authentication");
            case BASIC -> "Basic realm=\"" + REALM + "\", charset=\"UTF-8\"";
            case BEARER -> "Bearer realm=\"" + REALM + "\"";
        };
    }

    /** The {@code Authorization} value to send to a peer's endpoint, which shares these settings; empty with none. */
    public Optional<String> authorization() {
        return Optional.ofNullable(authorization);
    }

    private static byte[] digest(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
