package ballot.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.ExecutionInfo;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.QueryTrace;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.TraceEvent;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Query tracing on a real node, as drivers use it: a statement with the tracing flag gets a tracing id with its
 * answer, and {@code getQueryTrace()} reads its session and events from system_traces (the driver polls the session
 * until its duration is set, then reads the events once, so the events must be there by then).
 */
class TracingIT {
    private static TestNode node;
    private static CqlSession session;

    @BeforeAll
    static void start() throws IOException {
        int metricsPort = NodeProcess.freePort();
        node = TestNode.start("tracing", config -> config.metricsPort = metricsPort);
        session = session(node);
        session.execute("CREATE KEYSPACE tr WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        session.execute("CREATE TABLE tr.kv (k int PRIMARY KEY, v text)");
        session.execute("INSERT INTO tr.kv (k, v) VALUES (1, 'one')");
    }

    @AfterAll
    static void stop() {
        if (session != null) session.close();
        if (node != null) node.close();
    }

    /**
     * The driver's default is 5 attempts 3 ms apart; this machine's CPUs are shared, so the tests give the trace
     * writer more time. What they check is the same: the events are complete once the session has its duration.
     */
    private static CqlSession session(TestNode target) {
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(10))
                .withInt(DefaultDriverOption.REQUEST_TRACE_ATTEMPTS, 200)
                .withDuration(DefaultDriverOption.REQUEST_TRACE_INTERVAL, Duration.ofMillis(10))
                .build();
        return CqlSession.builder().addContactPoint(target.address()).withLocalDatacenter("datacenter1").withConfigLoader(config).build();
    }

    private static List<String> activities(QueryTrace trace) {
        return trace.getEvents().stream().map(TraceEvent::getActivity).toList();
    }

    @Test
    void tracedQueryHasSessionWithEachStep() {
        ResultSet rs = session.execute(SimpleStatement.newInstance("SELECT v FROM tr.kv WHERE k = 1").setTracing(true));
        assertThat(rs.one().getString(0)).isEqualTo("one");
        QueryTrace trace = rs.getExecutionInfo().getQueryTrace();
        assertThat(trace.getTracingId()).isEqualTo(rs.getExecutionInfo().getTracingId());
        assertThat(trace.getTracingId().version()).as("a timeuuid").isEqualTo(1);
        assertThat(trace.getRequestType()).isEqualTo("Execute CQL3 query");
        assertThat(trace.getParameters()).containsEntry("query", "SELECT v FROM tr.kv WHERE k = 1").containsKey("consistency_level");
        assertThat(trace.getDurationMicros()).isPositive();
        assertThat(trace.getCoordinatorAddress().getAddress()).isEqualTo(node.address().getAddress());
        assertThat(activities(trace)).contains("Parsing and preparing SELECT v FROM tr.kv WHERE k = 1", "Executing statement",
                "Executing single-partition query on kv", "Read 1 live rows and 0 tombstone cells");
        for (TraceEvent e : trace.getEvents()) {
            assertThat(e.getSourceAddress().getAddress()).isEqualTo(node.address().getAddress());
            assertThat(e.getSourceElapsedMicros()).isBetween(0, trace.getDurationMicros());
            assertThat(e.getThreadName()).isNotEmpty();
        }
    }

    @Test
    void tracedPreparedWriteNamesItsBoundValues() {
        PreparedStatement insert = session.prepare("INSERT INTO tr.kv (k, v) VALUES (?, ?)");
        ExecutionInfo info = session.execute(insert.bind(2, "two").setTracing(true)).getExecutionInfo();
        QueryTrace trace = info.getQueryTrace();
        assertThat(trace.getRequestType()).isEqualTo("Execute CQL3 prepared query");
        assertThat(trace.getParameters()).containsEntry("query", "INSERT INTO tr.kv (k, v) VALUES (?, ?)")
                .containsEntry("bound_var_0_k", "2").containsEntry("bound_var_1_v", "'two'");
        assertThat(activities(trace)).contains("Executing statement", "Adding to tr.kv memtable and write-ahead log (1 rows)");
    }

