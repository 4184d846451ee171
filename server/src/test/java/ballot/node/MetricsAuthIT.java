package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metrics port protected (docs/metrics.md, "Protecting the endpoint") on a real node over real sockets: basic and
 * bearer authentication on every path it serves, HTTPS with a key store made by the JDK's keytool when the test runs,
 * and where the port listens when native_transport_address is a wildcard or metrics_address is set.
 */
class MetricsAuthIT {
    /** Every kind of path the port serves: the scrape, the console's page and API, an admin call, the trace probability. */
    private static final List<String> PATHS = List.of("/metrics", "/console", "/console/api/ring", "/admin/info",
            "/storage_service/trace_probability");

    @TempDir
    Path directory;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void basicAuthenticationGuardsEveryPath() throws Exception {
        try (TestNode node = TestNode.start("metrics-basic", config -> {
            config.metricsPort = freePort();
            config.metricsAuthentication = "basic";
            config.metricsUsername = "prometheus";
            config.metricsPassword = "s3cret";
        })) {
            URI base = base("http", node.metricsAddress());
            for (String path : PATHS) {
                HttpResponse<String> anonymous = send(http, base, "GET", path, null);
                assertThat(anonymous.statusCode()).as(path).isEqualTo(401);
                assertThat(anonymous.headers().firstValue("WWW-Authenticate")).as(path).hasValue("Basic realm=\"ballot\", charset=\"UTF-8\"");
                assertThat(send(http, base, "GET", path, basic("prometheus", "wrong")).statusCode()).as(path).isEqualTo(401);
                assertThat(send(http, base, "GET", path, basic("grafana", "s3cret")).statusCode()).as(path).isEqualTo(401);
                assertThat(send(http, base, "GET", path, basic("prometheus", "s3cret")).statusCode()).as(path).isEqualTo(200);
            }
            // A change needs the credentials and, as before, a loopback client (which this is).
            String change = "/storage_service/trace_probability?probability=0.5";
            assertThat(send(http, base, "POST", change, null).statusCode()).isEqualTo(401);
            HttpResponse<String> changed = send(http, base, "POST", change, basic("prometheus", "s3cret"));
            assertThat(changed.statusCode()).isEqualTo(200);
            assertThat(changed.body().strip()).isEqualTo("0.5");
        }
    }

    @Test
    void bearerTokenGuardsEveryPath() throws Exception {
        Path token = directory.resolve("token");
        Files.writeString(token, "t0ken-of-the-cluster\n");
        try (TestNode node = TestNode.start("metrics-bearer", config -> {
            config.metricsPort = freePort();
            config.metricsAuthentication = "bearer";
            config.metricsBearerTokenFile = token.toString();
        })) {
            URI base = base("http", node.metricsAddress());
            for (String path : PATHS) {
                HttpResponse<String> anonymous = send(http, base, "GET", path, null);
                assertThat(anonymous.statusCode()).as(path).isEqualTo(401);
                assertThat(anonymous.headers().firstValue("WWW-Authenticate")).as(path).hasValue("Bearer realm=\"ballot\"");
                assertThat(send(http, base, "GET", path, "Bearer t0ken-of-the-cluste").statusCode()).as(path).isEqualTo(401);
                assertThat(send(http, base, "GET", path, basic("prometheus", "t0ken-of-the-cluster")).statusCode()).as(path).isEqualTo(401);
                assertThat(send(http, base, "GET", path, "Bearer t0ken-of-the-cluster").statusCode()).as(path).isEqualTo(200);
            }
        }
    }

    @Test
    void tlsServesHttpsOnlyWithAKeyStoreMadeNow() throws Exception {
        Path keystore = keyStore(directory.resolve("node.p12"), "changeit", "127.0.0.1");
        try (TestNode node = TestNode.start("metrics-tls", config -> {
            config.metricsPort = freePort();
            config.metricsAuthentication = "bearer";
            config.metricsBearerToken = "t0ken";
            config.metricsEncryption.enabled = true;
            config.metricsEncryption.keystore = keystore.toString();
            config.metricsEncryption.keystorePassword = "changeit";
        })) {
            HttpClient https = HttpClient.newBuilder().sslContext(trusting(keystore, "changeit")).connectTimeout(Duration.ofSeconds(5)).build();
            URI base = base("https", node.metricsAddress());
            HttpResponse<String> scrape = send(https, base, "GET", "/metrics", "Bearer t0ken");
            assertThat(scrape.statusCode()).isEqualTo(200);
            assertThat(scrape.body()).contains("ballot_paxos_cas_write_latency_seconds_count");
            assertThat(send(https, base, "GET", "/metrics", null).statusCode()).isEqualTo(401);
            assertThatThrownBy(() -> send(http, base("http", node.metricsAddress()), "GET", "/metrics", "Bearer t0ken"))
                    .isInstanceOf(IOException.class);
        }
    }

    @Test
    void aWildcardCqlAddressKeepsTheMetricsPortOnLoopback() throws Exception {
        try (TestNode node = TestNode.start("metrics-wildcard", config -> {
            config.nativeTransportAddress = "0.0.0.0";
            config.metricsPort = freePort();
        })) {
            assertThat(node.metricsAddress().getAddress()).isEqualTo(InetAddress.getByName("127.0.0.1"));
            assertThat(send(http, base("http", node.metricsAddress()), "GET", "/metrics", null).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void metricsAddressPutsThePortThere() throws Exception {
        try (TestNode node = TestNode.start("metrics-address", config -> {
            config.metricsAddress = "127.0.7.1";
            config.metricsPort = freePort();
        })) {
            assertThat(node.metricsAddress().getAddress()).isEqualTo(InetAddress.getByName("127.0.7.1"));
            assertThat(node.address().getAddress()).isEqualTo(InetAddress.getByName("127.0.0.1"));
            assertThat(send(http, base("http", node.metricsAddress()), "GET", "/metrics", null).statusCode()).isEqualTo(200);
        }
    }

    private static int freePort() {
        try {
            return NodeProcess.freePort();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static URI base(String scheme, InetSocketAddress address) {
        return URI.create(scheme + "://" + address.getAddress().getHostAddress() + ":" + address.getPort());
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private static HttpResponse<String> send(HttpClient client, URI base, String method, String pathAndQuery, String authorization)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(pathAndQuery)).timeout(Duration.ofSeconds(10))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (authorization != null) request.header("Authorization", authorization);
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A PKCS12 key store with a self-signed certificate for {@code addresses}, made by the JDK's keytool: no test dependency. */
    static Path keyStore(Path file, String password, String... addresses) throws IOException, InterruptedException {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process process = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "node", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=ballot-test", "-ext", "SAN=" + String.join(",", java.util.Arrays.stream(addresses).map(a -> "ip:" + a).toList()), "-validity", "2", "-storetype", "PKCS12",
                "-keystore", file.toString(), "-storepass", password, "-keypass", password)
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("keytool finished").isTrue();
        assertThat(process.exitValue()).as("keytool: " + output).isZero();
        return file;
    }

    /** A client context trusting the certificate in {@code keystore}. */
    static SSLContext trusting(Path keystore, String password) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            store.load(in, password.toCharArray());
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}
