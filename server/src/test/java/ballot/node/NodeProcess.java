package ballot.node;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Ballot node run as its own JVM from the shaded server jar, configured by a YAML file in its directory. The data
 * directory outlives the process, so a node killed with SIGKILL restarts on what it had written.
 */
final class NodeProcess implements AutoCloseable {
    private static final Path JAR = Path.of("target", "ballot-server-all.jar").toAbsolutePath();

    /** The data center every node is in unless told otherwise (the node's default). */
    static final String DEFAULT_DATA_CENTER = "datacenter1";

    final String address;
    final int nativePort;
    final int storagePort;
    final String dataCenter;
    private final Path directory;
    private final List<String> seeds;
    private Process process;
    private int starts;
    /** 0: no metrics endpoint, since several test JVMs and worktrees share this machine's loopback ports. */
    private int metricsPort;
    /** More lines of node.yaml. */
    private final List<String> settings = new java.util.ArrayList<>();

    NodeProcess(Path directory, String address, int nativePort, int storagePort, List<String> seeds) {
        this(directory, address, nativePort, storagePort, seeds, DEFAULT_DATA_CENTER);
    }

    NodeProcess(Path directory, String address, int nativePort, int storagePort, List<String> seeds, String dataCenter) {
        this.directory = directory;
        this.address = address;
        this.nativePort = nativePort;
        this.storagePort = storagePort;
        this.seeds = seeds;
        this.dataCenter = dataCenter;
    }

    /** Starts {@code size} nodes on 127.0.0.1..size (free ports, the first node the seed), one after the other. */
    static List<NodeProcess> startCluster(Path directory, int size) throws IOException, InterruptedException {
        return startCluster(directory, java.util.Collections.nCopies(size, DEFAULT_DATA_CENTER));
    }

    /** The same with node i (127.0.0.i) in data center {@code dataCenters[i - 1]}. */
    static List<NodeProcess> startCluster(Path directory, List<String> dataCenters) throws IOException, InterruptedException {
        return startCluster(directory, dataCenters, List.of());
    }

    /** The same with {@code settings} (lines "key: value") in every node's node.yaml. */
    static List<NodeProcess> startCluster(Path directory, List<String> dataCenters, List<String> settings)
            throws IOException, InterruptedException {
        int nativePort = freePort();
        int storagePort = freePort();
        List<NodeProcess> nodes = new java.util.ArrayList<>();
        for (int i = 1; i <= dataCenters.size(); i++) {
            nodes.add(new NodeProcess(directory.resolve("node" + i), "127.0.0." + i, nativePort, storagePort,
                    List.of("127.0.0.1:" + storagePort), dataCenters.get(i - 1)).settings(settings).start());
        }
        return nodes;
    }

    /**
     * The driver settings the multi-process tests share: requests wait 20 s (a restarting cluster on a loaded machine)
     * and the driver reconnects to a restarted node within a second.
     */
    static com.datastax.oss.driver.api.core.config.ProgrammaticDriverConfigLoaderBuilder driverConfig() {
        return com.datastax.oss.driver.api.core.config.DriverConfigLoader.programmaticBuilder()
                .withDuration(com.datastax.oss.driver.api.core.config.DefaultDriverOption.REQUEST_TIMEOUT, java.time.Duration.ofSeconds(20))
                // a connection's first queries get as long as any request: on a loaded 2-core machine the driver's
                // 5 s failed tests whose node was busy but serving (ResultMemoryIT while forty scans wait)
                .withDuration(com.datastax.oss.driver.api.core.config.DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, java.time.Duration.ofSeconds(20))
                .withDuration(com.datastax.oss.driver.api.core.config.DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, java.time.Duration.ofSeconds(20))
                .withDuration(com.datastax.oss.driver.api.core.config.DefaultDriverOption.RECONNECTION_BASE_DELAY, java.time.Duration.ofMillis(200))
                .withDuration(com.datastax.oss.driver.api.core.config.DefaultDriverOption.RECONNECTION_MAX_DELAY, java.time.Duration.ofSeconds(1));
    }

    /** Serves metrics (and the console) on {@code port} from the next start on. */
    NodeProcess metricsPort(int port) {
        metricsPort = port;
        return this;
    }

    /** Adds YAML lines (further settings) to the node's file from the next start on. */
    NodeProcess settings(List<String> yamlLines) {
        settings.addAll(yamlLines);
        return this;
    }

