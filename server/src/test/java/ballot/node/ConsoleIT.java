package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console (docs/console.md) of a real node under LWT and plain-write load, loaded in headless Chromium over the
 * DevTools Protocol: the page raises no JavaScript error and logs no error, and every graph has points. Keeps a
 * screenshot at {@code target/console-it/console.png}. Skipped where no {@code chromium} is installed.
 */
class ConsoleIT {
    /** The page's graphs, by title; the first six are the LWT graphs. */
    private static final List<String> GRAPHS = List.of("LWTs per second", "LWT latency", "Contention (backoffs per second)",
            "Condition not met per second", "LWT timeouts per second", "Round trips per LWT",
            "Requests per second, by opcode", "Errors per second, by code");
    private static final Path ARTIFACTS = Path.of("target", "console-it");
    /** Rounds of the load, each of {@link #ROUND} statements: a bound, should the test never stop it. */
    private static final int ROUNDS_MAX = 600;
    private static final int ROUND = 300;
    private static final ObjectMapper json = new ObjectMapper();

    private static Path chromium;
    private static TestNode node;
    private static CqlSession session;
    private static final AtomicBoolean loadStopped = new AtomicBoolean();
    private static final AtomicReference<Throwable> loadFailure = new AtomicReference<>();
    private static Thread load;

    @BeforeAll
    static void startNodeUnderLoad() throws IOException {
        Optional<Path> binary = HeadlessChromium.binary();
        assumeTrue(binary.isPresent(), "ConsoleIT skipped: no chromium on PATH; install it with apt-get install -y chromium");
        chromium = binary.get();
        int port = NodeProcess.freePort();
        node = TestNode.start("console", config -> config.metricsPort = port);
        session = node.session();
        session.execute("CREATE KEYSPACE c WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE c.t (k int PRIMARY KEY, v int)");
        PreparedStatement write = session.prepare("INSERT INTO c.t (k, v) VALUES (?, ?)");
        PreparedStatement insertIfNew = session.prepare("INSERT INTO c.t (k, v) VALUES (?, ?) IF NOT EXISTS");
        PreparedStatement updateIf = session.prepare("UPDATE c.t SET v = ? WHERE k = ? IF v = -1");
        load = new Thread(() -> {
            try {
                for (int round = 0; round < ROUNDS_MAX && !loadStopped.get(); round++) {
                    int base = round * ROUND;
                    // plain writes, LWTs that apply, LWTs whose condition is not met
                    try {
                        Load.inWindows(session, ROUND, i -> switch (i % 3) {
                            case 0 -> write.bind(base + i, i);
                            case 1 -> insertIfNew.bind(1_000_000 + base + i, i);
                            default -> updateIf.bind(i, base + i - 2);
                        });
                    } catch (CompletionException e) {
                        // The load only feeds the graphs: a write that times out while Chromium starts on the same
                        // two cores ends its round, and the next round goes on. Any other failure fails the test.
                        if (!(e.getCause() instanceof WriteTimeoutException)) throw e;
                    }
                }
            } catch (Throwable t) {
                loadFailure.set(t);
            }
        }, "console-it-load");
        load.start();
    }

    @AfterAll
    static void stop() throws InterruptedException {
        loadStopped.set(true);
        if (load != null) load.join(TimeUnit.SECONDS.toMillis(30));
        if (session != null) session.close();
        if (node != null) node.close();
    }

    @Test
    void pageDrawsEveryGraphWithoutErrors(@TempDir Path profile) throws Exception {
        awaitSampledLwts();
        Files.createDirectories(ARTIFACTS);
        try (HeadlessChromium browser = HeadlessChromium.launch(chromium, profile, ARTIFACTS.resolve("chromium.log"))) {
            browser.send("Runtime.enable");
            browser.send("Log.enable");
            browser.send("Page.enable");
            browser.send("Page.navigate", json.createObjectNode().put("url", url("/console")));

            Map<String, Integer> first = awaitGraphs(browser, drawn -> drawn.keySet().containsAll(GRAPHS)
                    && GRAPHS.subList(0, 6).stream().allMatch(title -> drawn.get(title) > 0));
            // one refresh more, so that an error in redrawing shows too
            Map<String, Integer> drawn = awaitGraphs(browser, d -> d.get(GRAPHS.get(0)) > first.get(GRAPHS.get(0)));
            String ring = browser.evaluate("document.querySelector('#ring tbody').innerText").asText();
            String status = browser.evaluate("document.getElementById('status').textContent").asText();
            String png = browser.send("Page.captureScreenshot", json.createObjectNode().put("format", "png")
                    .put("captureBeyondViewport", true)).get("data").asText();
            Files.write(ARTIFACTS.resolve("console.png"), Base64.getDecoder().decode(png));

            assertThat(errors(browser.events())).as("JavaScript exceptions and errors logged by the page").isEmpty();
            assertThat(drawn).as("points drawn per graph").containsOnlyKeys(GRAPHS).allSatisfy((title, points) -> assertThat(points).as(title).isPositive());
            String address = node.address().getAddress().getHostAddress();
            assertThat(ring).contains(address + " (this node)").contains("Up").contains("NORMAL");
            assertThat(status).startsWith(address);
        }
        assertThat(loadFailure.get()).as("the load's failure").isNull();
    }

