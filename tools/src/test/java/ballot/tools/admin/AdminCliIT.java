package ballot.tools.admin;

import static org.assertj.core.api.Assertions.assertThat;

import ballot.node.BallotVersion;
import ballot.tools.TestNode;
import com.datastax.oss.driver.api.core.CqlSession;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every admin command through its command line against a real node in this JVM (metrics port on: the admin calls),
 * with a table written by plain writes and one LWT. Drain, which ends the node's service, is AdminDrainIT.
 */
class AdminCliIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static TestNode node;

    /** What one command printed and returned. */
    record Run(int exitCode, String out, String err) {
        JsonNode json() {
            try {
                return JSON.readTree(out);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + out, e);
            }
        }
    }

    static Run admin(TestNode node, int metricsPort, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cmd = AdminCli.commandLine();
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        String[] all = Stream.concat(Stream.of("--host", node.address().getAddress().getHostAddress(), "--port",
                Integer.toString(node.address().getPort()), "--metrics-port", Integer.toString(metricsPort)), Stream.of(args)).toArray(String[]::new);
        return new Run(cmd.execute(all), out.toString(), err.toString());
    }

    private static Run admin(String... args) {
        return admin(node, node.metricsPort(), args);
    }

    private static Run ok(String... args) {
        Run run = admin(args);
        assertThat(run.exitCode()).as(String.join(" ", args) + ": " + run.out() + run.err()).isZero();
        return run;
    }

    @BeforeAll
    static void startNodeWithATable() {
        // the class runs for over a minute: keep the LWTs' registers that getpaxos reads from being purged meanwhile
        node = TestNode.start("admin", true, config -> config.paxosPurgeGraceSeconds = 3600);
        try (CqlSession session = node.session()) {
            session.execute("CREATE KEYSPACE admin_it WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute("CREATE TABLE admin_it.kv (k text PRIMARY KEY, v int)");
            session.execute("CREATE TABLE admin_it.other (a int, b text, v int, PRIMARY KEY ((a, b)))");
            for (int i = 0; i < 100; i++) session.execute("INSERT INTO admin_it.kv (k, v) VALUES (?, ?)", "k" + i, i);
            for (int i = 0; i < 20; i++) session.execute("SELECT v FROM admin_it.kv WHERE k = ?", "k" + i);
            assertThat(session.execute("INSERT INTO admin_it.kv (k, v) VALUES ('lwt', 1) IF NOT EXISTS").wasApplied()).isTrue();
            assertThat(session.execute("INSERT INTO admin_it.other (a, b, v) VALUES (7, 'x', 1) IF NOT EXISTS").wasApplied()).isTrue();
        }
    }

    @AfterAll
    static void stopNode() throws Exception {
        if (node != null) node.close();
    }

    private static JsonNode stats(String table) {
        JsonNode tables = ok("--json", "tablestats", table).json();
        assertThat(tables.size()).isEqualTo(1);
        return tables.get(0);
    }

    @Test
    void flushWritesTheMemtableToSstFilesThatTablestatsShows() {
        JsonNode before = stats("admin_it.kv");
        assertThat(before.get("local_write_count").asLong()).as("100 plain writes").isGreaterThanOrEqualTo(100);
        assertThat(before.get("memtable_bytes").asLong()).isPositive();

        assertThat(ok("flush", "admin_it", "kv").out()).contains("Flushed 1 table(s): admin_it.kv");

        JsonNode after = stats("admin_it.kv");
        assertThat(after.get("sstable_count").asInt()).isGreaterThan(before.get("sstable_count").asInt());
        assertThat(after.get("space_used_live_bytes").asLong()).isGreaterThan(before.get("space_used_live_bytes").asLong());
        assertThat(after.get("estimated_keys").asLong()).isPositive();
        String human = ok("tablestats", "admin_it").out();
        assertThat(human).contains("Keyspace : admin_it", "\tTable: kv", "\tTable: other", "\tSSTable count: " + after.get("sstable_count").asInt(),
                "\tLocal write count: ");
    }

    @Test
    void compactLeavesOneSstFileOfTwoFlushes() {
        try (CqlSession session = node.session()) {
            session.execute("INSERT INTO admin_it.other (a, b, v) VALUES (1, 'a', 1)");
            ok("flush", "admin_it", "other");
            session.execute("INSERT INTO admin_it.other (a, b, v) VALUES (2, 'b', 2)");
            ok("flush", "admin_it", "other");
        }
        assertThat(stats("admin_it.other").get("sstable_count").asInt()).isGreaterThanOrEqualTo(2);
        assertThat(ok("compact", "admin_it", "other").out()).contains("Compacted 1 table(s): admin_it.other");
        assertThat(stats("admin_it.other").get("sstable_count").asInt()).isEqualTo(1);
    }

    @Test
    void tablehistogramsShowsTheTablesLocalReadAndWriteLatencies() {
        JsonNode h = ok("--json", "tablehistograms", "admin_it.kv").json();
        assertThat(h.get("write").get("count").asLong()).isGreaterThanOrEqualTo(100);
        assertThat(h.get("read").get("count").asLong()).isGreaterThanOrEqualTo(20);
        assertThat(h.get("write").get("p50_micros").asDouble()).isPositive()
                .isLessThanOrEqualTo(h.get("write").get("p99_micros").asDouble());
        assertThat(ok("tablehistograms", "admin_it", "kv").out()).contains("admin_it/kv histograms", "Read Latency", "Write Latency",
                "50%", "99%", "Max", "SSTable count: ");
    }

    @Test
    void proxyhistogramsShowsTheCoordinatorsLatencies() {
        JsonNode h = ok("--json", "proxyhistograms").json();
        assertThat(h.get("write").get("count").asLong()).isGreaterThanOrEqualTo(100);
        assertThat(h.get("read").get("count").asLong()).isGreaterThanOrEqualTo(20);
        assertThat(h.get("cas_write").get("count").asLong()).isGreaterThanOrEqualTo(2);
        assertThat(h.get("cas_write").get("p50_micros").asDouble()).isPositive();
        assertThat(ok("proxyhistograms").out()).contains("Read Latency", "Write Latency", "Range Latency", "CAS Read Latency", "CAS Write Latency");
    }

    @Test
    void getpaxosShowsTheCommitOfAnLwtAndNothingForAnUntouchedPartition() {
        JsonNode lwt = ok("--json", "getpaxos", "admin_it", "kv", "lwt").json();
        assertThat(lwt.get("found").asBoolean()).isTrue();
        assertThat(lwt.get("promised").get("ballot").asText()).isNotEmpty();
        assertThat(lwt.get("committed").get("ballot").get("ballot").asText()).isNotEmpty();
        assertThat(lwt.get("accepted").isNull()).as("the proposal was committed").isTrue();
        assertThat(ok("getpaxos", "admin_it", "kv", "lwt").out()).contains("Most recent commit: " + lwt.get("committed").get("ballot").get("ballot").asText());

        JsonNode composite = ok("--json", "getpaxos", "admin_it", "other", "7:x").json();
        assertThat(composite.get("found").asBoolean()).as("composite key 7:x").isTrue();

        JsonNode untouched = ok("--json", "getpaxos", "admin_it", "kv", "k1").json();
        assertThat(untouched.get("found").asBoolean()).as("a plain write leaves no Paxos state").isFalse();
        assertThat(ok("getpaxos", "admin_it", "kv", "k1").out()).contains("none: no LWT has touched this partition");
    }

    @Test
    void infoShowsTheNodesIdentityAndState() {
        JsonNode info = ok("--json", "info").json();
        UUID hostId = node.node().identity().hostId();
        assertThat(info.get("host_id").asText()).isEqualTo(hostId.toString());
        assertThat(info.get("native_transport_active").asBoolean()).isTrue();
        assertThat(info.get("gossip_active").asBoolean()).isTrue();
        assertThat(info.get("tokens").asInt()).isEqualTo(node.node().identity().tokens().size());
        assertThat(info.get("heap_used_bytes").asLong()).isPositive();
        assertThat(info.get("data_center").asText()).isEqualTo("datacenter1");
        assertThat(ok("info").out()).contains("ID                     : " + hostId, "Native Transport active: true", "Data Center            : datacenter1");
    }

    @Test
    void describeclusterShowsTheSchemaVersionWithItsNode() {
        UUID schemaVersion;
        try (CqlSession session = node.session()) {
            schemaVersion = session.execute("SELECT schema_version FROM system.local").one().getUuid(0);
        }
        String address = node.address().getAddress().getHostAddress();
        JsonNode d = ok("--json", "describecluster").json();
        assertThat(d.get("name").asText()).isEqualTo("Test Cluster");
        assertThat(d.get("partitioner").asText()).isEqualTo("org.apache.cassandra.dht.Murmur3Partitioner");
        assertThat(d.get("schema_versions").get(schemaVersion.toString()).get(0).asText()).isEqualTo(address);
        assertThat(d.get("live").asInt()).isEqualTo(1);
        assertThat(ok("describecluster").out()).contains("\tName: Test Cluster", schemaVersion + ": [" + address + "]", "datacenter1 #Nodes: 1 #Down: 0");
    }

    @Test
    void versionShowsTheNodesAndTheClisVersions() {
        assertThat(ok("version").out()).contains("ReleaseVersion: 5.0.0", "Ballot: " + BallotVersion.get(), "Ballot CLI: " + BallotVersion.get());
        JsonNode v = ok("--json", "version").json();
        assertThat(v.get("ballot_version").asText()).isEqualTo(BallotVersion.get());
        assertThat(v.get("cli_version").asText()).isEqualTo(BallotVersion.get());
    }

    /** An application's session stays open while the CLI asks: its connections are listed with what its driver sent. */
    @Test
    void clientstatsListsTheConnectionsOfAnOpenSession() {
        try (CqlSession app = CqlSession.builder().addContactPoint(node.address()).withLocalDatacenter("datacenter1")
                .withApplicationName("clientstats-it").build()) {
            app.execute("SELECT release_version FROM system.local");
            JsonNode stats = ok("--json", "clientstats").json();
            int appConnections = 0;
            for (JsonNode c : stats.get("clients")) {
                if (!"clientstats-it".equals(c.path("client_options").path("APPLICATION_NAME").asText())) continue;
                appConnections++;
                assertThat(c.get("username").asText()).isEqualTo("anonymous");
                assertThat(c.get("stage").asText()).isEqualTo("ready");
                assertThat(c.get("ssl").asBoolean()).isFalse();
                assertThat(c.get("driver_name").asText()).contains("Java");
            }
            assertThat(appConnections).as("the session's control connection and pool").isPositive();
            assertThat(stats.get("total").asInt()).isGreaterThan(appConnections);
            assertThat(stats.get("connections_by_user").get("anonymous").asInt()).isEqualTo(stats.get("total").asInt());

            String summary = ok("clientstats").out();
            assertThat(summary).contains("Total connected clients: " + stats.get("total").asInt()).containsPattern("anonymous +\\d+")
                    .doesNotContain("Driver-Name");
            assertThat(ok("clientstats", "--all").out()).contains("Address", "Driver-Name").containsPattern("/127.0.0.1:\\d+ +false +undefined")
                    .containsPattern("anonymous +ready +\\d+ +Apache Cassandra Java Driver").doesNotContain("clientstats-it");
            assertThat(ok("clientstats", "--client-options").out()).contains("APPLICATION_NAME=clientstats-it");
        }
    }

    /** No flush or compaction runs on an idle node: none listed (the engine's tasks are StorageEngineTest's). */
    @Test
    void compactionstatsReadsTheNodesSstableTasks() {
        JsonNode idle = ok("--json", "compactionstats").json();
        assertThat(idle.get("active_tasks").asInt()).isEqualTo(idle.get("tasks").size());
        assertThat(ok("compactionstats").out()).startsWith("active tasks: ");
    }

    /** A snapshot is taken, listed with its size, refused a second time under its name, and cleared. */
    @Test
    void snapshotsAreTakenListedAndCleared() {
        assertThat(ok("snapshot", "-t", "admin-it").out()).startsWith("Took snapshot admin-it of every keyspace (");
        Run again = admin("snapshot", "-t", "admin-it");
        assertThat(again.exitCode()).isEqualTo(1);
        assertThat(again.err().strip()).isEqualTo("ballot-admin snapshot: Snapshot admin-it already exists.");
        assertThat(admin("snapshot", "-t", "../escape").err()).contains("invalid snapshot name '../escape'");

        JsonNode listed = ok("--json", "listsnapshots").json();
        assertThat(listed.size()).isEqualTo(1);
        assertThat(listed.get(0).get("tag").asText()).isEqualTo("admin-it");
        assertThat(listed.get(0).get("size_bytes").asLong()).isPositive();
        assertThat(ok("listsnapshots").out()).contains("Snapshot name", "admin-it", "Total TrueDiskSpaceUsed: ");

        assertThat(admin("clearsnapshot").exitCode()).as("neither a name nor --all").isNotZero();
        assertThat(ok("clearsnapshot", "-t", "admin-it").out()).contains("Cleared 1 snapshot(s): admin-it");
        assertThat(ok("listsnapshots").out()).contains("There are no snapshots");
        assertThat(ok("--json", "clearsnapshot", "--all").json().size()).isZero();
    }

    @Test
    void statusAndRingPrintJson() {
        JsonNode status = ok("--json", "status").json();
        assertThat(status.size()).isEqualTo(1);
        assertThat(status.get(0).get("host_id").asText()).isEqualTo(node.node().identity().hostId().toString());
        assertThat(status.get(0).get("owns").asDouble()).isEqualTo(1.0);
        assertThat(ok("--json", "ring").json().size()).isEqualTo(node.node().identity().tokens().size());
    }

    @Test
    void unknownTablesAndUnreachableNodesAreOneLineErrors() {
        Run keyspace = admin("tablestats", "nope");
        assertThat(keyspace.exitCode()).isEqualTo(1);
        assertThat(keyspace.err()).isEqualTo("ballot-admin tablestats: unknown keyspace 'nope'" + System.lineSeparator());

        Run table = admin("flush", "admin_it", "nope");
        assertThat(table.exitCode()).isEqualTo(1);
        assertThat(table.err().strip()).isEqualTo("ballot-admin flush: unknown table 'admin_it.nope'");

        Run paxos = admin("getpaxos", "admin_it", "nope", "k");
        assertThat(paxos.exitCode()).isEqualTo(1);
        assertThat(paxos.err().strip()).isEqualTo("ballot-admin getpaxos: unknown table 'admin_it.nope'");

        Run unreachable = admin(node, freePort(), "info");
        assertThat(unreachable.exitCode()).isEqualTo(1);
        assertThat(unreachable.err()).startsWith("ballot-admin info: cannot reach the node's admin calls at " + node.address().getAddress().getHostAddress() + ":")
                .hasLineCount(1);
    }

    @Test
    void aProtectedNodeAnswersTheCliThatGivesItsCredentialsOverTls(@TempDir Path directory) throws Exception {
        Path keystore = keyStore(directory.resolve("node.p12"), "changeit");
        try (TestNode protectedNode = TestNode.start("admin-protected", true, config -> {
            config.metricsAuthentication = "basic";
            config.metricsUsername = "operator";
            config.metricsPassword = "s3cret";
            config.metricsEncryption.enabled = true;
            config.metricsEncryption.keystore = keystore.toString();
            config.metricsEncryption.keystorePassword = "changeit";
        })) {
            String[] tls = {"--metrics-tls", "--metrics-truststore", keystore.toString(), "--metrics-truststore-password", "changeit"};
            Run anonymous = admin(protectedNode, protectedNode.metricsPort(), concat(tls, "info"));
            assertThat(anonymous.exitCode()).isEqualTo(1);
            assertThat(anonymous.err()).startsWith("ballot-admin info: the node at ").contains("refused the credentials", "Basic realm=\"ballot\"",
                    "--metrics-user").hasLineCount(1);
            Run wrong = admin(protectedNode, protectedNode.metricsPort(), concat(tls, "--metrics-user", "operator", "--metrics-password", "wrong", "info"));
            assertThat(wrong.exitCode()).isEqualTo(1);
            Run plain = admin(protectedNode, protectedNode.metricsPort(), "--metrics-user", "operator", "--metrics-password", "s3cret", "info");
            assertThat(plain.exitCode()).isEqualTo(1);
            assertThat(plain.err()).startsWith("ballot-admin info: cannot reach the node's admin calls at ");

            String[] credentials = concat(tls, "--metrics-user", "operator", "--metrics-password", "s3cret");
            Run info = admin(protectedNode, protectedNode.metricsPort(), concat(credentials, "--json", "info"));
            assertThat(info.exitCode()).as(info.err()).isZero();
            assertThat(info.json().get("host_id").asText()).isEqualTo(protectedNode.node().identity().hostId().toString());
            Run change = admin(protectedNode, protectedNode.metricsPort(), concat(credentials, "settraceprobability", "0.25"));
            assertThat(change.exitCode()).as(change.err()).isZero();
            assertThat(admin(protectedNode, protectedNode.metricsPort(), concat(credentials, "gettraceprobability")).out())
                    .contains("Current trace probability: 0.25");
        }
    }

    private static String[] concat(String[] first, String... rest) {
        return Stream.concat(Stream.of(first), Stream.of(rest)).toArray(String[]::new);
    }

    /** A PKCS12 key store with a self-signed certificate for 127.0.0.1, made by the JDK's keytool: no test dependency. */
    private static Path keyStore(Path file, String password) throws IOException, InterruptedException {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process process = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "node", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=ballot-test", "-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", file.toString(), "-storepass", password, "-keypass", password)
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).as("keytool finished").isTrue();
        assertThat(process.exitValue()).as("keytool: " + output).isZero();
        return file;
    }

    private static int freePort() {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, node.address().getAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