    /**
     * A prepared write with small values runs on the connection's event loop (it never waits), one with large values on
     * a request thread: it must not hold up the other connections of its event loop (issue 11).
     */
    @Test
    void aPreparedWriteWithLargeValuesRunsOffTheEventLoop() {
        PreparedStatement insert = session.prepare("INSERT INTO tr.kv (k, v) VALUES (?, ?)");
        QueryTrace small = session.execute(insert.bind(10, "small").setTracing(true)).getExecutionInfo().getQueryTrace();
        QueryTrace large = session.execute(insert.bind(11, "x".repeat(256 * 1024)).setTracing(true)).getExecutionInfo().getQueryTrace();
        assertThat(threadOf(small, "Executing statement")).startsWith("cql-io");
        assertThat(threadOf(large, "Executing statement")).startsWith("request-");
    }

    private static String threadOf(QueryTrace trace, String activity) {
        return trace.getEvents().stream().filter(e -> e.getActivity().equals(activity)).findFirst()
                .orElseThrow(() -> new AssertionError("no event '" + activity + "' in " + activities(trace))).getThreadName();
    }

    @Test
    void tracedLwtShowsItsPaxosRounds() {
        QueryTrace applied = session.execute(SimpleStatement.newInstance("INSERT INTO tr.kv (k, v) VALUES (3, 'x') IF NOT EXISTS")
                .setTracing(true)).getExecutionInfo().getQueryTrace();
        List<String> steps = activities(applied);
        assertThat(steps).anyMatch(s -> s.startsWith("Starting Paxos on tr.kv with 1 replicas"));
        assertThat(steps).anyMatch(s -> s.startsWith("Paxos prepare of ballot ") && s.endsWith(" to this node"));
        assertThat(steps).anyMatch(s -> s.startsWith("Paxos promise of ballot ") && s.endsWith(" from this node"));
        assertThat(steps).anyMatch(s -> s.startsWith("Paxos APPLIED after "));

        QueryTrace notApplied = session.execute(SimpleStatement.newInstance("UPDATE tr.kv SET v = 'y' WHERE k = 3 IF v = 'z'")
                .setTracing(true)).getExecutionInfo().getQueryTrace();
        assertThat(activities(notApplied)).anyMatch(s -> s.startsWith("Paxos NOT_APPLIED after "));
    }

    /**
     * A multi-partition conditional batch is a transaction: its trace shows each partition's steps and the Paxos round
     * under them, up to the answer (the background finish after it is not in the session).
     */
    @Test
    void tracedTransactionShowsItsStepsAndTheirPaxosRounds() {
        QueryTrace trace = session.execute(SimpleStatement.newInstance("BEGIN BATCH "
                + "INSERT INTO tr.kv (k, v) VALUES (20, 'a') IF NOT EXISTS; "
                + "INSERT INTO tr.kv (k, v) VALUES (21, 'b') IF NOT EXISTS; APPLY BATCH").setTracing(true))
                .getExecutionInfo().getQueryTrace();
        List<String> steps = activities(trace);
        assertThat(steps).anyMatch(s -> s.startsWith("Starting transaction ") && s.endsWith(" over 2 partitions"));
        assertThat(steps).anyMatch(s -> s.matches("Transaction steps (Stage\\+)?Place on tr\\.kv here"));
        assertThat(steps).anyMatch(s -> s.startsWith("Starting Paxos (transaction ") && s.contains("Place) on tr.kv"));
        assertThat(steps).anyMatch(s -> s.startsWith("Paxos (transaction ") && s.contains(" APPLIED after "));
        assertThat(steps).anyMatch(s -> s.startsWith("Transaction steps ") && s.contains(" answered [") && s.contains("PLACED"));
        assertThat(steps).anyMatch(s -> s.startsWith("Transaction ") && s.endsWith(" committed"));
    }

    /** Trace writes are the node's own, not client requests: the coordinator's request latency timers leave them out. */
    @Test
    void traceWritesAreNotTimedAsClientWrites() throws IOException, InterruptedException {
        double before = clientWritesTimed();
        QueryTrace trace = session.execute(SimpleStatement.newInstance("SELECT v FROM tr.kv WHERE k = 1").setTracing(true))
                .getExecutionInfo().getQueryTrace();
        assertThat(trace.getEvents()).as("the trace was written").isNotEmpty();
        assertThat(clientWritesTimed()).isEqualTo(before);
    }

