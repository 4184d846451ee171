package ballot.node;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;

/**
 * Faults on a running cluster of node processes, in cycles while time remains: SIGKILL of a random node and its
 * restart on its data, then SIGSTOP of another node for a few seconds and SIGCONT, then, for the chaos suite, one of
 * the {@link Chaos} faults in turn. One node at a time is faulty, so a quorum always could serve; each fault ends when
 * every node's failure detector sees every node alive again, so the next starts from a healed cluster. Events are
 * logged with their time since the run began.
 */
final class FaultInjector implements Callable<Void> {
    private static final Duration HEAL_WAIT = Duration.ofSeconds(90);

    /** The chaos suite's further faults, each on one node for a few seconds. */
    enum Chaos {
        /** Its data directory (a tmpfs the test mounted) is filled up with a ballast file, then the file is deleted. */
        DISK_FULL,
        /** Its open-files limit is lowered to what it has open (prlimit), then restored. */
        DESCRIPTORS_EXHAUSTED,
        /** It is stopped for 100-300 ms out of every 400-800 ms: a node on a slow, stalling disk or host. */
        STALLS
    }

    private final List<NodeProcess> nodes;
    private final CqlSession session;
    private final SplittableRandom random;
    private final long startNanos;
    private final long lastCycleStartNanos;
    private final List<Chaos> chaos;
    private final List<String> events = new ArrayList<>();
    private final java.util.Map<Chaos, Integer> chaosDone = new java.util.EnumMap<>(Chaos.class);
    private int kills;
    private int pauses;
    private int stoppedByThemselves;
    private volatile long healedNanos;

    /**
     * @param lastCycleStartNanos no cycle starts after this time since the run began (the load goes on after it)
     * @param chaos further faults, one per cycle in turn (empty: kills and pauses only)
     */
    FaultInjector(List<NodeProcess> nodes, CqlSession session, long seed, long startNanos, long lastCycleStartNanos, List<Chaos> chaos) {
        this.nodes = nodes;
        this.session = session;
        this.random = new SplittableRandom(seed);
        this.startNanos = startNanos;
        this.lastCycleStartNanos = lastCycleStartNanos;
        this.chaos = List.copyOf(chaos);
    }

    @Override
    public Void call() throws Exception {
        pauseMillis(2000, 4000); // the load warms up on a healthy cluster
        do {
            NodeProcess killed = nodes.get(random.nextInt(nodes.size()));
            log("kill -9 " + killed.address);
            killed.kill();
            kills++;
            pauseMillis(500, 2500);
            killed.start();
            log("restarted " + killed.address);
            awaitHealed();
            pauseMillis(1000, 3000);

            List<NodeProcess> others = new ArrayList<>(nodes);
            others.remove(killed);
            NodeProcess paused = others.get(random.nextInt(others.size()));
            log("kill -STOP " + paused.address);
            paused.pause();
            pauses++;
            pauseMillis(2000, 5000);
            paused.resume();
            log("kill -CONT " + paused.address);
            awaitHealed();
            if (!chaos.isEmpty()) {
                pauseMillis(1000, 3000);
                Chaos next = chaos.get((kills - 1) % chaos.size());
                NodeProcess target = nodes.get(random.nextInt(nodes.size()));
                inject(next, target);
                done(next);
                restartIfStopped(target);
                awaitHealed();
            }
            healedNanos = now();
            pauseMillis(1000, 3000);
        } while (now() < lastCycleStartNanos);
        return null;
    }

    private void inject(Chaos fault, NodeProcess node) throws Exception {
        switch (fault) {
            case DISK_FULL -> {
                java.nio.file.Path ballast = node.dataDirectory().resolve("ballast");
                long free = java.nio.file.Files.getFileStore(node.dataDirectory()).getUsableSpace();
                Tmpfs.fill(ballast, free);
                log("disk full on " + node.address + " (ballast of " + (free >> 20) + " MiB)");
                pauseMillis(4000, 8000);
                java.nio.file.Files.delete(ballast);
                log("disk space freed on " + node.address);
            }
            case DESCRIPTORS_EXHAUSTED -> {
                String limit = node.exhaustFileDescriptors();
                log("open-files limit of " + node.address + " lowered to what it has open");
                pauseMillis(4000, 8000);
                node.openFilesLimit(limit);
                log("open-files limit of " + node.address + " restored to " + limit);
            }
            case STALLS -> {
                log("stalls on " + node.address + " for 8 s");
                long end = System.nanoTime() + 8_000_000_000L;
                while (System.nanoTime() < end) {
                    node.pause();
                    pauseMillis(100, 300);
                    node.resume();
                    pauseMillis(300, 500);
                }
                log("stalls on " + node.address + " over");
            }
        }
    }

    /**
     * Restarts the node if it ended itself (storage that cannot take writes again stops the process, as a supervisor
     * such as systemd would then restart it).
     */
    private void restartIfStopped(NodeProcess node) throws Exception {
        Integer code = node.awaitExit(Duration.ofSeconds(10)); // the node stops within a few seconds of such an error
        if (code == null) return;
        log(node.address + " stopped by itself (exit code " + code + "); restarted");
        node.start();
        stoppedByThemselves++;
    }

    int stoppedByThemselves() {
        return stoppedByThemselves;
    }

    private synchronized void done(Chaos fault) {
        chaosDone.merge(fault, 1, Integer::sum);
    }

    /** How many times each chaos fault was injected. */
    synchronized java.util.Map<Chaos, Integer> chaosDone() {
        return java.util.Map.copyOf(chaosDone);
    }

    int kills() {
        return kills;
    }

    int pauses() {
        return pauses;
    }

    /** When the last cycle's faults had healed, in nanoseconds since the run began. */
    long healedNanos() {
        return healedNanos;
    }

    synchronized List<String> events() {
        return List.copyOf(events);
    }

    /**
     * Waits until every node, asked through the driver, lists all nodes UP in {@code system_views.nodes} (its failure
     * detector, which Paxos asks too). Until then a coordinator may count a dead replica alive, or a live one dead.
     */
    void awaitHealed() throws InterruptedException {
        NodeProcess.await("every node sees " + nodes.size() + " nodes up (events: " + events() + ")", HEAL_WAIT, this::allSeeAllUp);
        log("healed: every node sees " + nodes.size() + " nodes up");
    }

    private boolean allSeeAllUp() {
        for (NodeProcess p : nodes) {
            List<Row> rows = session.execute(SimpleStatement.newInstance("SELECT status FROM system_views.nodes")
                    .setNode(p.driverNode(session))).all();
            if (rows.size() != nodes.size() || !rows.stream().allMatch(r -> "UP".equals(r.getString("status")))) return false;
        }
        return true;
    }

    private void pauseMillis(int min, int max) throws InterruptedException {
        Thread.sleep(random.nextInt(min, max));
    }

    private synchronized void log(String event) {
        String line = String.format(Locale.ROOT, "[%7.1f s] %s", now() / 1e9, event);
        events.add(line);
        System.out.println("fault " + line);
    }

    private long now() {
        return System.nanoTime() - startNanos;
    }
}
