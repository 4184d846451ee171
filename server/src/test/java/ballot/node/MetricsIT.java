package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Prometheus endpoint of a real node (docs/metrics.md): LWTs, plain statements and errors through the DataStax
 * driver move the series they name by exactly what was done, read over HTTP as Prometheus would.
 */
class MetricsIT {
    private static TestNode node;
    private static CqlSession session;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws IOException {
        int port = NodeProcess.freePort();
        node = TestNode.start("metrics", config -> {
            config.metricsPort = port;
            config.blockCacheMb = 16;
        });
        session = node.session();
        session.execute("CREATE KEYSPACE m WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE m.t (k int PRIMARY KEY, v int)");
    }

    @AfterAll
    static void stop() {
        if (session != null) session.close();
        if (node != null) node.close();
    }

    /** One scrape: each sample's value by its name and labels exactly as printed ({@code name{label="value"}}). */
    private record Scrape(Map<String, Double> samples) {
        double get(String series) {
            Double v = samples.get(series);
            if (v == null) throw new AssertionError("no series " + series + " in the scrape");
            return v;
        }

        /** How much {@code series} grew since {@code before}; a series registered on first use may be new. */
        double delta(Scrape before, String series) {
            return get(series) - before.samples.getOrDefault(series, 0.0);
        }

        /** The sum of the series whose name and labels start with {@code prefix}; fails if there is none. */
        double sum(String prefix) {
            double sum = 0;
            boolean found = false;
            for (Map.Entry<String, Double> e : samples.entrySet()) {
                if (!e.getKey().startsWith(prefix)) continue;
                found = true;
                sum += e.getValue();
            }
            if (!found) throw new AssertionError("no series " + prefix + "... in the scrape");
            return sum;
        }
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        InetSocketAddress address = node.metricsAddress();
        URI uri = URI.create("http://" + address.getAddress().getHostAddress() + ":" + address.getPort() + path);
        return http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private Scrape scrape() throws IOException, InterruptedException {
        HttpResponse<String> response = get("/metrics");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        Map<String, Double> samples = new HashMap<>();
        for (String line : response.body().split("\n")) {
            if (line.isBlank() || line.startsWith("#")) continue;
            int space = line.lastIndexOf(' ');
            samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        }
        return new Scrape(samples);
    }

    private static boolean applied(String cql, ConsistencyLevel serial) {
        return session.execute(SimpleStatement.newInstance(cql).setSerialConsistencyLevel(serial)).wasApplied();
    }