    @Test
    void apiIsReadOnlyAndFetchesOnlyRingMembers() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create(url("/console/api/node")))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
        HttpResponse<String> stranger = http.send(HttpRequest.newBuilder(URI.create(url("/console/api/node?host=00000000-0000-0000-0000-000000000001")))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(stranger.statusCode()).isEqualTo(404);
        assertThat(stranger.body()).contains("no member");
        JsonNode members = json.readTree(http.send(HttpRequest.newBuilder(URI.create(url("/console/api/ring"))).build(),
                HttpResponse.BodyHandlers.ofString()).body()).path("members");
        assertThat(members).hasSize(1);
        String hostId = members.get(0).path("hostId").asText();
        HttpResponse<String> self = http.send(HttpRequest.newBuilder(URI.create(url("/console/api/node?host=" + hostId))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(json.readTree(self.body()).path("status").path("hostId").asText()).isEqualTo(hostId);
    }

    /** Waits (at most 30 s) until the node's own API has three points with LWTs in them. */
    private static void awaitSampledLwts() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        JsonNode rates = null;
        while (System.nanoTime() < deadline) {
            String body = http.send(HttpRequest.newBuilder(URI.create(url("/console/api/node"))).build(), HttpResponse.BodyHandlers.ofString()).body();
            rates = json.readTree(body).path("points").path("lwtPerSecond");
            int withLwts = 0;
            for (JsonNode rate : rates) if (rate.asDouble() > 0) withLwts++;
            if (withLwts >= 3) return;
            Thread.sleep(200);
        }
        throw new AssertionError("the console sampled no LWTs in 30 s: lwtPerSecond " + rates + "; load failure " + loadFailure.get());
    }

    /** Polls {@code window.ballotConsole.pointsDrawn()} (at most 30 s) until {@code done} holds, and returns it. */
    private static Map<String, Integer> awaitGraphs(HeadlessChromium browser, java.util.function.Predicate<Map<String, Integer>> done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Map<String, Integer> drawn = Map.of();
        while (System.nanoTime() < deadline) {
            JsonNode value = browser.evaluate("window.ballotConsole ? window.ballotConsole.pointsDrawn() : null");
            drawn = new TreeMap<>();
            for (var e : (Iterable<Map.Entry<String, JsonNode>>) value::fields) drawn.put(e.getKey(), e.getValue().asInt());
            if (!drawn.isEmpty() && done.test(drawn)) return drawn;
            Thread.sleep(200);
        }
        throw new AssertionError("the graphs did not fill in 30 s: points drawn " + drawn + "; page errors " + errors(browser.events()));
    }

    /** Uncaught exceptions, console.error and console.assert calls, and error entries of the browser's log. */
    private static List<String> errors(List<JsonNode> events) {
        List<String> errors = new ArrayList<>();
        for (JsonNode event : events) {
            JsonNode params = event.path("params");
            switch (event.path("method").asText()) {
                case "Runtime.exceptionThrown" -> errors.add("exception: " + params.path("exceptionDetails"));
                case "Runtime.consoleAPICalled" -> {
                    String type = params.path("type").asText();
                    if (type.equals("error") || type.equals("assert")) errors.add("console." + type + ": " + params.path("args"));
                }
                case "Log.entryAdded" -> {
                    if (params.path("entry").path("level").asText().equals("error")) errors.add("log: " + params.path("entry"));
                }
                default -> { }
            }
        }
        return errors;
    }

    private static String url(String path) {
        InetSocketAddress metrics = node.metricsAddress();
        return "http://" + metrics.getAddress().getHostAddress() + ":" + metrics.getPort() + path;
    }
}
