package ballot.console;

import ballot.cluster.Membership;
import ballot.cluster.NodeInfo;
import ballot.metrics.MetricsServer;
import ballot.system.LocalNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The built-in console (docs/console.md), served beside the metrics on {@code metrics_port}. Read-only: every path
 * answers GET only, and nothing here changes the node.
 * <ul>
 *   <li>{@code /console}: the page, and its script, style and uPlot ({@link ConsoleAssets});</li>
 *   <li>{@code /console/api/node}: this node's status and its graphs' last points ({@link MeterSampler});</li>
 *   <li>{@code /console/api/node?host=<host id>}: the same from another member, read by this node ({@link PeerConsoles});</li>
 *   <li>{@code /console/api/ring}: the members as this node sees them ({@link RingView}).</li>
 * </ul>
 */
public final class ConsoleEndpoint implements HttpHandler, AutoCloseable {
    public static final String PATH = "/console";
    static final String NODE_API = "/console/api/node";
    static final String RING_API = "/console/api/ring";
    private static final Logger log = LoggerFactory.getLogger(ConsoleEndpoint.class);
    private static final ObjectMapper json = new ObjectMapper();

    private final MeterSampler sampler;
    private final LocalNode identity;
    private final Membership membership;
    private final PeerConsoles peers;
    private final ConsoleAssets assets = new ConsoleAssets();
    private final long startedMillis = System.currentTimeMillis();

    private ConsoleEndpoint(MeterSampler sampler, LocalNode identity, Membership membership, PeerConsoles peers) {
        this.sampler = sampler;
        this.identity = identity;
        this.membership = membership;
        this.peers = peers;
    }

    /** Starts sampling {@code registry} and serves the console on {@code server} until {@link #close}. */
    public static ConsoleEndpoint start(MeterRegistry registry, LocalNode identity, Membership membership, MetricsServer server) {
        MeterSampler sampler = new MeterSampler(registry, MeterSampler.POINTS);
        ConsoleEndpoint console = new ConsoleEndpoint(sampler, identity, membership, new PeerConsoles(server.address().getPort(), server.tls(),
                server.authentication()));
        sampler.start();
        server.route(PATH, console);
        return console;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            ConsoleAssets.Asset asset = assets.at(path);
            if (asset == null && !path.equals(NODE_API) && !path.equals(RING_API)) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            if (!exchange.getRequestMethod().equals("GET")) {
                exchange.getResponseHeaders().set("Allow", "GET");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            if (asset != null) answer(exchange, 200, asset.contentType(), asset.body());
            else if (path.equals(RING_API)) answerJson(exchange, json.writeValueAsBytes(Map.of("members", RingView.members(membership))));
            else node(exchange, queryParameter(exchange, "host"));
        }
    }

    private void node(HttpExchange exchange, String host) throws IOException {
        if (host == null || host.equals(identity.hostId().toString())) {
            answerJson(exchange, json.writeValueAsBytes(ownNode()));
            return;
        }
        NodeInfo peer;
        try {
            peer = membership.member(UUID.fromString(host));
        } catch (IllegalArgumentException e) {
            peer = null;
        }
        if (peer == null) {
            answerText(exchange, 404, "no member with host id '" + host + "' in the ring");
            return;
        }
        try {
            answerJson(exchange, peers.node(peer.nativeAddress()));
        } catch (PeerConsoles.Unreachable e) {
            log.debug("peer console unreachable host_id={} cause={}", host, e.getMessage());
            answerText(exchange, 502, "cannot read the console of " + host + ": " + e.getMessage());
        }
    }

    private ObjectNode ownNode() {
        ObjectNode node = json.createObjectNode();
        ObjectNode status = node.putObject("status");
        status.put("hostId", identity.hostId().toString());
        status.put("cluster", identity.clusterName());
        status.put("address", identity.nativeAddress().getHostAddress());
        status.put("nativePort", identity.nativePort());
        status.put("dataCenter", identity.dataCenter());
        status.put("rack", identity.rack());
        status.put("releaseVersion", LocalNode.RELEASE_VERSION);
        status.put("uptimeSeconds", (System.currentTimeMillis() - startedMillis) / 1000);
        status.put("samplePeriodMillis", MeterSampler.PERIOD_MILLIS);
        node.set("points", columns(sampler.points()));
        return node;
    }

    /** The points as columns, one array per figure, as the graphs take them; a null is a gap. */
    private static ObjectNode columns(List<ConsolePoint> points) {
        ObjectNode out = json.createObjectNode();
        column(out, "timeMillis", points, ConsolePoint::timeMillis);
        column(out, "lwtPerSecond", points, ConsolePoint::lwtPerSecond);
        column(out, "lwtP50Millis", points, ConsolePoint::lwtP50Millis);
        column(out, "lwtP99Millis", points, ConsolePoint::lwtP99Millis);
        column(out, "contentionPerSecond", points, ConsolePoint::contentionPerSecond);
        column(out, "conditionNotMetPerSecond", points, ConsolePoint::conditionNotMetPerSecond);
        column(out, "timeoutsPerSecond", points, ConsolePoint::timeoutsPerSecond);
        column(out, "roundTripsPerLwt", points, ConsolePoint::roundTripsPerLwt);
        out.set("requestsPerSecond", byKey(points, ConsolePoint::requestsPerSecond));
        out.set("errorsPerSecond", byKey(points, ConsolePoint::errorsPerSecond));
        return out;
    }

    private static void column(ObjectNode out, String name, List<ConsolePoint> points, Function<ConsolePoint, Number> figure) {
        ArrayNode values = out.putArray(name);
        for (ConsolePoint p : points) values.addPOJO(figure.apply(p));
    }

    /** One column per key (opcode, error code) that any point has; a point without the key has 0. */
    private static ObjectNode byKey(List<ConsolePoint> points, Function<ConsolePoint, Map<String, Double>> figure) {
        Map<String, ArrayNode> columns = new TreeMap<>();
        for (ConsolePoint p : points) for (String key : figure.apply(p).keySet()) columns.computeIfAbsent(key, k -> json.createArrayNode());
        for (ConsolePoint p : points) columns.forEach((key, values) -> values.add(figure.apply(p).getOrDefault(key, 0.0)));
        ObjectNode out = json.createObjectNode();
        columns.forEach(out::set);
        return out;
    }

    private static String queryParameter(HttpExchange exchange, String name) {
        String query = exchange.getRequestURI().getQuery();
        if (query == null) return null;
        for (String pair : query.split("&")) if (pair.startsWith(name + "=")) return pair.substring(name.length() + 1);
        return null;
    }

    private static void answerJson(HttpExchange exchange, byte[] body) throws IOException {
        answer(exchange, 200, "application/json", body);
    }

    private static void answerText(HttpExchange exchange, int status, String text) throws IOException {
        answer(exchange, status, "text/plain; charset=utf-8", (text + "\n").getBytes(StandardCharsets.UTF_8));
    }

    private static void answer(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** Stops sampling; the metrics server stops serving the paths when it closes. */
    @Override
    public void close() {
        sampler.close();
    }
}