    @Test
    void lwtSeriesMoveByWhatTheStatementsDid() throws Exception {
        Scrape before = scrape();

        assertThat(applied("INSERT INTO m.t (k, v) VALUES (1, 1) IF NOT EXISTS", ConsistencyLevel.SERIAL)).isTrue();
        assertThat(applied("INSERT INTO m.t (k, v) VALUES (1, 2) IF NOT EXISTS", ConsistencyLevel.SERIAL)).isFalse();
        assertThat(applied("UPDATE m.t SET v = 3 WHERE k = 1 IF v = 5", ConsistencyLevel.SERIAL)).isFalse();
        assertThat(session.execute(SimpleStatement.newInstance("SELECT v FROM m.t WHERE k = 1")
                .setConsistencyLevel(ConsistencyLevel.SERIAL)).one().getInt("v")).isEqualTo(1);

        Scrape after = scrape();
        assertThat(after.delta(before, "ballot_paxos_cas_write_condition_not_met_total")).isEqualTo(2);
        assertThat(after.delta(before, "ballot_paxos_cas_write_latency_seconds_count")).isEqualTo(3);
        assertThat(after.delta(before, "ballot_paxos_cas_write_latency_seconds_sum")).isPositive();
        assertThat(after.delta(before, "ballot_paxos_cas_read_latency_seconds_count")).isEqualTo(1);
        assertThat(after.delta(before, "ballot_paxos_cas_read_latency_seconds_sum")).isPositive();
        assertThat(after.delta(before, "ballot_paxos_cas_write_round_trips_count{outcome=\"APPLIED\"}")).isEqualTo(1);
        assertThat(after.delta(before, "ballot_paxos_cas_write_round_trips_count{outcome=\"NOT_APPLIED\"}")).isEqualTo(2);
        assertThat(after.delta(before, "ballot_paxos_cas_read_round_trips_count{outcome=\"NOT_APPLIED\"}")).isEqualTo(1);
        // One replica answers every phase itself: no network round trips (docs/paxos.md 7).
        assertThat(after.delta(before, "ballot_paxos_cas_write_round_trips_sum{outcome=\"APPLIED\"}")).isZero();
        assertThat(after.delta(before, "ballot_paxos_cas_write_contention_count")).isEqualTo(3);
        assertThat(after.delta(before, "ballot_paxos_cas_write_contention_sum")).isZero();
        assertThat(after.delta(before, "ballot_paxos_cas_write_timeouts_total")).isZero();
        assertThat(after.delta(before, "ballot_paxos_cas_write_unavailable_total")).isZero();
        // The first request prepares; the ones after it ride the promise the first round left (docs/paxos.md 4.8).
        assertThat(after.delta(before, "ballot_paxos_marks_total{mark=\"PREPARE\"}")).isEqualTo(1);
        assertThat(after.delta(before, "ballot_paxos_cas_fast_path_total")).isEqualTo(3);
        assertThat(after.get("ballot_paxos_table_keys")).isGreaterThanOrEqualTo(1);
        assertThat(after.get("ballot_paxos_table_memtable_bytes")).isPositive();
        assertThat(after.get("ballot_paxos_queued_requests")).isZero(); // one statement at a time never waits
        assertThat(after.get("ballot_paxos_partition_queue_max")).isZero();
    }

    @Test
    void plainStatementsAndErrorsAreCountedByLevelOpcodeAndCode() throws Exception {
        Scrape before = scrape();

        session.execute(SimpleStatement.newInstance("INSERT INTO m.t (k, v) VALUES (2, 2)").setConsistencyLevel(ConsistencyLevel.QUORUM));
        session.execute(SimpleStatement.newInstance("SELECT v FROM m.t WHERE k = 2").setConsistencyLevel(ConsistencyLevel.ONE));
        assertThatThrownBy(() -> session.execute("SELECT * FROM m.missing")).isInstanceOf(InvalidQueryException.class);

        Scrape after = scrape();
        assertThat(after.delta(before, "ballot_coordinator_write_latency_seconds_count{consistency=\"QUORUM\"}")).isEqualTo(1);
        assertThat(after.delta(before, "ballot_coordinator_read_latency_seconds_count{consistency=\"ONE\"}")).isEqualTo(1);
        assertThat(after.delta(before, "ballot_cql_requests_total{opcode=\"QUERY\"}")).isGreaterThanOrEqualTo(3);
        assertThat(after.delta(before, "ballot_cql_errors_total{code=\"INVALID\"}")).isEqualTo(1);
        assertThat(after.get("ballot_cql_connections")).isGreaterThanOrEqualTo(1);
        assertThat(after.get("ballot_cql_result_memory_max_bytes")).isPositive();
        assertThat(after.get("ballot_storage_background_error_pending")).isZero();
        assertThat(after.samples()).containsKey("ballot_storage_background_errors_total");
        assertThat(after.samples()).containsKeys("ballot_cql_result_memory_bytes", "ballot_cql_result_memory_refusals_total");
        assertThat(after.delta(before, "ballot_hints_stored_total")).isZero();
        assertThat(after.get("ballot_hints_pending")).isZero();
        assertThat(after.sum("jvm_memory_used_bytes{area=\"heap\"")).isPositive();
        assertThat(after.samples()).containsKey("jvm_gc_memory_allocated_bytes_total"); // moves only when a GC has run
        assertThat(after.get("jvm_threads_live_threads")).isPositive();
        assertThat(after.samples()).containsKey("process_cpu_usage"); // a fraction that may read 0 on an idle node
        assertThat(after.get("system_cpu_count")).isPositive();
    }

