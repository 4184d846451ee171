package ballot.console;

import ballot.metrics.MetricsAuthentication;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import javax.net.ssl.SSLContext;

/**
 * Reads another node's {@code /console/api/node} for the browser, so the page talks to one origin only (no CORS). A
 * peer's console is on its CQL address at this node's metrics port, as in a local cluster (docs/console.md); peers of
 * one cluster share the metrics settings, so each is asked with this node's scheme and credentials.
 */
final class PeerConsoles {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    /** Why a peer's figures could not be had; the message names the peer. */
    static final class Unreachable extends Exception {
        Unreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final HttpClient http;
    private final String scheme;
    private final int metricsPort;
    private final MetricsAuthentication authentication;

    /** @param tls the context to call peers' HTTPS endpoints with; null: they speak plain HTTP */
    PeerConsoles(int metricsPort, SSLContext tls, MetricsAuthentication authentication) {
        HttpClient.Builder http = HttpClient.newBuilder().connectTimeout(TIMEOUT);
        if (tls != null) http.sslContext(tls);
        this.http = http.build();
        this.scheme = tls == null ? "http" : "https";
        this.metricsPort = metricsPort;
        this.authentication = authentication;
    }

    /** The JSON the peer at {@code address} answers for its own node. */
    byte[] node(InetAddress address) throws Unreachable {
        URI uri = URI.create(scheme + "://" + hostInUri(address) + ":" + metricsPort + ConsoleEndpoint.NODE_API);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET();
        authentication.authorization().ifPresent(value -> request.header("Authorization", value));
        try {
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) throw new Unreachable(uri + " answered " + response.statusCode(), null);
            return response.body();
        } catch (IOException e) {
            throw new Unreachable(uri + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unreachable(uri + ": interrupted", e);
        }
    }

    private static String hostInUri(InetAddress address) {
        String host = address.getHostAddress();
        return host.contains(":") ? "[" + host + "]" : host;
    }
}
