package ballot.tools.admin;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Base64;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * How the CLI reaches a node's metrics port when the node protects it (docs/admin.md, "A protected metrics port"):
 * HTTPS or HTTP, and the {@code Authorization} header it sends, basic for a user and password or bearer for a token.
 */
final class MetricsAccess {
    private final SSLContext tls;
    private final String authorization;

    private MetricsAccess(SSLContext tls, String authorization) {
        this.tls = tls;
        this.authorization = authorization;
    }

    /**
     * @param tls        whether the port speaks HTTPS; its certificate is checked against {@code truststore}, or the
     *                   JDK's trusted authorities when that is null
     * @throws AdminCli.Failure naming the options when they contradict each other or a trust store cannot be read
     */
    static MetricsAccess of(String user, String password, String token, boolean tls, Path truststore, String truststorePassword) {
        if (user != null && token != null)
            throw new AdminCli.Failure("give either --metrics-user (basic) or --metrics-token (bearer), not both");
        if (user != null && password == null)
            throw new AdminCli.Failure("--metrics-user needs --metrics-password (or BALLOT_METRICS_PASSWORD in the environment)");
        if (truststore != null && !tls) throw new AdminCli.Failure("--metrics-truststore needs --metrics-tls");
        String authorization = user != null
                ? "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8))
                : token != null ? "Bearer " + token : null;
        return new MetricsAccess(tls ? context(truststore, truststorePassword) : null, authorization);
    }

    String scheme() {
        return tls == null ? "http" : "https";
    }

    HttpClient client(Duration connectTimeout) {
        HttpClient.Builder client = HttpClient.newBuilder().connectTimeout(connectTimeout);
        if (tls != null) client.sslContext(tls);
        return client.build();
    }

    HttpRequest.Builder authorize(HttpRequest.Builder request) {
        return authorization == null ? request : request.header("Authorization", authorization);
    }

    private static SSLContext context(Path truststore, String password) {
        try {
            if (truststore == null) return SSLContext.getDefault();
            KeyStore trusted = KeyStore.getInstance(truststore.toFile(), password == null ? null : password.toCharArray());
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new AdminCli.Failure("cannot read --metrics-truststore " + truststore + " (PKCS12 or JKS; is "
                    + "--metrics-truststore-password right?): " + e.getMessage());
        }
    }
}