    /** The number of writes in ballot_coordinator_write_latency, over every consistency level. */
    private static double clientWritesTimed() throws IOException, InterruptedException {
        URI uri = URI.create("http://" + node.metricsAddress().getAddress().getHostAddress() + ":" + node.metricsAddress().getPort()
                + "/metrics");
        String text = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).body();
        return text.lines().filter(l -> l.startsWith("ballot_coordinator_write_latency_seconds_count"))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    @Test
    void untracedRequestHasNoTracingId() {
        assertThat(session.execute("SELECT v FROM tr.kv WHERE k = 1").getExecutionInfo().getTracingId()).isNull();
    }

    /** As in Cassandra, an error answering a traced request carries the tracing id too. */
    @Test
    void errorToTracedRequestCarriesItsTracingId() throws IOException {
        RawCqlConnection.Response error;
        try (RawCqlConnection raw = RawCqlConnection.open(node.address()).startup(Map.of("CQL_VERSION", "3.0.0"))) {
            error = raw.tracedQuery("SELECT nope FROM tr.kv WHERE k = 1");
        }
        assertThat(error.opcode()).as("ERROR").isEqualTo(0x00);
        assertThat(error.flags()).isEqualTo(0x02);
        DataInputStream body = new DataInputStream(new ByteArrayInputStream(error.body()));
        UUID id = new UUID(body.readLong(), body.readLong());
        assertThat(body.readInt()).as("INVALID").isEqualTo(0x2200);
        Row row = poll(() -> session.execute(SimpleStatement.newInstance(
                "SELECT duration, parameters FROM system_traces.sessions WHERE session_id = ?", id)).one());
        assertThat(row.getMap("parameters", String.class, String.class)).containsEntry("query", "SELECT nope FROM tr.kv WHERE k = 1");
    }

    /** native_protocol_v4.spec §2.2: the Tracing flag, and the body starting with the 16-byte session id. */
    @Test
    void responseCarriesFlagAndSessionIdBeforeBody() throws IOException {
        RawCqlConnection.Response plain;
        RawCqlConnection.Response traced;
        try (RawCqlConnection raw = RawCqlConnection.open(node.address()).startup(Map.of("CQL_VERSION", "3.0.0"))) {
            plain = raw.query("SELECT v FROM tr.kv WHERE k = 1", 0x00);
            traced = raw.tracedQuery("SELECT v FROM tr.kv WHERE k = 1");
        }
        assertThat(plain.flags()).isZero();
        assertThat(traced.opcode()).as("RESULT").isEqualTo(0x08);
        assertThat(traced.flags()).isEqualTo(0x02);
        assertThat(traced.body().length).isEqualTo(plain.body().length + 16);
        ByteBuffer body = ByteBuffer.wrap(traced.body());
        UUID id = new UUID(body.getLong(), body.getLong());
        assertThat(id.version()).as("a timeuuid").isEqualTo(1);
        byte[] rest = new byte[body.remaining()];
        body.get(rest);
        assertThat(rest).as("the body after the id is the untraced body").isEqualTo(plain.body());
        Row row = poll(() -> session.execute(SimpleStatement.newInstance(
                "SELECT duration, request, TTL(request) FROM system_traces.sessions WHERE session_id = ?", id)).one());
        assertThat(row.getString("request")).isEqualTo("Execute CQL3 query");
        assertThat(row.getInt(2)).as("tracetype_query_ttl").isBetween(86_000, 86_400);
    }

    @Test
    void systemTracesIsInTheSchemaAsInCassandra() {
        Row ks = session.execute("SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = 'system_traces'").one();
        assertThat(ks.getMap(0, String.class, String.class)).containsEntry("replication_factor", "2")
                .containsEntry("class", "org.apache.cassandra.locator.SimpleStrategy");
        List<String> columns = session.execute("SELECT column_name FROM system_schema.columns WHERE keyspace_name = 'system_traces'"
                + " AND table_name = 'events'").all().stream().map(r -> r.getString(0)).toList();
        assertThat(columns).containsExactlyInAnyOrder("session_id", "event_id", "activity", "source", "source_elapsed",
                "source_port", "thread");
        assertThat(session.execute("SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'system_traces'").all())
                .extracting(r -> r.getString(0)).containsExactly("events", "sessions");
    }

