package ballot.node;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Starts a node: {@code ballot-server [--config FILE] [--data DIR] [--address IP] [--port N] [--storage-port N]
 * [--metrics-port N]}. With no arguments, one node on 127.0.0.1:9042 (metrics on port 9180) with data in ./data. Stops
 * cleanly on SIGTERM / Ctrl-C.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws InterruptedException {
        NodeConfig config;
        try {
            config = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("ballot: " + e.getMessage());
            System.err.println("usage: ballot-server [--config FILE] [--data DIR] [--address IP] [--port N] [--storage-port N] [--metrics-port N]");
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
