package ballot.tracing;

import ballot.cql.trace.Tracer;
import ballot.metrics.AdminChanges;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Changes {@code trace_probability} while the node runs, at the path of ScyllaDB's REST call behind
 * {@code nodetool settraceprobability}: {@code GET} answers the probability, {@code POST ?probability=P} sets it (P in
 * [0, 1]; anything else is 400 with the reason). Served beside the metrics on {@code metrics_port}; the admin CLI's
 * {@code settraceprobability} and {@code gettraceprobability} call it.
 *
 * <p>A change is taken only from where {@link AdminChanges} permits: from anywhere else it is 403.
 */
public final class TraceProbabilityEndpoint implements HttpHandler {
    public static final String PATH = "/storage_service/trace_probability";
    private static final Logger log = LoggerFactory.getLogger(TraceProbabilityEndpoint.class);

    private final Tracer tracer;
    private final AdminChanges changes;

    public TraceProbabilityEndpoint(Tracer tracer, AdminChanges changes) {
        this.tracer = tracer;
        this.changes = changes;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestURI().getPath().equals(PATH)) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            switch (exchange.getRequestMethod()) {
                case "GET" -> answer(exchange, 200, Double.toString(tracer.probability()));
                case "POST" -> set(exchange);
                default -> {
                    exchange.getResponseHeaders().set("Allow", "GET, POST");
                    exchange.sendResponseHeaders(405, -1);
                }
            }
        }
    }

    private void set(HttpExchange exchange) throws IOException {
        if (changes.refused(exchange, "a trace probability change")) return;
        String query = exchange.getRequestURI().getQuery();
        String value = null;
        if (query != null) {
            for (String pair : query.split("&")) if (pair.startsWith("probability=")) value = pair.substring("probability=".length());
        }
        if (value == null) {
            answer(exchange, 400, "missing query parameter probability");
            return;
        }
        double probability;
        try {
            probability = Double.parseDouble(value);
        } catch (NumberFormatException e) {
            answer(exchange, 400, "trace_probability must be a number, was '" + value + "'");
            return;
        }
        try {
            tracer.probability(probability);
        } catch (IllegalArgumentException e) {
            answer(exchange, 400, e.getMessage());
            return;
        }
        log.info("trace probability set probability={}", probability);
        answer(exchange, 200, Double.toString(probability));
    }

    private static void answer(HttpExchange exchange, int status, String text) throws IOException {
        AdminChanges.answer(exchange, status, text);
    }
}