    /** Each table has its size meters while it exists; the storage and cluster gauges read the node (issue 13). */
    @Test
    void tablesStorageAndClusterAreMetered() throws Exception {
        session.execute("CREATE TABLE m.sized (k int PRIMARY KEY, v text)");
        String memtable = "ballot_table_memtable_bytes{keyspace=\"m\",table=\"sized\"}";
        double empty = scrape().get(memtable); // metered from its creation, before it has data
        for (int k = 0; k < 50; k++) session.execute("INSERT INTO m.sized (k, v) VALUES (" + k + ", 'value " + k + "')");

        Scrape written = scrape();
        assertThat(written.get(memtable)).isGreaterThan(empty);
        assertThat(written.get("ballot_table_estimated_keys{keyspace=\"m\",table=\"sized\"}")).isPositive();
        assertThat(written.samples()).containsKey("ballot_table_sst_bytes{keyspace=\"m\",table=\"sized\"}");
        assertThat(written.get("ballot_storage_memtable_bytes")).isGreaterThanOrEqualTo(written.get(memtable));
        assertThat(written.get("ballot_storage_block_cache_capacity_bytes")).isEqualTo(16 << 20);
        assertThat(written.samples()).containsKeys("ballot_storage_compactions_running", "ballot_storage_flushes_running",
                "ballot_storage_sst_bytes", "ballot_storage_block_cache_used_bytes", "ballot_storage_block_cache_pinned_bytes");
        assertThat(written.get("ballot_cluster_nodes{status=\"UP\"}")).isEqualTo(1);
        assertThat(written.get("ballot_cluster_nodes{status=\"DOWN\"}")).isZero();
        assertThat(written.get("process_uptime_seconds")).isPositive();
        assertThat(written.get("process_files_open_files")).isPositive();

        session.execute("DROP TABLE m.sized");
        assertThat(scrape().samples()).doesNotContainKey(memtable);
    }

    /** A client that never finishes its request headers holds one connection, not the endpoint (issue 11). */
    @Test
    void aClientThatNeverFinishesItsRequestDoesNotBlindTheEndpoint() throws Exception {
        InetSocketAddress address = node.metricsAddress();
        try (Socket stalled = new Socket(address.getAddress(), address.getPort())) {
            stalled.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: stalled\r\n".getBytes(StandardCharsets.US_ASCII));
            stalled.getOutputStream().flush();
            Thread.sleep(200); // the server is reading its headers by now
            HttpRequest scrape = HttpRequest.newBuilder(URI.create("http://" + address.getAddress().getHostAddress() + ":"
                    + address.getPort() + "/metrics")).timeout(Duration.ofSeconds(5)).GET().build();
            assertThat(http.send(scrape, HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void servesOnlyGetOfTheMetricsPath() throws Exception {
        assertThat(get("/other").statusCode()).isEqualTo(404);
        InetSocketAddress address = node.metricsAddress();
        HttpRequest post = HttpRequest.newBuilder(URI.create("http://" + address.getAddress().getHostAddress() + ":"
                + address.getPort() + "/metrics")).POST(HttpRequest.BodyPublishers.noBody()).build();
        assertThat(http.send(post, HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(405);
    }

    @Test
    void aMetricsPortInUseStopsTheNodeNamingTheSetting(@TempDir Path directory) throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            NodeConfig config = new NodeConfig();
            config.dataDirectory = directory.resolve("data").toString();
            config.nativeTransportPort = 0;
            config.storagePort = 0;
            config.metricsPort = taken.getLocalPort();
            assertThatThrownBy(() -> BallotNode.start(config).close())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("metrics_port " + taken.getLocalPort() + ": cannot listen on 127.0.0.1:" + taken.getLocalPort())
                    .hasMessageContaining("set metrics_port to a free port, or to 0");
        }
    }
}