    /** Starts the process and waits (at most 60 s) until it logs that it serves CQL. */
    NodeProcess start() throws IOException, InterruptedException {
        Path log = launch();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (Files.readString(log).contains("node started")) return this;
            if (!process.isAlive()) break;
            Thread.sleep(100);
        }
        throw new AssertionError("node " + address + " did not start:\n" + Files.readString(log));
    }

    /** Starts the process without waiting for it; returns its log. */
    Path launch() throws IOException {
        if (!Files.exists(JAR)) throw new AssertionError("the server jar " + JAR + " is built by the package phase");
        Files.createDirectories(directory);
        Path config = directory.resolve("node.yaml");
        Files.writeString(config, String.join("\n",
                "cluster_name: it",
                "listen_address: " + address,
                "storage_port: " + storagePort,
                "native_transport_address: " + address,
                "native_transport_port: " + nativePort,
                "metrics_port: " + metricsPort,
                "data_file_directory: " + directory.resolve("data"),
                "phi_convict_threshold: 5",
                "datacenter: " + dataCenter,
                "seeds: [" + String.join(", ", seeds.stream().map(s -> "\"" + s + "\"").toList()) + "]",
                String.join("\n", settings),
                ""));
        Path log = directory.resolve("node-" + (++starts) + ".log");
        process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m",
                "-XX:+UseSerialGC", "-jar", JAR.toString(), "--config", config.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return log;
    }

    /** SIGKILL: no shutdown hook runs and nothing is flushed. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) throw new AssertionError("node " + address + " outlived SIGKILL for 30 s");
    }

    /** SIGSTOP: the process freezes with its sockets open, as in a long GC pause or a hung host; peers see silence. */
    void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT after {@link #pause()}: the process goes on from where it stopped, its timers all overdue. */
    void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    /** Sends a signal to this node's own process, by its pid, with the system's {@code kill}. */
    private void signal(String name) throws IOException, InterruptedException {
        if (!isAlive()) throw new AssertionError("node " + address + " is not running; cannot send SIG" + name);
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).redirectErrorStream(true).start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0)
            throw new AssertionError("kill -" + name + " " + process.pid() + " failed: " + new String(kill.getInputStream().readAllBytes()));
    }

    /** Waits at most {@code wait} for the process to end by itself; its exit code, or null if it still runs. */
    Integer awaitExit(java.time.Duration wait) throws InterruptedException {
        return process.waitFor(wait.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : null;
    }

    /** The log of the process's latest start. */
    Path log() {
        return directory.resolve("node-" + starts + ".log");
    }

    /** The last {@code lines} lines of {@link #log()}, to explain a failed assertion. */
    String logTail(int lines) throws IOException {
        List<String> all = Files.readAllLines(log());
        return String.join(System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    /** A driver session to this node alone, with {@link #driverConfig()}. */
    com.datastax.oss.driver.api.core.CqlSession session() {
        return com.datastax.oss.driver.api.core.CqlSession.builder()
                .addContactPoint(new java.net.InetSocketAddress(address, nativePort)).withLocalDatacenter(dataCenter)
                .withConfigLoader(driverConfig().build()).build();
    }

    /** File descriptors the process has open now. */
    long openFiles() throws IOException {
        try (var fds = Files.list(Path.of("/proc", Long.toString(process.pid()), "fd"))) {
            return fds.count();
        }
    }

    /** The process's open-files limit as {@code soft:hard}, from /proc. */
    String openFilesLimit() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "limits"))) {
            if (!line.startsWith("Max open files")) continue;
            String[] parts = line.substring("Max open files".length()).trim().split("\\s+");
            return parts[0] + ":" + parts[1];
        }
        throw new IllegalStateException("no open-files limit in /proc/" + process.pid() + "/limits");
    }

    /** Sets the running process's open-files limit ({@code soft:hard}) with prlimit. */
    void openFilesLimit(String softHard) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("prlimit", "--pid", Long.toString(process.pid()), "--nofile=" + softHard)
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0)
            throw new AssertionError("prlimit --nofile=" + softHard + " failed: " + output);
    }

    /** Lowers the open-files limit to what the process has open, keeping the hard limit; returns the old limit. */
    String exhaustFileDescriptors() throws IOException, InterruptedException {
        String limit = openFilesLimit();
        openFilesLimit(openFiles() + ":" + limit.split(":")[1]);
        return limit;
    }

    long pid() {
        return process.pid();
    }

    /** Where the node keeps its data (a test may mount a small filesystem there before the first start). */
    Path dataDirectory() {
        return directory.resolve("data");
    }

    boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** SIGKILL ends a paused process too. */
    @Override
    public void close() {
        if (isAlive()) process.destroyForcibly();
    }

    /** A port free on the loopback interface now (the node binds it moments later). */
    /** The driver's node for this process, to pin a statement's coordinator. */
    com.datastax.oss.driver.api.core.metadata.Node driverNode(com.datastax.oss.driver.api.core.CqlSession session) {
        return session.getMetadata().getNodes().values().stream()
                .filter(n -> n.getBroadcastRpcAddress().map(a -> a.getAddress().getHostAddress().equals(address)).orElse(false))
                .findFirst().orElseThrow(() -> new IllegalStateException("the driver does not know " + address));
    }

    /**
     * Polls {@code condition} every 200 ms until it holds, for at most {@code wait}. A driver error while the cluster
     * settles counts as "not yet"; the last one is the timeout's cause.
     */
    static void await(String what, java.time.Duration wait, java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        RuntimeException last = null;
        while (true) {
            try {
                if (condition.getAsBoolean()) return;
            } catch (RuntimeException e) {
                last = e;
            }
            if (System.nanoTime() > deadline)
                throw new AssertionError("timed out after " + wait.toSeconds() + " s waiting until " + what, last);
            Thread.sleep(200);
        }
    }

    /** Ports handed out by this JVM: never twice, though a node may not have bound one yet. */
    private static final java.util.Set<Integer> HANDED_OUT = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * A port for a node process to listen on, free now on 127.0.0.1-3. It is below Linux's ephemeral range (32768 and
     * up): a port from that range was sometimes taken, before the node bound it, by an outbound internode connection
     * of another node on the same address (they bind their node's address with port 0), and the node failed to start
     * with "Address already in use".
     */
    static int freePort() throws IOException {
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 1000; attempt++) {
            int port = random.nextInt(20_000, 32_000);
            if (!HANDED_OUT.contains(port) && bindable(port) && HANDED_OUT.add(port)) return port;
        }
        throw new IOException("no free port below the ephemeral range on 127.0.0.1-3 after 1000 attempts");
    }

    private static boolean bindable(int port) {
        for (String ip : List.of("127.0.0.1", "127.0.0.2", "127.0.0.3")) {
            try (ServerSocket ignored = new ServerSocket(port, 1, InetAddress.getByName(ip))) {
                // bound, so free on this address
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }

    /** Deletes a directory tree left by node processes. */
    static void delete(Path directory) throws IOException {
        if (!Files.exists(directory)) return;
        try (var files = Files.walk(directory)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
