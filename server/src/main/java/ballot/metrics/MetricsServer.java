package ballot.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scrape endpoint: {@code GET /metrics} answers every meter of the registry in the Prometheus text format
 * (docs/metrics.md); the admin calls the node {@link #route}s are served beside it; any other path is 404, any other
 * method 405. The JDK's HTTP server runs the handler on its one
 * dispatcher thread, so scrapes are sequential, and {@link #close()} returns only after a scrape in progress has
 * finished: once closed, nothing reads the gauges (some read storage that is closed next).
 */
public final class MetricsServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MetricsServer.class);
    private static final String PATH = "/metrics";
    /** What {@link PrometheusMeterRegistry#scrape()} writes: the Prometheus text exposition format 0.0.4. */
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;

    private MetricsServer(HttpServer server) {
        this.server = server;
    }

    /**
     * Listens on {@code address}:{@code port} (0: an ephemeral port) and serves the registry.
     *
     * @throws IllegalStateException when the address cannot be bound (the port is in use, say)
     */
    public static MetricsServer start(PrometheusMeterRegistry registry, InetAddress address, int port) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(address, port), 16);
        } catch (IOException e) {
            throw new IllegalStateException("cannot listen on " + address.getHostAddress() + ":" + port + ": " + e.getMessage(), e);
        }
        server.createContext("/", exchange -> handle(registry, exchange));
        server.start();
        MetricsServer metrics = new MetricsServer(server);
        log.info("metrics endpoint listening url=http://{}:{}{}", address.getHostAddress(), metrics.address().getPort(), PATH);
        return metrics;
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** Serves {@code path} (and the paths under it) with {@code handler} too: the node's few admin calls. */
    public void route(String path, HttpHandler handler) {
        server.createContext(path, handler);
    }

    private static void handle(PrometheusMeterRegistry registry, HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestURI().getPath().equals(PATH)) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            if (!exchange.getRequestMethod().equals("GET")) {
                exchange.getResponseHeaders().set("Allow", "GET");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body;
            try {
                body = registry.scrape().getBytes(StandardCharsets.UTF_8);
            } catch (RuntimeException e) {
                log.error("metrics scrape failed", e);
                exchange.sendResponseHeaders(500, -1);
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** Stops listening; waits for a scrape in progress. */
    @Override
    public void close() {
        server.stop(0);
        log.info("metrics endpoint stopped");
    }
}
