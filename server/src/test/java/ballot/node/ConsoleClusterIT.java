package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's view of a two-node cluster (docs/console.md), from the first node only: the ring with both members,
 * the second node's figures read through the first, and, once the second is killed, a Down row and a 502 that names
 * the peer it could not reach.
 */
class ConsoleClusterIT {
    private static final ObjectMapper json = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void firstNodeServesTheRingAndItsPeersFigures(@TempDir Path directory) throws Exception {
        int nativePort = NodeProcess.freePort();
        int storagePort = NodeProcess.freePort();
        int metricsPort = NodeProcess.freePort();
        List<String> seeds = List.of("127.0.0.1:" + storagePort);
        try (NodeProcess first = new NodeProcess(directory.resolve("node1"), "127.0.0.1", nativePort, storagePort, seeds).metricsPort(metricsPort).start();
             NodeProcess second = new NodeProcess(directory.resolve("node2"), "127.0.0.2", nativePort, storagePort, seeds).metricsPort(metricsPort).start()) {
            String console = "http://127.0.0.1:" + metricsPort + "/console/api/";
            JsonNode members = awaitRing(console, m -> m.size() == 2 && m.get(0).path("up").asBoolean() && m.get(1).path("up").asBoolean());
            JsonNode peer = members.get(0).path("self").asBoolean() ? members.get(1) : members.get(0);
            assertThat(peer.path("address").asText()).isEqualTo("127.0.0.2");
            assertThat(members.get(0).path("ownership").asDouble() + members.get(1).path("ownership").asDouble()).isCloseTo(1.0, within(1e-9));

            HttpResponse<String> throughFirst = get(console + "node?host=" + peer.path("hostId").asText());
            assertThat(throughFirst.statusCode()).isEqualTo(200);
            assertThat(json.readTree(throughFirst.body()).path("status").path("address").asText()).isEqualTo("127.0.0.2");

            second.kill();
            awaitRing(console, m -> m.size() == 2 && !(m.get(0).path("self").asBoolean() ? m.get(1) : m.get(0)).path("up").asBoolean());
            HttpResponse<String> gone = get(console + "node?host=" + peer.path("hostId").asText());
            assertThat(gone.statusCode()).isEqualTo(502);
            assertThat(gone.body()).contains("127.0.0.2:" + metricsPort);
        }
    }

    @Test
    void firstNodeReadsItsPeersFiguresOverHttpsWithTheClustersToken(@TempDir Path directory) throws Exception {
        int nativePort = NodeProcess.freePort();
        int storagePort = NodeProcess.freePort();
        int metricsPort = NodeProcess.freePort();
        Path keystore = MetricsAuthIT.keyStore(directory.resolve("cluster.p12"), "changeit", "127.0.0.1", "127.0.0.2");
        String[] protection = {"metrics_authentication: bearer", "metrics_bearer_token: cluster-t0ken", "metrics_encryption_options:",
                "  enabled: true", "  keystore: " + keystore, "  keystore_password: changeit"};
        List<String> seeds = List.of("127.0.0.1:" + storagePort);
        try (NodeProcess first = new NodeProcess(directory.resolve("node1"), "127.0.0.1", nativePort, storagePort, seeds).metricsPort(metricsPort)
                     .settings(List.of(protection)).start();
             NodeProcess second = new NodeProcess(directory.resolve("node2"), "127.0.0.2", nativePort, storagePort, seeds).metricsPort(metricsPort)
                     .settings(List.of(protection)).start()) {
            HttpClient https = HttpClient.newBuilder().sslContext(MetricsAuthIT.trusting(keystore, "changeit")).build();
            String console = "https://127.0.0.1:" + metricsPort + "/console/api/";
            JsonNode members = awaitRing(https, "cluster-t0ken", console, m -> m.size() == 2 && m.get(0).path("up").asBoolean()
                    && m.get(1).path("up").asBoolean());
            JsonNode peer = members.get(0).path("self").asBoolean() ? members.get(1) : members.get(0);

            HttpResponse<String> throughFirst = get(https, "cluster-t0ken", console + "node?host=" + peer.path("hostId").asText());
            assertThat(throughFirst.statusCode()).as(throughFirst.body()).isEqualTo(200);
            assertThat(json.readTree(throughFirst.body()).path("status").path("address").asText()).isEqualTo("127.0.0.2");
            assertThat(get(https, null, console + "node?host=" + peer.path("hostId").asText()).statusCode()).isEqualTo(401);
        }
    }

    /** Polls the ring (at most 30 s) until {@code done} holds for its members, and returns them. */
    private JsonNode awaitRing(String console, Predicate<JsonNode> done) throws Exception {
        return awaitRing(http, null, console, done);
    }

    private JsonNode awaitRing(HttpClient client, String token, String console, Predicate<JsonNode> done) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        JsonNode members = null;
        while (System.nanoTime() < deadline) {
            members = json.readTree(get(client, token, console + "ring").body()).path("members");
            if (done.test(members)) return members;
            Thread.sleep(200);
        }
        throw new AssertionError("the ring did not reach the expected state in 30 s: " + members);
    }

    private HttpResponse<String> get(String uri) throws Exception {
        return get(http, null, uri);
    }

    /** A GET with {@code token} as bearer credentials (null: none). */
    private static HttpResponse<String> get(HttpClient client, String token, String uri) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(uri));
        if (token != null) request.header("Authorization", "Bearer " + token);
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
