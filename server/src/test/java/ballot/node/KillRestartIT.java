package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Nothing acknowledged is lost: a node process is killed with SIGKILL (no shutdown hook, no flush) right after
 * acknowledging writes, restarted on the same data directory, and every acknowledged write is read back.
 */
class KillRestartIT {
    private Path directory;
    private Process process;

    @BeforeEach
    void createDirectory() throws IOException {
        directory = Files.createTempDirectory("ballot-kill");
    }

    @AfterEach
    void cleanUp() throws IOException {
        if (process != null && process.isAlive()) process.destroyForcibly();
        try (var files = Files.walk(directory)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void acknowledgedWritesAndLwtsSurviveKillMinusNine() throws Exception {
        int port = freePort();
        int storagePort = freePort();
        process = startNode(port, storagePort);
        List<Integer> acknowledged = new ArrayList<>();
        try (CqlSession session = session(port)) {
            session.execute("CREATE KEYSPACE k9 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute("CREATE TABLE k9.t (k int PRIMARY KEY, v text)");
            PreparedStatement insert = session.prepare("INSERT INTO k9.t (k, v) VALUES (?, ?)");
            PreparedStatement lwt = session.prepare("INSERT INTO k9.t (k, v) VALUES (?, ?) IF NOT EXISTS");
            for (int i = 0; i < 500; i++) {
                if (i % 5 == 0) assertThat(session.execute(lwt.bind(i, "lwt-" + i)).wasApplied()).isTrue();
                else session.execute(insert.bind(i, "plain-" + i));
                acknowledged.add(i);
            }
        }
        process.destroyForcibly();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        process = startNode(port, storagePort);
        try (CqlSession session = session(port)) {
            PreparedStatement select = session.prepare("SELECT v FROM k9.t WHERE k = ?");
            for (int i : acknowledged) {
                var row = session.execute(select.bind(i)).one();
                assertThat(row).as("row %d acknowledged before the kill", i).isNotNull();
                assertThat(row.getString("v")).isEqualTo((i % 5 == 0 ? "lwt-" : "plain-") + i);
            }
        }
    }

    private Process startNode(int port, int storagePort) throws IOException, InterruptedException {
        Path jar = Path.of("target", "ballot-server-all.jar").toAbsolutePath();
        assertThat(jar).as("the server jar is built by the package phase").exists();
        Path log = directory.resolve("node-" + System.nanoTime() + ".log");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
                "-jar", jar.toString(), "--data", directory.resolve("data").toString(), "--port", Integer.toString(port),
                "--storage-port", Integer.toString(storagePort))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (Files.readString(log).contains("node started")) return p;
            if (!p.isAlive()) break;
            Thread.sleep(100);
        }
        throw new AssertionError("node did not start:\n" + Files.readString(log));
    }

    private static CqlSession session(int port) {
        return CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", port)).withLocalDatacenter("datacenter1")
                .withConfigLoader(com.datastax.oss.driver.api.core.config.DriverConfigLoader.programmaticBuilder()
                        .withDuration(com.datastax.oss.driver.api.core.config.DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
                        .build())
                .build();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
