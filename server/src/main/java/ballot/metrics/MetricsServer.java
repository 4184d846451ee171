package ballot.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scrape endpoint: {@code GET /metrics} answers every meter of the registry in the Prometheus text format
 * (docs/metrics.md); the admin calls the node {@link #route}s are served beside it; any other path is 404, any other
 * method 405. Exchanges run on a small pool, not on the JDK server's one dispatcher thread, so a client that is slow to
 * send its request holds one thread, not the endpoint; and it has {@link #CLIENT_SECONDS} to send its request and to
 * read the answer before its connection is closed. {@link #close()} returns only after the scrapes in progress have
 * finished: once closed, nothing reads the gauges (some read storage that is closed next).
 *
 * <p>Every path, the admin calls' and the console's included, is served through {@link #guarded}: a request without
 * the credentials {@link MetricsAuthentication} asks for is answered 401 before any handler sees it. With a TLS
 * context the port speaks HTTPS only.
 */
public final class MetricsServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MetricsServer.class);
    private static final String PATH = "/metrics";
    /** What {@link PrometheusMeterRegistry#scrape()} writes: the Prometheus text exposition format 0.0.4. */
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    /** Seconds a client may take to send its request, and to read the answer. */
    static final int CLIENT_SECONDS = 10;
    private static final int THREADS = 4;

    static {
        // The JDK server reads these once, when its first instance is made; an operator's -D setting wins.
        System.setProperty("sun.net.httpserver.maxReqTime", System.getProperty("sun.net.httpserver.maxReqTime", String.valueOf(CLIENT_SECONDS)));
        System.setProperty("sun.net.httpserver.maxRspTime", System.getProperty("sun.net.httpserver.maxRspTime", String.valueOf(CLIENT_SECONDS)));
    }

    private final HttpServer server;
    private final ExecutorService exchanges;
    private final MetricsAuthentication authentication;
    private final SSLContext tls;

    private MetricsServer(HttpServer server, ExecutorService exchanges, MetricsAuthentication authentication, SSLContext tls) {
        this.server = server;
        this.exchanges = exchanges;
        this.authentication = authentication;
        this.tls = tls;
    }

    /**
     * Listens on {@code address}:{@code port} (0: an ephemeral port) and serves the registry to the clients
     * {@code authentication} admits, over TLS with {@code tls} (null: plain HTTP).
     *
     * @throws IllegalStateException when the address cannot be bound (the port is in use, say)
     */
    public static MetricsServer start(PrometheusMeterRegistry registry, InetAddress address, int port, MetricsAuthentication authentication,
            SSLContext tls) {
        HttpServer server;
        try {
            InetSocketAddress socket = new InetSocketAddress(address, port);
            if (tls == null) {
                server = HttpServer.create(socket, 16);
            } else {
                HttpsServer https = HttpsServer.create(socket, 16);
                https.setHttpsConfigurator(new HttpsConfigurator(tls));
                server = https;
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot listen on " + address.getHostAddress() + ":" + port + ": " + e.getMessage(), e);
        }
        AtomicInteger threads = new AtomicInteger();
        ExecutorService exchanges = Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "metrics-http-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(exchanges);
        MetricsServer metrics = new MetricsServer(server, exchanges, authentication, tls);
        metrics.route("/", exchange -> handle(registry, exchange));
        server.start();
        log.info("metrics endpoint listening url={}://{}:{}{} authentication={}", tls == null ? "http" : "https", address.getHostAddress(),
                metrics.address().getPort(), PATH, authentication.kind().name().toLowerCase(Locale.ROOT));
        return metrics;
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** How this node's endpoint authenticates; its peers', sharing its settings, take the same credentials. */
    public MetricsAuthentication authentication() {
        return authentication;
    }

    /** The TLS context the endpoint serves with, which also calls the peers' endpoints; null: plain HTTP. */
    public SSLContext tls() {
        return tls;
    }

    /** Serves {@code path} (and the paths under it) with {@code handler} too, behind the same authentication. */
    public void route(String path, HttpHandler handler) {
        server.createContext(path, guarded(handler));
    }

    /** The one authentication check: every context is created through {@link #route}, so no path escapes it. */
    private HttpHandler guarded(HttpHandler handler) {
        if (authentication.kind() == MetricsAuthentication.Kind.NONE) return handler;
        return exchange -> {
            if (authentication.admits(exchange.getRequestHeaders().getFirst("Authorization"))) {
                handler.handle(exchange);
                return;
            }
            try (exchange) {
                log.debug("metrics request refused: no valid credentials client={} path={}", exchange.getRemoteAddress().getAddress().getHostAddress(),
                        exchange.getRequestURI().getPath());
                exchange.getResponseHeaders().set("WWW-Authenticate", authentication.challenge());
                exchange.sendResponseHeaders(401, -1);
            }
        };
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

    /** Stops listening and closes every connection; waits (up to 10 s) for the scrapes in progress. */
    @Override
    public void close() {
        server.stop(0);
        exchanges.shutdown();
        try {
            if (!exchanges.awaitTermination(10, TimeUnit.SECONDS)) log.warn("metrics endpoint stopped with a scrape still running");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        log.info("metrics endpoint stopped");
    }
}
