package ballot.tools.admin;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The admin CLI, like nodetool (docs/admin.md): {@code status}, {@code ring} and {@code describecluster} of a Ballot
 * cluster and {@code getpaxos} of one partition, read over CQL from any node (system.local, system.peers, system.paxos
 * and Ballot's system_views.nodes); the other commands ask one node through the admin calls it serves beside its
 * metrics ({@link AdminCalls}, as ScyllaDB's nodetool uses its REST API). Every command prints for people, or with
 * {@code --json} for programs; a failure is one line on stderr and exit status 1.
 */
@Command(name = "ballot-admin", versionProvider = CliVersion.class,
        subcommands = {AdminCli.Status.class, AdminCli.Ring.class, InfoCommand.class, DescribeClusterCommand.class,
                TableStatsCommand.class, TableHistogramsCommand.class, ProxyHistogramsCommand.class, GetPaxosCommand.class,
                TableMaintenance.Flush.class, TableMaintenance.Compact.class, DrainCommand.class, VersionCommand.class,
                ClientStatsCommand.class, CompactionStatsCommand.class,
                SnapshotCommands.Take.class, SnapshotCommands.Listing.class, SnapshotCommands.Clear.class,
                AdminCli.SetTraceProbability.class, AdminCli.GetTraceProbability.class},
        description = "Inspect and maintain a Ballot cluster.")
public final class AdminCli {
    // Not picocli's standard help options: their -h would clash with --host's.
    @Option(names = "--help", usageHelp = true, description = "prints this and exits", scope = CommandLine.ScopeType.INHERIT)
    boolean help;

    @Option(names = {"-V", "--version"}, versionHelp = true, description = "prints the CLI's version and exits")
    boolean version;

    @Option(names = {"-h", "--host"}, defaultValue = "127.0.0.1", description = "a node to ask (default ${DEFAULT-VALUE})", scope = CommandLine.ScopeType.INHERIT)
    String host;

    @Option(names = {"-p", "--port"}, defaultValue = "9042", description = "its CQL port (default ${DEFAULT-VALUE})", scope = CommandLine.ScopeType.INHERIT)
    int port;

    @Option(names = "--metrics-port", defaultValue = "9180", description = "the node's metrics_port, where it takes admin calls (default ${DEFAULT-VALUE})",
            scope = CommandLine.ScopeType.INHERIT)
    int metricsPort;

    @Option(names = "--metrics-user", description = "user, when the node's metrics_authentication is basic", scope = CommandLine.ScopeType.INHERIT)
    String metricsUser;

    @Option(names = "--metrics-password", defaultValue = "${env:BALLOT_METRICS_PASSWORD}",
            description = "its password (default: the environment's BALLOT_METRICS_PASSWORD, which keeps it off the command line)",
            scope = CommandLine.ScopeType.INHERIT)
    String metricsPassword;

    @Option(names = "--metrics-token", defaultValue = "${env:BALLOT_METRICS_TOKEN}",
            description = "token, when the node's metrics_authentication is bearer (default: the environment's BALLOT_METRICS_TOKEN)",
            scope = CommandLine.ScopeType.INHERIT)
    String metricsToken;

    @Option(names = "--metrics-tls", description = "call the metrics port over HTTPS (the node's metrics_encryption_options)",
            scope = CommandLine.ScopeType.INHERIT)
    boolean metricsTls;

    @Option(names = "--metrics-truststore", description = "PKCS12 or JKS file of the certificates to trust (default: the JDK's)",
            scope = CommandLine.ScopeType.INHERIT)
    java.nio.file.Path metricsTruststore;

    @Option(names = "--metrics-truststore-password", defaultValue = "${env:BALLOT_METRICS_TRUSTSTORE_PASSWORD}",
            description = "its password (default: the environment's BALLOT_METRICS_TRUSTSTORE_PASSWORD)", scope = CommandLine.ScopeType.INHERIT)
    String metricsTruststorePassword;

    @Option(names = "--json", description = "print JSON for programs instead of text for people", scope = CommandLine.ScopeType.INHERIT)
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The CLI, whose failures print one line naming what failed (a node it cannot reach: its address) and exit 1. */
    static CommandLine commandLine() {
        AdminCli cli = new AdminCli();
        CommandLine cmd = new CommandLine(cli);
        cmd.setExecutionExceptionHandler((e, failed, parsed) -> {
            failed.getErr().println("ballot-admin " + failed.getCommandName() + ": " + cli.describe(e));
            failed.getErr().flush();
            return 1;
        });
        return cmd;
    }

    /** A failure in one line: the CLI's own messages as they are, a node it cannot reach by address. */
    private String describe(Exception e) {
        if (e instanceof Failure) return e.getMessage();
        if (e instanceof com.datastax.oss.driver.api.core.AllNodesFailedException)
            return "cannot reach the node over CQL at " + host + ":" + port + " (is it up, and is --host/--port right?)";
        if (e instanceof com.datastax.oss.driver.api.core.servererrors.InvalidQueryException) return "the node refused: " + e.getMessage();
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    /** What a command could not do, for the user: printed as it is, in one line. */
    static final class Failure extends RuntimeException {
        Failure(String message) {
            super(message);
        }
    }

    /** Where commands print: the command line's own writer, so tests read it. */
    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    private static final ObjectMapper JSON = new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT);

    /** Prints {@code value} as JSON (records and maps; snake_case names). */
    void printJson(Object value) {
        try {
            out().println(JSON.writeValueAsString(value));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
        out().flush();
    }

    AdminCalls adminCalls() {
        return new AdminCalls(host, metricsPort, MetricsAccess.of(metricsUser, metricsPassword, metricsToken, metricsTls, metricsTruststore,
                metricsTruststorePassword));
    }

    InetSocketAddress contact() {
        return new InetSocketAddress(host, port);
    }

    CqlSession connect() {
        return CqlSession.builder().addContactPoint(contact()).withLocalDatacenter(localDc()).build();
    }

    private String localDc() {
        try (CqlSession probe = CqlSession.builder().addContactPoint(new InetSocketAddress(host, port)).withLocalDatacenter("datacenter1").build()) {
            return probe.execute("SELECT data_center FROM system.local").one().getString(0);
        } catch (RuntimeException e) {
            return "datacenter1";
        }
    }

    /** One node as the CLI shows it. */
    record Node(UUID hostId, InetAddress address, String dataCenter, String rack, String status, String state, List<Long> tokens) {}

    /**
     * The cluster as one node sees it: system.local, system.peers and system_views.nodes are all read from the same
     * node (the first contact point when it is up), since each node answers them from its own point of view.
     */
    static List<Node> nodes(CqlSession session, InetSocketAddress contact) {
        java.util.function.Function<String, ResultSet> query = cql -> ask(session, contact, SimpleStatement.newInstance(cql));
        Map<UUID, List<Long>> tokens = new TreeMap<>();
        Row local = query.apply("SELECT host_id, tokens FROM system.local").one();
        tokens.put(local.getUuid(0), parse(local.getSet(1, String.class)));
        for (Row peer : query.apply("SELECT host_id, tokens FROM system.peers")) tokens.put(peer.getUuid(0), parse(peer.getSet(1, String.class)));
        List<Node> nodes = new ArrayList<>();
        for (Row r : query.apply("SELECT host_id, address, data_center, rack, status, state FROM system_views.nodes")) {
            UUID id = r.getUuid("host_id");
            nodes.add(new Node(id, r.getInetAddress("address"), r.getString("data_center"), r.getString("rack"),
                    r.getString("status"), r.getString("state"), tokens.getOrDefault(id, List.of())));
        }
        nodes.sort(Comparator.comparing((Node n) -> n.dataCenter()).thenComparing(n -> n.address().getHostAddress()));
        return nodes;
    }

    /** Columns padded to their widest cell, one space apart, as nodetool's tables. */
    static void printAligned(PrintWriter out, List<List<String>> rows) {
        int[] widths = new int[rows.get(0).size()];
        for (List<String> row : rows) for (int i = 0; i < row.size(); i++) widths[i] = Math.max(widths[i], row.get(i).length());
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                if (i > 0) line.append(' ');
                line.append(i == row.size() - 1 ? row.get(i) : String.format("%-" + widths[i] + "s", row.get(i)));
            }
            out.println(line);
        }
    }

    /** Runs {@code statement} on the node the user named: system tables answer from that node's point of view. */
    static ResultSet ask(CqlSession session, InetSocketAddress contact, SimpleStatement statement) {
        return session.execute(statement.setNode(viewpoint(session, contact)));
    }

    /** The node the user named, or any node up when the driver knows it under another address. */
    private static com.datastax.oss.driver.api.core.metadata.Node viewpoint(CqlSession session, InetSocketAddress contact) {
        var nodes = session.getMetadata().getNodes().values();
        return nodes.stream().filter(n -> contact.equals(n.getEndPoint().resolve())).findFirst()
                .or(() -> nodes.stream().filter(n -> n.getState() == NodeState.UP).findFirst())
                .orElseThrow(() -> new IllegalStateException("no node of the cluster is up"));
    }

    private static List<Long> parse(Set<String> tokens) {
        List<Long> out = new ArrayList<>();
        if (tokens != null) for (String t : tokens) out.add(Long.parseLong(t));
        out.sort(Long::compare);
        return out;
    }

    /** Each node's share of the ring as primary owner: the sum of the token ranges ending at its tokens. */
    static Map<UUID, Double> ownership(List<Node> nodes) {
        TreeMap<Long, UUID> ring = new TreeMap<>();
        for (Node n : nodes) for (long t : n.tokens()) ring.put(t, n.hostId());
        Map<UUID, BigInteger> owned = new TreeMap<>();
        BigInteger full = BigInteger.TWO.pow(64);
        Long previous = ring.isEmpty() ? null : ring.lastKey();
        for (Map.Entry<Long, UUID> e : ring.entrySet()) {
            BigInteger size = BigInteger.valueOf(e.getKey()).subtract(BigInteger.valueOf(previous));
            if (size.signum() <= 0) size = size.add(full);
            owned.merge(e.getValue(), size, BigInteger::add);
            previous = e.getKey();
        }
        Map<UUID, Double> out = new TreeMap<>();
        owned.forEach((id, size) -> out.put(id, new java.math.BigDecimal(size).divide(new java.math.BigDecimal(full), 6, java.math.RoundingMode.HALF_UP).doubleValue()));
        return out;
    }

    /** A node as {@code status --json} prints it; {@code owns} is a fraction of the ring. */
    record NodeStatus(UUID hostId, String address, String dataCenter, String rack, String status, String state, int tokens, double owns) {}

    /** A token as {@code ring --json} prints it. */
    record TokenOwner(long token, String address, String rack, String status, String state) {}

    @Command(name = "status", description = "Nodes by data center, with their state and ring ownership (like nodetool status).")
    static final class Status implements Callable<Integer> {
        @CommandLine.ParentCommand
        AdminCli parent;

        @Override
        public Integer call() {
            try (CqlSession session = parent.connect()) {
                List<Node> nodes = nodes(session, parent.contact());
                Map<UUID, Double> owns = ownership(nodes);
                if (parent.json) {
                    parent.printJson(nodes.stream().map(n -> new NodeStatus(n.hostId(), n.address().getHostAddress(), n.dataCenter(),
                            n.rack(), n.status(), n.state(), n.tokens().size(), owns.getOrDefault(n.hostId(), 0.0))).toList());
                    return 0;
                }
                PrintWriter out = parent.out();
                String dc = null;
                for (Node n : nodes) {
                    if (!n.dataCenter().equals(dc)) {
                        dc = n.dataCenter();
                        out.println("Datacenter: " + dc);
                        out.println("=".repeat(12 + dc.length()));
                        out.println("Status=Up/Down");
                        out.println("|/ State=Normal/Leaving/Joining/Moving");
                        out.printf("%-3s %-16s %-7s %-7s %-37s %s%n", "--", "Address", "Tokens", "Owns", "Host ID", "Rack");
                    }
                    String code = (n.status().equals("UP") ? "U" : "D") + n.state().charAt(0);
                    out.printf("%-3s %-16s %-7d %-7s %-37s %s%n", code, n.address().getHostAddress(), n.tokens().size(),
                            String.format("%.1f%%", 100 * owns.getOrDefault(n.hostId(), 0.0)), n.hostId(), n.rack());
                }
                out.flush();
                return 0;
            }
        }
    }

    @Command(name = "ring", description = "Every token of the ring with its node (like nodetool ring).")
    static final class Ring implements Callable<Integer> {
        @CommandLine.ParentCommand
        AdminCli parent;

        @Override
        public Integer call() {
            try (CqlSession session = parent.connect()) {
                TreeMap<Long, Node> ring = new TreeMap<>();
                for (Node n : nodes(session, parent.contact())) for (long t : n.tokens()) ring.put(t, n);
                if (parent.json) {
                    parent.printJson(ring.entrySet().stream().map(e -> new TokenOwner(e.getKey(), e.getValue().address().getHostAddress(),
                            e.getValue().rack(), e.getValue().status(), e.getValue().state())).toList());
                    return 0;
                }
                PrintWriter out = parent.out();
                out.printf("%-16s %-12s %-6s %-8s %s%n", "Address", "Rack", "Status", "State", "Token");
                for (Map.Entry<Long, Node> e : ring.entrySet()) {
                    Node n = e.getValue();
                    out.printf("%-16s %-12s %-6s %-8s %d%n", n.address().getHostAddress(), n.rack(),
                            n.status().equals("UP") ? "Up" : "Down", n.state().substring(0, 1) + n.state().substring(1).toLowerCase(), e.getKey());
                }
                out.flush();
                return 0;
            }
        }
    }

    @Command(name = "settraceprobability", description = "Sets the fraction of requests the node traces without being asked (like nodetool settraceprobability).")
    static final class SetTraceProbability implements Callable<Integer> {
        @CommandLine.ParentCommand
        AdminCli parent;

        @CommandLine.Parameters(description = "between 0 (trace none) and 1 (trace all)")
        String probability;

        @Override
        public Integer call() {
            String now = parent.adminCalls().text("POST", "/storage_service/trace_probability",
                    "probability=" + URLEncoder.encode(probability, StandardCharsets.UTF_8));
            if (parent.json) parent.printJson(Map.of("trace_probability", Double.parseDouble(now)));
            return 0;
        }
    }

    @Command(name = "gettraceprobability", description = "Prints the node's trace probability (like nodetool gettraceprobability).")
    static final class GetTraceProbability implements Callable<Integer> {
        @CommandLine.ParentCommand
        AdminCli parent;

        @Override
        public Integer call() {
            String now = parent.adminCalls().text("GET", "/storage_service/trace_probability", null);
            if (parent.json) {
                parent.printJson(Map.of("trace_probability", Double.parseDouble(now)));
            } else {
                parent.out().println("Current trace probability: " + now);
                parent.out().flush();
            }
            return 0;
        }
    }
}