    /**
     * As in Cassandra (Message.Request.execute), a sampled request is traced but its answer carries no tracing id:
     * the client did not ask, and finds the session in system_traces.
     */
    @Test
    void probabilityOneTracesRequestsThatDidNotAsk() {
        try (TestNode sampled = TestNode.start("tracing-sampled", config -> config.traceProbability = 1.0);
             CqlSession s = session(sampled)) {
            String query = "SELECT release_version FROM system.local WHERE key = 'local'";
            ResultSet rs = s.execute(query);
            assertThat(rs.getExecutionInfo().getTracingId()).isNull();
            assertThat(rs.getExecutionInfo().getIncomingPayload()).isEmpty();
            Row row = sampledSession(s, query);
            assertThat(row.getString("request")).isEqualTo("Execute CQL3 query");
            assertThat(row.getInt("duration")).isPositive();
        }
    }

    /** nodetool settraceprobability's call, as ScyllaDB's REST API has it: takes effect for the next request. */
    @Test
    void traceProbabilityChangesWhileTheNodeRuns() throws IOException, InterruptedException {
        int metricsPort = NodeProcess.freePort();
        try (TestNode running = TestNode.start("tracing-runtime", config -> config.metricsPort = metricsPort);
             CqlSession s = session(running)) {
            HttpClient http = HttpClient.newHttpClient();
            Function<String, HttpResponse<String>> call = query -> {
                URI uri = URI.create("http://" + running.metricsAddress().getAddress().getHostAddress() + ":"
                        + metricsPort + "/storage_service/trace_probability" + query);
                var request = HttpRequest.newBuilder(uri).method(query.isEmpty() ? "GET" : "POST",
                        HttpRequest.BodyPublishers.noBody()).build();
                try {
                    return http.send(request, HttpResponse.BodyHandlers.ofString());
                } catch (IOException | InterruptedException e) {
                    throw new AssertionError(e);
                }
            };
            assertThat(call.apply("").body().strip()).isEqualTo("0.0");

            assertThat(call.apply("?probability=1").statusCode()).isEqualTo(200);
            assertThat(call.apply("").body().strip()).isEqualTo("1.0");
            String sampled = "SELECT cluster_name FROM system.local WHERE key = 'local'";
            s.execute(sampled);
            assertThat(sampledSession(s, sampled).getString("request")).isEqualTo("Execute CQL3 query");

            var refused = call.apply("?probability=1.5");
            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(refused.body().strip()).isEqualTo("trace_probability must be between 0 and 1, was 1.5");
            assertThat(call.apply("?probability=0").statusCode()).isEqualTo(200);
            String notSampled = "SELECT partitioner FROM system.local WHERE key = 'local'";
            s.execute(notSampled);
            // The writer writes sessions in the order they finish: once a later one is there, so would this one be.
            s.execute(SimpleStatement.newInstance("SELECT release_version FROM system.local").setTracing(true))
                    .getExecutionInfo().getQueryTrace();
            assertThat(sessionsOf(s, notSampled)).isEmpty();
        }
    }

    /** The finished session of a request that did not ask to be traced, found by its query in system_traces. */
    private static Row sampledSession(CqlSession s, String query) {
        return poll(() -> sessionsOf(s, query).stream().findFirst().orElse(null));
    }

    private static List<Row> sessionsOf(CqlSession s, String query) {
        return s.execute("SELECT session_id, request, duration, parameters FROM system_traces.sessions").all().stream()
                .filter(r -> query.equals(r.getMap("parameters", String.class, String.class).get("query"))).toList();
    }

    /**
     * Reads until the trace writer has written the row (it writes after the answer is sent), 15 ms apart: each read is
     * a query, and a busy loop would take the CPU the writer needs.
     */
    private static Row poll(Supplier<Row> read) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        Row row;
        while ((row = read.get()) == null || row.isNull("duration")) {
            if (System.nanoTime() > deadline) throw new AssertionError("trace session not written within 10 s");
            LockSupport.parkNanos(Duration.ofMillis(15).toNanos());
        }
        return row;
    }
}
