package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.command.HealthStateLog;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.utility.DockerImageName;

/**
 * The node's Docker image (docker/Dockerfile) as an application meets it: one container whose health check must pass,
 * then the DataStax driver through the published CQL port (schema, a write and a read, an LWT applied and then not),
 * the metrics port, and the node running as pid 1 under a user other than root.
 *
 * <p>Skipped, and reported as skipped, where no Docker engine answers ({@code disabledWithoutDocker}). The image is
 * built from docker/Dockerfile with the repository as the context (tagged {@code ballot-it:latest} and kept, so a
 * second run reuses the build cache), or {@code -Dballot.docker.image=NAME} runs a prebuilt one. Where Docker Hub
 * cannot be reached, {@code -Dballot.docker.buildImage=} and {@code -Dballot.docker.runtimeImage=} name other base
 * images (the Dockerfile's BUILD_IMAGE and RUNTIME_IMAGE).
 */
@Testcontainers(disabledWithoutDocker = true)
class DockerImageIT {
    private static final int CQL_PORT = 9042;
    private static final int METRICS_PORT = 9180;
    private static GenericContainer<?> container;
    private static CqlSession session;

    @BeforeAll
    static void start() {
        String prebuilt = System.getProperty("ballot.docker.image", "");
        GenericContainer<?> node = prebuilt.isBlank()
                ? new GenericContainer<>(imageFromDockerfile())
                : new GenericContainer<>(DockerImageName.parse(prebuilt));
        container = node.withExposedPorts(CQL_PORT, METRICS_PORT)
                .withEnv("BALLOT_JAVA_OPTS", "-Xms256m -Xmx512m")
                .waitingFor(Wait.forHealthcheck().withStartupTimeout(Duration.ofMinutes(3)));
        container.start();
        session = CqlSession.builder()
                .addContactPoint(new InetSocketAddress(container.getHost(), container.getMappedPort(CQL_PORT)))
                .withLocalDatacenter("datacenter1")
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
                        .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                        .build())
                .build();
        session.execute("CREATE KEYSPACE docker WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    }

    @AfterAll
    static void stop() {
        if (session != null) session.close();
        if (container != null) container.stop();
    }

    @SuppressWarnings("deprecation") // withDockerfile(Path) would make docker/ the context; the build needs the repository's root
    private static ImageFromDockerfile imageFromDockerfile() {
        Path root = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
        if (!Files.isRegularFile(root.resolve("docker/Dockerfile")))
            throw new IllegalStateException("no docker/Dockerfile under " + root + "; run this test from the server module");
        // What the Dockerfile copies, and no more: the repository's target/ and data/ directories can be gigabytes.
        ImageFromDockerfile image = new ImageFromDockerfile("ballot-it:latest", false)
                .withDockerfilePath("docker/Dockerfile")
                .withFileFromPath("pom.xml", root.resolve("pom.xml"))
                .withFileFromPath("docker", root.resolve("docker"));
        for (String module : List.of("paxos", "admission", "cql-frontend", "txn", "server", "tools", "src-bench"))
            image.withFileFromPath(module + "/pom.xml", root.resolve(module).resolve("pom.xml"));
        for (String module : List.of("paxos", "admission", "cql-frontend", "txn", "server"))
            image.withFileFromPath(module + "/src", root.resolve(module).resolve("src"));
        baseImage("ballot.docker.buildImage", "BUILD_IMAGE", image);
        baseImage("ballot.docker.runtimeImage", "RUNTIME_IMAGE", image);
        return image;
    }

    private static void baseImage(String property, String buildArg, ImageFromDockerfile image) {
        String name = System.getProperty(property);
        if (name != null && !name.isBlank()) image.withBuildArg(buildArg, name);
    }

    @Test
    void healthCheckPassesThroughARealQuery() throws IOException, InterruptedException {
        InspectContainerResponse.ContainerState state = container.getCurrentContainerInfo().getState();
        assertThat(state.getHealth().getStatus()).isEqualTo("healthy");
        List<HealthStateLog> log = state.getHealth().getLog();
        assertThat(log).isNotEmpty();
        assertThat(log.get(log.size() - 1).getOutput()).contains("answered SELECT release_version FROM system.local");

        ExecResult probe = container.execInContainer("ballot-health");
        assertThat(probe.getExitCode()).as(probe.getStdout()).isZero();
    }

    @Test
    void nodeRunsAsPidOneUnderAUserOtherThanRoot() throws IOException, InterruptedException {
        ExecResult status = container.execInContainer("cat", "/proc/1/status", "/proc/1/cmdline");
        String uids = status.getStdout().lines().filter(line -> line.startsWith("Uid:")).findFirst().orElseThrow();
        assertThat(uids.substring("Uid:".length()).trim().split("\\s+")).as(uids).doesNotContain("0").hasSize(4);
        assertThat(status.getStdout()).as("pid 1 is the node itself, so docker stop's SIGTERM reaches it").contains("ballot-server.jar");
        assertThat(container.execInContainer("id", "-u").getStdout().trim()).isEqualTo("10042");
    }

    @Test
    void writesAndReadsThroughTheDriver() {
        session.execute("CREATE TABLE docker.kv (k text PRIMARY KEY, v int)");
        session.execute("INSERT INTO docker.kv (k, v) VALUES ('a', 1)");
        session.execute("INSERT INTO docker.kv (k, v) VALUES ('b', 2)");

        Row row = session.execute("SELECT v FROM docker.kv WHERE k = 'b'").one();
        assertThat(row).isNotNull();
        assertThat(row.getInt("v")).isEqualTo(2);
        assertThat(session.execute("SELECT k FROM docker.kv").all()).hasSize(2);
    }

    @Test
    void conditionalInsertAppliesOnceThenReturnsTheExistingRow() {
        session.execute("CREATE TABLE docker.accounts (id int PRIMARY KEY, owner text)");

        ResultSet first = session.execute("INSERT INTO docker.accounts (id, owner) VALUES (1, 'ada') IF NOT EXISTS");
        assertThat(first.wasApplied()).isTrue();

        ResultSet second = session.execute("INSERT INTO docker.accounts (id, owner) VALUES (1, 'bob') IF NOT EXISTS");
        assertThat(second.wasApplied()).isFalse();
        assertThat(second.one().getString("owner")).isEqualTo("ada");
        assertThat(session.execute("SELECT owner FROM docker.accounts WHERE id = 1").one().getString("owner")).isEqualTo("ada");
    }

    @Test
    void metricsArePublishedForPrometheus() throws IOException, InterruptedException {
        URI uri = URI.create("http://" + container.getHost() + ":" + container.getMappedPort(METRICS_PORT) + "/metrics");
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("ballot_paxos_cas_write");
    }
}
