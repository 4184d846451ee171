package ballot.node;

import ballot.system.LocalNode;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Starts a node: {@code ballot-server [--config FILE] [--data DIR] [--address IP] [--port N] [--storage-port N]
 * [--metrics-port N]}, or answers {@code --help} or {@code --version} and exits. With no arguments, one node on
 * 127.0.0.1:9042 (metrics on port 9180) with data in ./data. Stops cleanly on SIGTERM / Ctrl-C.
 */
public final class Main {
    static final String USAGE = """
            usage: ballot-server [--config FILE] [--data DIR] [--address IP] [--port N] [--storage-port N] [--metrics-port N]
                   ballot-server --help | --version

            Runs one Ballot node until SIGTERM or Ctrl-C. Every setting may come from the YAML file --config
            (cassandra.yaml names: cluster_name, seeds, num_tokens, ...); the options below override it.

              --config FILE        the node's YAML settings (default: built-in defaults)
              --data DIR           data_file_directory: where the node keeps its data (default ./data)
              --address IP         listen_address and native_transport_address (default 127.0.0.1)
              --port N             native_transport_port: CQL clients (default 9042)
              --storage-port N     storage_port: other nodes (default 7000)
              --metrics-port N     metrics_port: Prometheus /metrics and the admin calls, 0 for none (default 9180)
              --help               prints this and exits
              --version            prints Ballot's version and exits
            """;

    private Main() {}

    public static void main(String[] args) throws InterruptedException {
        String answer = answerWithoutStarting(args);
        if (answer != null) {
            System.out.print(answer);
            System.exit(0);
            return;
        }
        NodeConfig config;
        try {
            config = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("ballot: " + e.getMessage());
            System.err.print(USAGE);
            System.exit(2);
            return;
        }
        // An Error no code caught (out of memory, a stack overflow) leaves the node unfit to go on: it ends the process
        // rather than leave it half alive, its threads still serving metrics with the CQL port closed.
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            System.err.print("Exception in thread \"" + thread.getName() + "\" "); // what the JVM prints without a handler
            e.printStackTrace();
            if (!(e instanceof Error)) return;
            System.err.println("ballot: " + e + " in thread " + thread.getName() + "; the node stops");
            Runtime.getRuntime().halt(1);
        });
        BallotNode node;
        try {
            node = BallotNode.start(config);
        } catch (Exception | Error e) { // an Error too: the threads started so far would keep the JVM up
            System.err.println("ballot: the node could not start: " + e);
            e.printStackTrace();
            Runtime.getRuntime().halt(1); // no node to close, and a broken JVM's exit hooks may never finish
            return;
        }
        // Storage that stopped taking writes for good (a file RocksDB could not open) leaves a node that serves reads and
        // fails every write: it ends the process, as Cassandra's disk_failure_policy: die, and a restart recovers.
        node.onStorageFailure(error -> {
            System.err.println("ballot: storage cannot take writes again without a restart (" + error + "); the node stops");
            Runtime.getRuntime().halt(3);
        });
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            node.close();
            stopped.countDown();
        }, "shutdown"));
        stopped.await();
    }

    /** The text {@code --help} or {@code --version} asks for (the first of them named), or null to start a node. */
    static String answerWithoutStarting(String[] args) {
        for (String arg : args) {
            if (arg.equals("--help") || arg.equals("-h")) return USAGE;
            if (arg.equals("--version")) return "Ballot " + BallotVersion.get() + " (CQL release_version " + LocalNode.RELEASE_VERSION + ")\n";
        }
        return null;
    }

    static NodeConfig parse(String[] args) {
        NodeConfig config = new NodeConfig();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--config")) config = NodeConfig.load(Path.of(value(args, ++i, "--config")));
        }
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--config" -> i++;
                case "--data" -> config.dataDirectory = value(args, ++i, "--data");
                case "--address" -> {
                    config.nativeTransportAddress = value(args, ++i, "--address");
                    config.listenAddress = config.nativeTransportAddress;
                }
                case "--storage-port" -> config.storagePort = port(args, ++i, "--storage-port");
                case "--port" -> config.nativeTransportPort = port(args, ++i, "--port");
                case "--metrics-port" -> config.metricsPort = port(args, ++i, "--metrics-port");
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
            }
        }
        config.validate();
        return config;
    }

    private static int port(String[] args, int i, String flag) {
        String port = value(args, i, flag);
        try {
            return Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " must be a number, was '" + port + "'");
        }
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) throw new IllegalArgumentException(flag + " needs a value");
        return args[i];
    }
}
