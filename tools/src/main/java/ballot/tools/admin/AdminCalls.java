package ballot.tools.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The admin calls one node serves on its metrics_port: {@code /admin/<call>} answers JSON, the trace probability plain
 * text. A refusal (unknown table, a change from a non-loopback address) becomes a {@link AdminCli.Failure} with the
 * node's one-line reason, a node that does not answer one naming its address. A node that protects the port is asked
 * over its scheme with the credentials of {@link MetricsAccess}; one that refuses them says which options to give.
 */
final class AdminCalls {
    /** Long enough for a flush or a compaction of a large table, which answer only once done. */
    private static final Duration CALL_TIMEOUT = Duration.ofMinutes(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String host;
    private final int metricsPort;
    private final MetricsAccess access;

    AdminCalls(String host, int metricsPort, MetricsAccess access) {
        this.host = host;
        this.metricsPort = metricsPort;
        this.access = access;
    }

    /** GET of a call that reads the node. */
    JsonNode get(String call, List<String> tables) {
        return json("GET", call, tables);
    }

    /** POST of a call that changes the node: only from a loopback address unless the node allows any. */
    JsonNode post(String call, List<String> tables) {
        return json("POST", call, tables);
    }

    /** POST of a call that changes the node, with these query parameters (in their order). */
    JsonNode post(String call, Map<String, String> parameters) {
        return json("POST", call, parameters.entrySet().stream().map(p -> p.getKey() + "=" + URLEncoder.encode(p.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&")));
    }

    private JsonNode json(String method, String call, List<String> tables) {
        return json(method, call, tables.stream().map(t -> "table=" + URLEncoder.encode(t, StandardCharsets.UTF_8)).collect(Collectors.joining("&")));
    }

    private JsonNode json(String method, String call, String query) {
        String body = text(method, "/admin/" + call, query.isEmpty() ? null : query);
        try {
            return JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new AdminCli.Failure("the node at " + address() + " answered " + call + " with something other than JSON: " + e.getOriginalMessage());
        }
    }

    /** The answer's body when it is 200; otherwise a failure with the node's reason. */
    String text(String method, String path, String query) {
        URI uri = URI.create(access.scheme() + "://" + address() + path + (query == null ? "" : "?" + query));
        HttpRequest request = access.authorize(HttpRequest.newBuilder(uri)).timeout(CALL_TIMEOUT)
                .method(method, HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> response;
        try {
            response = access.client(Duration.ofSeconds(10)).send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AdminCli.Failure("cannot reach the node's admin calls at " + address() + " (its metrics_port; is the node up, and are "
                    + "--host/--metrics-port right?): " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AdminCli.Failure("interrupted while waiting for " + address());
        }
        if (response.statusCode() == 401)
            throw new AdminCli.Failure("the node at " + address() + " refused the credentials given for " + path + " (it asks for "
                    + response.headers().firstValue("WWW-Authenticate").orElse("credentials") + "): give --metrics-user and "
                    + "--metrics-password (or BALLOT_METRICS_PASSWORD), or --metrics-token (or BALLOT_METRICS_TOKEN)");
        if (response.statusCode() == 404) throw new AdminCli.Failure("the node at " + address() + " has no admin call " + path + " (an older Ballot?)");
        if (response.statusCode() != 200) throw new AdminCli.Failure(response.body().strip());
        return response.body().strip();
    }

    private String address() {
        return host + ":" + metricsPort;
    }
}
